"""A hand written on the game's kept state leaves the same rows whichever writer writes it:
the one statement (PostgreSQL) or the ORM's three writes in a transaction (elsewhere); and a
write that cannot stand (the game moved on, a hand id taken) leaves nothing behind."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from django.db import IntegrityError, connection, models
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from hypothesis import given, settings
from hypothesis import strategies as st
from psycopg.types.json import Jsonb

from scoring import services
from scoring.choices import GameStatus, HandAction, HandStatus
from scoring.convert import entry_fields, kept_state, result_fields
from scoring.models import Game, GameChange, Hand
from scoring.rules import Contract, Seat, Team, apply_hand
from scoring.services import kept_write
from scoring.services.state import change_line, kept_fields
from tests.factories import UserFactory, start_game
from tests.scoring.hands import EW, NS, E, N, S, W, misdeal, played

pytestmark = pytest.mark.django_db

# A game that runs to its end: made and failed bids, a no-trump, a misdeal (standard rules).
STREAM = [
    played(N, 7, 6, NS, EW),
    played(E, 8, 3, NS, EW),
    misdeal(),
    played(S, 9, 8, NS, NS),
    played(W, 7, 7, EW, EW, trump=None, contract=Contract.NO_TRUMP),
    *[played(Seat(i % 4), 10, 8, Seat(i % 4).team, Seat(i % 4).team) for i in range(12)],
]

UNCOMPARED = {
    Game: {
        "id",
        "ns_team",
        "ew_team",
        "north",
        "east",
        "south",
        "west",
        "club",
        "created_at",
        "updated_at",
        "ended_at",
        "started_at",
    },
    Hand: {"id", "game", "client_id", "completed_at", "recorded_at", "recorded_by"},
    GameChange: {"id", "game", "at", "by"},
}


def rows(model: type[Any], **where: Any) -> list[dict[str, Any]]:
    skip = UNCOMPARED[model]
    names = [f.attname for f in model._meta.concrete_fields if f.name not in skip]
    found = list(model.objects.filter(**where).order_by("id").values(*names))
    for row in found:  # when the hand was entered differs from game to game
        for entry in (row.get("before"), row.get("after")):
            if entry:
                entry.pop("completed_at")
    return found


def record_through_the_door(game: Game, by: Any) -> None:
    """As a door records: the game's row read, then the hand applied to what it keeps."""
    for number, entry in enumerate(STREAM, start=1):
        seen = Game.objects.get(id=game.id)
        if seen.status != "in_progress":
            return
        services.hand_record(
            game_id=game.id, entry=entry, client_id=uuid.uuid4(), number=number, by=by, seen=seen
        )


def test_both_writers_leave_the_same_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    by: Any = UserFactory()
    by_statement = start_game(preset_name="standard")
    by_orm = start_game(preset_name="standard")
    record_through_the_door(by_statement, by)
    monkeypatch.setattr(kept_write, "write_kept_hand", kept_write._write_by_orm)
    monkeypatch.setattr("scoring.services.hands.write_kept_hand", kept_write._write_by_orm)
    record_through_the_door(by_orm, by)

    assert rows(Game, id=by_statement.id) == rows(Game, id=by_orm.id)
    assert rows(Hand, game=by_statement) == rows(Hand, game=by_orm)
    assert rows(GameChange, game=by_statement) == rows(GameChange, game=by_orm)
    statement_game = Game.objects.get(id=by_statement.id)
    assert statement_game.status == "finished" and statement_game.ended_at is not None
    assert Hand.objects.filter(game=by_statement).count() == statement_game.hand_count
    assert (
        GameChange.objects.filter(game=by_statement, action=HandAction.RECORD, by=by).count()
        == statement_game.hand_count
    )
    assert statement_game.version == 1 + statement_game.hand_count


def _unsaved(game: Game, *, client_id: uuid.UUID | None = None) -> tuple[Any, ...]:
    now = timezone.now()
    entry = played(N, 7, 6, NS, EW, completed_at=now)
    state = apply_hand(kept_state(game), entry)
    hand = Hand(
        game=game,
        client_id=client_id or uuid.uuid4(),
        request_digest="0" * 64,
        **entry_fields(entry),
        **result_fields(state.hands[-1]),
    )
    change = change_line(game, HandAction.RECORD, hand_number=hand.number)
    return kept_fields(game, state, now=now), hand, change


@pytest.mark.parametrize("writer", ["statement", "orm"])
def test_a_game_that_moved_on_is_not_written(writer: str) -> None:
    game = start_game()
    stale = Game.objects.get(id=game.id)
    Game.objects.filter(id=game.id).update(version=stale.version + 1)
    fields, hand, change = _unsaved(stale)
    write = kept_write.write_kept_hand if writer == "statement" else kept_write._write_by_orm
    assert write(stale, fields, hand, change) is False
    assert hand.pk is None and change.pk is None
    assert not Hand.with_pending.filter(game=game).exists()
    assert not GameChange.objects.filter(game=game).exists()
    assert Game.objects.get(id=game.id).hand_count == 0


@pytest.mark.parametrize("writer", ["statement", "orm"])
def test_a_hand_id_taken_writes_nothing(writer: str) -> None:
    game = start_game()
    taken = uuid.uuid4()
    seen = Game.objects.get(id=game.id)
    services.hand_record(game_id=game.id, entry=played(N, 7, 6, NS, EW), client_id=taken)
    Game.objects.filter(id=game.id).update(version=seen.version)  # as if nothing had moved
    before = rows(Game, id=game.id), Hand.with_pending.count(), GameChange.objects.count()
    fields, hand, change = _unsaved(seen, client_id=taken)
    write = kept_write.write_kept_hand if writer == "statement" else kept_write._write_by_orm
    with pytest.raises(IntegrityError):
        write(seen, fields, hand, change)
    assert (rows(Game, id=game.id), Hand.with_pending.count(), GameChange.objects.count()) == (
        before
    )


def test_the_statement_is_one_query_on_postgresql(django_assert_num_queries: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("one statement on PostgreSQL only; elsewhere the ORM's three writes")
    game = start_game()
    seen = Game.objects.get(id=game.id)
    fields, hand, change = _unsaved(seen)
    with django_assert_num_queries(3):  # the test's transaction adds a savepoint and release
        assert kept_write.write_kept_hand(seen, fields, hand, change) is True
    assert Hand.objects.get(game=game).pk == hand.pk
    assert GameChange.objects.get(game=game).pk == change.pk


def _stored(model: type[Any], pk: int) -> dict[str, Any]:
    names = [f.attname for f in model._meta.concrete_fields if f.attname != "id"]
    return dict(model.objects.filter(pk=pk).values(*names).get())


@pytest.mark.parametrize("writer", ["statement", "orm"])
def test_every_value_is_stored_as_given(writer: str) -> None:
    """Times to the microsecond, the history's JSON, the client's id and text with quotes,
    accents and a backslash come back as they were given, whichever writer wrote them."""
    game = start_game()
    seen = Game.objects.get(id=game.id)
    fields, hand, change = _unsaved(seen)
    moment = timezone.now().replace(microsecond=123457)
    hand.completed_at = moment
    fields["updated_at"] = moment
    change.by_label = 'Émilie "la Marqueuse" \\ Nord–Sud'
    change.reason = "Corrigée : 5♥ à l'Est"
    write = kept_write.write_kept_hand if writer == "statement" else kept_write._write_by_orm
    assert write(seen, fields, hand, change) is True

    stored_hand, stored_change = _stored(Hand, hand.pk), _stored(GameChange, change.pk)
    assert stored_hand["completed_at"] == moment
    assert stored_hand["client_id"] == hand.client_id
    assert stored_hand["recorded_at"] == hand.recorded_at
    assert stored_change["by_label"] == change.by_label
    assert stored_change["reason"] == change.reason
    assert stored_change["after"] == change.after and stored_change["before"] is None
    assert stored_change["at"] == change.at
    stored_game = Game.objects.get(id=game.id)
    assert stored_game.updated_at == moment
    assert {name: getattr(stored_game, name) for name in fields} == fields


class _NoOffset(tzinfo):
    """A tzinfo that gives no offset: Django counts its times naive."""

    def utcoffset(self, dt: datetime | None) -> None:
        return None

    def dst(self, dt: datetime | None) -> None:
        return None

    def tzname(self, dt: datetime | None) -> str:
        return "nowhere"


_NO_OFFSET: tzinfo | None = _NoOffset()


_ANY_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63 - 1),
    st.text(max_size=20),
    st.text(max_size=20).map(mark_safe),  # a str subclass
    st.text(max_size=20).map(lambda text: gettext_lazy(text) if text else text),  # lazy
    st.uuids(),
    st.datetimes(timezones=st.sampled_from([UTC, ZoneInfo("America/Regina")])),
    st.datetimes(),  # naive: the field's own method says what becomes of it
    st.datetimes(timezones=st.just(_NO_OFFSET)),  # naive too, with a tzinfo
    st.sampled_from([*Seat, *Team, *HandStatus, *GameStatus]),  # int and str enums
)


@pytest.mark.filterwarnings("ignore:DateTimeField .* received a naive datetime:RuntimeWarning")
@settings(max_examples=300, deadline=None)
@given(value=_ANY_VALUE)
def test_every_field_sends_what_its_own_method_sends(value: Any) -> None:
    """The statement's values skip each field's get_db_prep_save for the field's own kind of
    value; for every field of the three tables and any value, what is sent (or refused) is
    what the field's own method sends (or refuses), of the same type."""
    if connection.vendor != "postgresql":
        pytest.skip("the statement and its shortcut are PostgreSQL's")
    for model in (Game, Hand, GameChange):
        for field in model._meta.concrete_fields:
            prepare = kept_write._preparer(field)
            try:
                expected = field.get_db_prep_save(value, connection)
            except Exception as refusal:
                with pytest.raises(type(refusal)):
                    prepare(value)
                continue
            sent = prepare(value)
            where = (model.__name__, field.name, value)
            assert type(sent) is type(expected), where
            if isinstance(expected, Jsonb):  # a wrapper without equality of its own
                assert sent.obj == expected.obj, where
            else:
                assert sent == expected, where


def test_the_shortcut_is_taken_for_each_kind_of_value() -> None:
    """Not a shortcut in name only: each kind of field sends its own kind of value without
    its method (the integers in PostgreSQL's wrappers, as the method would)."""
    if connection.vendor != "postgresql":
        pytest.skip("the statement and its shortcut are PostgreSQL's")
    kinds = {
        field.name: kept_write._shortcut(field)[0]
        for model in (Game, Hand, GameChange)
        for field in model._meta.concrete_fields
    }
    assert kinds["hand_count"] is int and kinds["bid"] is int
    assert kinds["game"] is int and kinds["recorded_by"] is int  # foreign keys: the row's id
    assert kinds["status"] is str and kinds["by_label"] is str
    assert kinds["client_id"] is uuid.UUID
    assert kinds["completed_at"] is datetime and kinds["updated_at"] is datetime
    assert kinds["after"] is None  # JSON: always its field's way
    hand_count = kept_write._shortcut(Game._meta.get_field("hand_count"))[1]
    assert hand_count(7) == 7 and type(hand_count(7)) is not int  # Int2/Int4, as Django's


class _Shouting(models.CharField):  # type: ignore[type-arg]
    def get_prep_value(self, value: Any) -> Any:
        return super().get_prep_value(value).upper()


class _Cents(models.IntegerField):  # type: ignore[type-arg]
    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        return super().get_db_prep_value(value * 100, connection, prepared)


@pytest.mark.parametrize(
    ("field", "value", "stored"), [(_Shouting(), "kaiser", "KAISER"), (_Cents(), 3, 300)]
)
def test_a_field_that_changes_what_it_stores_keeps_its_own_method(
    field: Any, value: Any, stored: Any
) -> None:
    """Only Django's own fields take the shortcut: a field of ours whose method changes the
    value (of the same type) is asked every time."""
    if connection.vendor != "postgresql":
        pytest.skip("the statement and its shortcut are PostgreSQL's")
    assert kept_write._shortcut(field)[0] is None
    assert kept_write._preparer(field)(value) == stored
