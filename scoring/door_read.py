"""The game a door acts on, read in one explicit statement written once per process.

A hand's door reads the game with the actor's role in its club, its club's name, its teams and
their players (what the answer shows), and whatever the apps that register with
``scoring.gates`` and ``scoring.results`` read of it (an event's pairing, event and round).
Through the ORM that read is ~2.5 ms of Python at every hand, nearly all of it the compiler
turning ten joins into SQL; the statement itself runs in a tenth of that. So the statement is
written here, once per process, from the models' documented ``_meta`` API (tables, columns,
relations), run through ``Game.objects.raw`` (which converts the game's own columns as the ORM
does), and the related rows are made with ``Model.from_db`` and set by plain assignment.
tests/scoring/test_door_read.py holds its answer equal to the ORM's for every kind of game
and reader.

A joined row's columns are read as the database gives them, so only kinds of column that every
database gives as Python gives them may be joined (text, whole numbers, keys; booleans as 0/1
are made booleans): the statement refuses to be built otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.db import connection, models
from django.db.models import Prefetch, prefetch_related_objects

from kaiser_club.models import Membership, Player

from .models import Game

GAME_TABLE_ALIAS = "g"
ROLE_ALIAS = "actor_role"
_PLAIN = (models.CharField, models.TextField, models.IntegerField, models.ForeignKey)


@dataclass
class _Join:
    """One related row read with the game: ``path`` from the game ("ns_team__player_one")."""

    path: str
    model: type[models.Model]
    alias: str
    parent: str  # the path it hangs from ("" for the game)
    name: str  # the relation's name on the parent
    on: str  # the join's condition
    reverse: bool  # the key is on the joined row (a one-to-one's other side)
    columns: list[models.Field[Any, Any]] = field(default_factory=list)

    def column_alias(self, column: models.Field[Any, Any]) -> str:
        return f"{self.alias}__{column.attname}"


@dataclass
class _Plan:
    joins: list[_Join]
    staff_sql: str
    member_sql: str


def game_as_read_by_a_door(
    *, game_id: int, user_id: int | None, related: Sequence[str], reads: Sequence[str]
) -> Game | None:
    """The game ``game_id`` with the ``related`` rows (``select_related`` paths) and, of them,
    the ``reads`` columns (``only`` paths; a path none of whose columns is named is read
    whole). With ``user_id``, the user's role in the game's club comes with it as the
    game's ``actor_role`` (None when the user has none)."""
    plan = _plan(tuple(related), tuple(reads))
    if user_id is None:
        rows = Game.objects.raw(plan.staff_sql, [game_id])
    else:
        rows = Game.objects.raw(plan.member_sql, [user_id, game_id])
    game = next(iter(rows), None)
    if game is None:
        return None
    read: dict[str, models.Model | None] = {"": game}
    for join in plan.joins:
        key = getattr(game, join.column_alias(join.model._meta.pk))  # None: no row joined
        values = [_as_python(c, getattr(game, join.column_alias(c))) for c in join.columns]
        for column in join.columns:
            delattr(game, join.column_alias(column))
        holder = read[join.parent]
        row = (
            join.model.from_db(connection.alias, [c.attname for c in join.columns], values)
            if key is not None
            else None
        )
        read[join.path] = row
        if holder is None:
            continue
        if row is not None:
            setattr(holder, join.name, row)
        elif join.reverse:  # known to be none: Django's prefetch of nothing says so, unasked
            prefetch_related_objects(
                [holder], Prefetch(join.name, join.model._default_manager.none())
            )
    return game


def _as_python(column: models.Field[Any, Any], value: Any) -> Any:
    if isinstance(column, models.BooleanField) and value is not None:
        return bool(value)
    return value


@cache
def _plan(related: tuple[str, ...], reads: tuple[str, ...]) -> _Plan:
    quote = connection.ops.quote_name
    joins: dict[str, _Join] = {}
    for path in related:
        _add_path(joins, path)
    for join in joins.values():
        join.columns = _columns(join, joins.values(), reads)
    game_columns = ", ".join(
        f"{GAME_TABLE_ALIAS}.{quote(str(f.column))}" for f in Game._meta.concrete_fields
    )
    joined_columns = "".join(
        f", {join.alias}.{quote(str(c.column))} AS {quote(join.column_alias(c))}"
        for join in joins.values()
        for c in join.columns
    )
    froms = f"{quote(Game._meta.db_table)} {GAME_TABLE_ALIAS}" + "".join(
        f" LEFT OUTER JOIN {quote(join.model._meta.db_table)} {join.alias} ON {join.on}"
        for join in joins.values()
    )
    by_id = f" WHERE {GAME_TABLE_ALIAS}.{quote(str(Game._meta.pk.column))} = %s"
    staff_sql = f"SELECT {game_columns}{joined_columns} FROM {froms}{by_id}"
    member_sql = (
        f"SELECT {game_columns}, ({_role_in_club()}) AS {quote(ROLE_ALIAS)}{joined_columns} "
        f"FROM {froms}{by_id}"
    )
    return _Plan(joins=list(joins.values()), staff_sql=staff_sql, member_sql=member_sql)


def _add_path(joins: dict[str, _Join], path: str) -> None:
    names = path.split("__")
    parent: str = ""
    model: type[models.Model] = Game
    for depth, name in enumerate(names, start=1):
        here = "__".join(names[:depth])
        relation = model._meta.get_field(name)
        target = relation.related_model
        assert isinstance(target, type) and issubclass(target, models.Model), path
        # One row at most on the other side: a key, or a one-to-one's other side.
        assert relation.many_to_one or relation.one_to_one, f"{path}: not one row"
        if here not in joins:
            parent_alias = joins[parent].alias if parent else GAME_TABLE_ALIAS
            joins[here] = _Join(
                path=here,
                model=target,
                alias=f"j{len(joins) + 1}",
                parent=parent,
                name=name,
                on=_condition(relation, parent_alias, f"j{len(joins) + 1}"),
                reverse=not relation.concrete,
            )
        parent, model = here, target


def _condition(relation: Any, parent_alias: str, alias: str) -> str:
    quote = connection.ops.quote_name
    if relation.concrete:  # a key on the parent's row
        target = relation.target_field.column
        return f"{alias}.{quote(target)} = {parent_alias}.{quote(relation.column)}"
    remote = relation.remote_field  # a one-to-one key on the joined row (the reverse side)
    return f"{alias}.{quote(remote.column)} = {parent_alias}.{quote(remote.target_field.column)}"


def _columns(
    join: _Join, joins: Iterable[_Join], reads: tuple[str, ...]
) -> list[models.Field[Any, Any]]:
    """The joined row's key, the columns named in ``reads`` (all when none is) and the keys
    that deeper joins hang from, in the model's order."""
    meta = join.model._meta
    prefix = f"{join.path}__"
    named = [
        r[len(prefix) :] for r in reads if r.startswith(prefix) and "__" not in r[len(prefix) :]
    ]
    deeper = [j.name for j in joins if j.parent == join.path]
    wanted = [meta.pk, *(meta.get_field(n) for n in [*named, *deeper])] if named else None
    chosen: list[models.Field[Any, Any]] = []
    for column in wanted or meta.concrete_fields:
        if not getattr(column, "concrete", False) or column in chosen:
            continue
        assert isinstance(column, models.Field)
        target = column.target_field if isinstance(column, models.ForeignKey) else column
        if not isinstance(target, (*_PLAIN, models.BooleanField, models.AutoField)):
            raise TypeError(
                f"The door's read cannot join {join.path}.{column.name} "
                f"({type(column).__name__}): read it with the ORM, or convert it here."
            )
        chosen.append(column)
    order = list(meta.concrete_fields)  # as Model.from_db takes them
    return sorted(chosen, key=order.index)


def _role_in_club() -> str:
    """The user's role in the game's club (one membership per club and player)."""
    quote = connection.ops.quote_name

    def column(model: type[models.Model], name: str) -> str:
        found = model._meta.get_field(name)
        assert isinstance(found, models.Field)
        return quote(str(found.column))

    return (
        f"SELECT m.{column(Membership, 'role')} "
        f"FROM {quote(Membership._meta.db_table)} m "
        f"INNER JOIN {quote(Player._meta.db_table)} p "
        f"ON p.{column(Player, 'id')} = m.{column(Membership, 'player')} "
        f"WHERE m.{column(Membership, 'club')} = {GAME_TABLE_ALIAS}.{column(Game, 'club')} "
        f"AND p.{column(Player, 'user')} = %s LIMIT 1"
    )
