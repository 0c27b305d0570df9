"""A hand written on the state its game's row keeps: the game's row moved on (if it is still
the version that was read), the hand and its history line inserted, all or nothing.

On PostgreSQL this is one statement (an UPDATE and two INSERTs chained in a WITH): one round
trip instead of five (BEGIN, three statements, COMMIT), and a single statement is atomic
without a transaction of its own. Elsewhere (SQLite, the quick start) it is the same three
writes through the ORM in a transaction. Both are given the same unsaved rows and leave the
same rows behind (tests/scoring/test_kept_write.py); the statement's values are what the
models' own fields send, as the ORM prepares them (a value of a field's own kind without
going through its method each time: ``_preparer``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from functools import cache
from typing import Any

from django.db import connection, models, transaction

from ..models import Game, GameChange, Hand


def write_kept_hand(game: Game, fields: dict[str, Any], hand: Hand, change: GameChange) -> bool:
    """Updates ``game``'s row with ``fields`` if it is still at ``game.version`` and inserts
    ``hand`` and ``change`` (unsaved; their ids are set). False, with nothing written, if the
    row moved on. Raises IntegrityError, with nothing written, as the ORM would (a hand id or
    number already taken)."""
    if connection.vendor != "postgresql":
        return _write_by_orm(game, fields, hand, change)
    if connection.in_atomic_block:
        with transaction.atomic():  # a savepoint: a refusal leaves the caller's work whole
            return _write_in_one_statement(game, fields, hand, change)
    return _write_in_one_statement(game, fields, hand, change)


def _write_by_orm(game: Game, fields: dict[str, Any], hand: Hand, change: GameChange) -> bool:
    with transaction.atomic():
        if Game.objects.filter(id=game.id, version=game.version).update(**fields) != 1:
            return False
        hand.save(force_insert=True)
        change.save(force_insert=True)
    return True


def _write_in_one_statement(
    game: Game, fields: dict[str, Any], hand: Hand, change: GameChange
) -> bool:
    names = tuple(fields)
    params = [
        *(send(value) for send, value in zip(_game_preparers(names), fields.values(), strict=True)),
        game.id,
        game.version,
        *_row_values(hand),
        *_row_values(change),
    ]
    with connection.cursor() as cursor:
        cursor.execute(_statement(names), params)
        hand_id, change_id = cursor.fetchone()
    if hand_id is None:
        return False
    for row, row_id in ((hand, hand_id), (change, change_id)):
        row.pk = row_id
        row._state.adding = False
        row._state.db = connection.alias
    return True


def _row_values(row: models.Model) -> list[Any]:
    fields = _inserted(type(row))
    return [
        prepare(field.pre_save(row, add=True))
        for field, prepare in zip(fields, _row_preparers(type(row)), strict=True)
    ]


def _game_field(name: str) -> models.Field[Any, Any]:
    field = Game._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


# The natural value of each kind of field, and one to ask the field what it sends for it: the
# same value, or the same in a wrapper (PostgreSQL's integers go as Int2, Int4 or Int8, as
# Django's own method sends them). Fifty-eight values a hand went through get_db_prep_save,
# three or four calls deep, ~0.1 ms of the hand; a value of the field's own kind now costs a
# type check. Only Django's own fields take the shortcut (a field of ours that changes what it
# stores keeps its method); tests/scoring/test_kept_write.py holds every field of the three
# tables to what its own method sends.
_NATURAL: tuple[tuple[type[models.Field[Any, Any]], type, Any], ...] = (
    (models.IntegerField, int, 1),  # and small, positive, big, auto: not bool, not an IntEnum
    (models.CharField, str, "x"),  # a plain str: a TextChoices member takes the field's way
    (models.BooleanField, bool, True),
    (models.UUIDField, uuid.UUID, uuid.UUID(int=1)),
    (models.DateTimeField, datetime, datetime(2000, 1, 1, tzinfo=UTC)),  # aware ones only
)


def _as_is(value: Any) -> Any:
    return value


_PREPARING = ("get_db_prep_save", "get_db_prep_value", "get_prep_value", "to_python")


def _djangos_own(field: models.Field[Any, Any]) -> bool:
    """Whether the field prepares values with Django's own methods, none of them overridden."""
    return all(
        getattr(type(field), name).__module__.startswith("django.db.models.fields")
        for name in _PREPARING
    )


def _shortcut(field: models.Field[Any, Any]) -> tuple[type | None, Callable[[Any], Any]]:
    """The kind of value the field sends without its method, and how it sends it."""
    target = field.target_field if isinstance(field, models.ForeignKey) else field
    natural = next(
        ((kind, probe) for cls, kind, probe in _NATURAL if isinstance(target, cls)), None
    )
    if natural is None or not (_djangos_own(field) and _djangos_own(target)):
        return None, _as_is
    kind, probe = natural
    sent = field.get_db_prep_save(probe, connection)
    if sent != probe or not isinstance(sent, kind):
        return None, _as_is
    return kind, _as_is if type(sent) is kind else type(sent)


def _naive(moment: Any) -> bool:
    """As Django tells (``timezone.is_naive``): no offset, whatever its tzinfo."""
    return moment.utcoffset() is None


def _preparer(field: models.Field[Any, Any]) -> Callable[[Any], Any]:
    """``field.get_db_prep_save`` on PostgreSQL, with the shortcut for its own kind of value."""
    kind, send = _shortcut(field)
    aware_only, nullable = kind is datetime, field.null

    def prepare(value: Any) -> Any:
        if type(value) is kind and not (aware_only and _naive(value)):
            return send(value)
        if value is None and nullable:
            return None
        return field.get_db_prep_save(value, connection)

    return prepare


@cache
def _row_preparers(model: type[models.Model]) -> list[Callable[[Any], Any]]:
    return [_preparer(f) for f in _inserted(model)]


@cache
def _game_preparers(names: tuple[str, ...]) -> list[Callable[[Any], Any]]:
    return [_preparer(_game_field(name)) for name in names]


@cache
def _inserted(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def _columns(model: type[models.Model]) -> str:
    quote = connection.ops.quote_name
    return ", ".join(quote(str(f.column)) for f in _inserted(model))


def _values(model: type[models.Model]) -> str:
    return ", ".join(f"%s::{f.cast_db_type(connection)}" for f in _inserted(model))


@cache
def _statement(game_fields: tuple[str, ...]) -> str:
    """The statement for these game columns (the same few sets every time: cached)."""
    quote = connection.ops.quote_name
    game_set = ", ".join(
        f"{quote(str(_game_field(name).column))} = %s::{_game_field(name).cast_db_type(connection)}"
        for name in game_fields
    )
    game_table, hand_table = quote(Game._meta.db_table), quote(Hand._meta.db_table)
    change_table = quote(GameChange._meta.db_table)
    return (
        f"WITH moved AS (UPDATE {game_table} SET {game_set} "
        f'WHERE "id" = %s AND "version" = %s RETURNING "id"), '
        f"hand AS (INSERT INTO {hand_table} ({_columns(Hand)}) "
        f'SELECT {_values(Hand)} FROM moved RETURNING "id"), '
        f"change AS (INSERT INTO {change_table} ({_columns(GameChange)}) "
        f'SELECT {_values(GameChange)} FROM hand RETURNING "id") '
        f"SELECT (SELECT id FROM hand), (SELECT id FROM change)"
    )
