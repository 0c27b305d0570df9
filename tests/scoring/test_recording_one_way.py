"""A hand is recorded one way: applied to the state the game's row keeps, the row written only
if it is still the version read; when it moved on, the same steps run under the row's lock.
Both runs leave the same rows, and a run that cannot stand leaves nothing behind."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from scoring import services
from scoring.choices import HandAction
from scoring.errors import ClientIdReused, StaleGame
from scoring.models import Game, GameChange, Hand
from scoring.rules import Contract, Seat
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


def record_all(game: Game, by: Any, *, seen: bool, stale: bool = False) -> None:
    """Records the stream as a door does (``seen``: the row just read), or with no row read;
    ``stale``: the row read is one hand behind, so that every write runs under the lock."""
    behind = Game.objects.get(id=game.id)
    for entry in STREAM:
        current = Game.objects.get(id=game.id)
        if current.status != "in_progress":
            return
        row = behind if stale else current
        recorded = services.hand_record(
            game_id=game.id,
            entry=entry,
            client_id=uuid.uuid4(),
            by=by,
            seen=row if seen else None,
        )
        assert recorded.created
        if seen:
            assert recorded.game is row  # the door's row, brought up to date
            assert recorded.game.version == Game.objects.get(id=game.id).version
        behind = current


def test_the_unlocked_and_the_locked_run_leave_the_same_rows() -> None:
    by: Any = UserFactory()
    unlocked, locked, moved_on = (start_game(preset_name="standard") for _ in range(3))
    record_all(unlocked, by, seen=True)
    record_all(locked, by, seen=False)
    record_all(moved_on, by, seen=True, stale=True)

    for other in (locked, moved_on):
        assert rows(Game, id=unlocked.id) == rows(Game, id=other.id)
        assert rows(Hand, game=unlocked) == rows(Hand, game=other)
        assert rows(GameChange, game=unlocked) == rows(GameChange, game=other)
    game = Game.objects.get(id=unlocked.id)
    assert game.status == "finished" and game.ended_at is not None
    assert Hand.objects.filter(game=game).count() == game.hand_count
    assert (
        GameChange.objects.filter(game=game, action=HandAction.RECORD, by=by).count()
        == game.hand_count
    )
    assert game.version == 1 + game.hand_count


def test_a_row_that_moved_on_is_brought_up_to_date_and_the_hand_numbered_after() -> None:
    game = start_game()
    stale = Game.objects.get(id=game.id)
    services.hand_record(game_id=game.id, entry=STREAM[0], client_id=uuid.uuid4())
    recorded = services.hand_record(
        game_id=game.id, entry=STREAM[1], client_id=uuid.uuid4(), seen=stale
    )
    assert recorded.hand.number == 2
    assert recorded.game is stale and stale.hand_count == 2
    assert stale.version == Game.objects.get(id=game.id).version


def test_a_retry_answers_with_its_hand_and_writes_nothing() -> None:
    game = start_game()
    client_id = uuid.uuid4()
    first = services.hand_record(game_id=game.id, entry=STREAM[0], client_id=client_id, number=1)
    counts = (Hand.objects.count(), GameChange.objects.count())
    version = Game.objects.get(id=game.id).version
    again = services.hand_record(
        game_id=game.id,
        entry=STREAM[0],
        client_id=client_id,
        number=1,
        seen=Game.objects.get(id=game.id),
    )
    assert not again.created and again.hand.id == first.hand.id
    assert (Hand.objects.count(), GameChange.objects.count()) == counts
    assert Game.objects.get(id=game.id).version == version


def test_an_id_used_for_another_hand_is_refused_and_writes_nothing() -> None:
    game = start_game()
    client_id = uuid.uuid4()
    services.hand_record(game_id=game.id, entry=STREAM[0], client_id=client_id)
    counts = (Hand.objects.count(), GameChange.objects.count())
    with pytest.raises(ClientIdReused):
        services.hand_record(
            game_id=game.id,
            entry=STREAM[1],
            client_id=client_id,
            seen=Game.objects.get(id=game.id),
        )
    assert (Hand.objects.count(), GameChange.objects.count()) == counts


def test_an_entry_for_a_hand_already_recorded_is_stale_and_writes_nothing() -> None:
    game = start_game()
    services.hand_record(game_id=game.id, entry=STREAM[0], client_id=uuid.uuid4(), number=1)
    counts = (Hand.objects.count(), GameChange.objects.count())
    with pytest.raises(StaleGame):
        services.hand_record(
            game_id=game.id,
            entry=STREAM[1],
            client_id=uuid.uuid4(),
            number=1,
            seen=Game.objects.get(id=game.id),
        )
    assert (Hand.objects.count(), GameChange.objects.count()) == counts
