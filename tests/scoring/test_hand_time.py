"""When a hand was played is the server's to decide (docs/rules.md, "When a hand was played"):
a table cannot dodge the clock by dating its hands. The red team's cases, through both doors
(the games API with a scorekeeper's session, the table endpoint with the table's code), and
a property over random games with random client times."""

from __future__ import annotations

import contextlib
import itertools
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from kaiser_club.errors import KaiserError
from kaiser_club.roles import Role
from scoring import services
from scoring.models import Game, Hand
from scoring.rules import Seat, Side
from tests.factories import member, start_game
from tests.scoring.hands import played
from tests.table.helpers import make_table, opened

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)
LONG_AGO = datetime(1970, 1, 1, tzinfo=UTC)

# Hands as both doors take them: (bidder, bid, bidding team's tricks, 5♥, 3♠). Each leaves the
# scores unequal (the bidding team fails or makes; the other side scores its cards).
HANDS = [
    (0, 7, 5, "ew", "ns"),  # N fails 7: NS -7, EW +8
    (1, 7, 7, "ew", "ns"),  # E makes 7 with the 5♥: EW +12
    (2, 8, 6, "ns", "ew"),  # S fails 8
    (3, 7, 6, "ew", "ew"),  # W makes 7
    (0, 7, 6, "ns", "ns"),
    (1, 8, 4, "ns", "ew"),
]


@dataclass
class Door:
    """A way in: it sends hand ``number`` with the client's ``completed_at`` (or none)."""

    game: Game
    send: Callable[[int, datetime | None], Any]


def _entry(number: int) -> dict[str, Any]:
    bidder, bid, tricks, five, three = HANDS[(number - 1) % len(HANDS)]
    return {
        "bidder": bidder,
        "bid": bid,
        "contract": "trump",
        "trump": "clubs",
        "bidding_team_tricks": tricks,
        "five_hearts": five,
        "three_spades": three,
    }


def _iso(moment: datetime | None) -> dict[str, str]:
    return {} if moment is None else {"completed_at": moment.isoformat()}


def api_door() -> Door:
    game = start_game(preset_name="tournament")
    Game.objects.filter(id=game.id).update(started_at=timezone.now() - 30 * MINUTE)
    client = APIClient()
    client.force_authenticate(member(game.club, Role.SCOREKEEPER))

    def send(number: int, completed_at: datetime | None) -> Any:
        body = {**_entry(number), **_iso(completed_at)}
        body.update(client_id=str(uuid.uuid4()), number=number)
        answer = client.post(f"/api/games/{game.id}/hands/", body, format="json")
        assert answer.status_code in (200, 201), answer.content[:400]
        return answer

    return Door(game=game, send=send)


def table_door() -> Door:
    setup = make_table()  # a tournament table, its clock running, opened by its code
    Game.objects.filter(id=setup.game.id).update(started_at=timezone.now() - 30 * MINUTE)
    client = opened(setup, Client())

    def send(number: int, completed_at: datetime | None) -> Any:
        entry = {**_entry(number), **_iso(completed_at)}
        body = {
            "game_id": setup.game.id,
            "number": number,
            "client_id": str(uuid.uuid4()),
            "entry": entry,
        }
        answer = client.post(
            f"/table/{setup.table.id}/hands", body, content_type="application/json"
        )
        assert answer.status_code == 200, answer.content[:400]
        return answer

    return Door(game=setup.game, send=send)


DOORS = pytest.mark.parametrize("door_of", [api_door, table_door], ids=["api", "table"])


def hands_of(game: Game) -> list[Hand]:
    return list(Hand.objects.filter(game=game).order_by("number"))


def at(hand: Hand) -> datetime:
    """When the hand counts as played (the server always sets it)."""
    assert hand.completed_at is not None
    return hand.completed_at


@DOORS
def test_a_hand_dated_before_the_game_began_is_dated_at_its_start(door_of: Any) -> None:
    door = door_of()
    door.send(1, LONG_AGO)
    door.game.refresh_from_db()
    (hand,) = hands_of(door.game)
    assert door.game.started_at is not None
    assert at(hand) == door.game.started_at


@DOORS
def test_a_hand_is_never_dated_before_the_previous_hand(door_of: Any) -> None:
    door = door_of()
    door.send(1, timezone.now() - 10 * MINUTE)
    door.send(2, timezone.now() - 20 * MINUTE)
    first, second = hands_of(door.game)
    assert at(second) == at(first)


@DOORS
@pytest.mark.parametrize("ahead", [timedelta(hours=2), timedelta(days=3000)])
def test_a_hand_dated_in_the_future_is_dated_when_it_arrived(
    door_of: Any, ahead: timedelta
) -> None:
    door = door_of()
    before = timezone.now()
    door.send(1, before + ahead)
    (hand,) = hands_of(door.game)
    assert before <= at(hand) <= hand.recorded_at <= timezone.now()


@DOORS
@pytest.mark.parametrize("dated", ["before the game", "before the call", "1970", "none"])
def test_after_the_call_a_table_cannot_play_on_by_dating_its_hands(
    door_of: Any, dated: str
) -> None:
    """The red team's case: time called at T, then hands dated before T. Only the first hand
    to arrive may count as before the call; the next is after it, and its unequal score ends
    the game on time."""
    door = door_of()
    door.send(1, None)
    door.send(2, None)
    called = services.game_call_time(game_id=door.game.id).time_called_at
    assert called is not None
    said = {
        "before the game": called - 45 * MINUTE,
        "before the call": called - MINUTE,
        "1970": LONG_AGO,
        "none": None,
    }[dated]
    door.send(3, said)
    door.game.refresh_from_db()
    if door.game.status != "finished":  # hand 3 counted before the call: hand 4 is in play
        door.send(4, said)
    game = Game.objects.get(id=door.game.id)
    hands = hands_of(game)
    assert game.status == "finished" and game.end_reason == "time", [
        (h.number, h.completed_at, h.after_time) for h in hands
    ]
    assert hands[-1].after_time and hands[-1].ns_score != hands[-1].ew_score
    before_the_call = [h for h in hands if h.recorded_at > called and not h.after_time]
    assert len(before_the_call) <= 1
    assert all(at(h) >= at(hands[0]) for h in hands)


@DOORS
def test_a_hand_finished_offline_before_the_call_and_sent_after_it_counts_before(
    door_of: Any,
) -> None:
    door = door_of()
    door.send(1, None)
    finished = timezone.now()
    called = services.game_call_time(game_id=door.game.id).time_called_at
    assert called is not None and finished <= called
    door.send(2, finished)  # the tablet was offline: it sends hand 2 now
    game = Game.objects.get(id=door.game.id)
    assert game.status == "in_progress"  # hand 2 was before the call: hand 3 is in play
    assert [h.after_time for h in hands_of(game)] == [False, False]
    door.send(3, finished)  # dated before the call too, but the second to arrive after it
    game.refresh_from_db()
    assert [h.after_time for h in hands_of(game)] == [False, False, True]
    assert game.status == "finished" and game.end_reason == "time"


@DOORS
def test_past_the_deadline_hands_dated_before_it_are_judged_after_it(door_of: Any) -> None:
    """Nobody called time: the deadline passed, and the hands arrive dated before it."""
    door = door_of()
    door.send(1, None)
    Game.objects.filter(id=door.game.id).update(started_at=timezone.now() - 65 * MINUTE)
    deadline = timezone.now() - 5 * MINUTE
    door.send(2, deadline - MINUTE)  # the first to arrive: it may be before the call
    game = Game.objects.get(id=door.game.id)
    if game.status != "finished":
        door.send(3, deadline - MINUTE)
    game = Game.objects.get(id=door.game.id)
    assert game.time_called_at is not None
    assert game.status == "finished" and game.end_reason == "time"


def test_a_correction_keeps_the_time_the_hand_was_recorded_with() -> None:
    door = api_door()
    door.send(1, None)
    (hand,) = hands_of(door.game)
    recorded_with = at(hand)
    services.hand_correct(
        game_id=door.game.id,
        number=1,
        entry=played(Seat.NORTH, 7, 6, Side.NS, Side.NS, completed_at=LONG_AGO),
        reason="mistyped",
    )
    hand.refresh_from_db()
    assert (hand.bidding_team_tricks, at(hand)) == (6, recorded_with)


# --- The property ------------------------------------------------------------------------------

hand_moves = st.tuples(
    st.just("hand"),
    st.sampled_from(range(len(HANDS))),
    st.one_of(st.none(), st.integers(min_value=-3000, max_value=3000)),  # minutes from now
    st.booleans(),  # through a door's read of the row (the unlocked first try) or not
)
clock_moves = st.sampled_from(
    [("call",), ("pause",), ("resume",), ("add", 5), ("add", -5), ("add", -70)]
)


def _play(game: Game, move: tuple[Any, ...]) -> None:
    kind = move[0]
    if kind == "hand":
        _, which, minutes, through_door = move
        bidder, bid, tricks, five, three = HANDS[which]
        said = None if minutes is None else timezone.now() + timedelta(minutes=minutes)
        entry = played(Seat(bidder), bid, tricks, Side(five), Side(three), completed_at=said)
        services.hand_record(
            game_id=game.id,
            entry=entry,
            client_id=uuid.uuid4(),
            seen=Game.objects.get(id=game.id) if through_door else None,
        )
    elif kind == "call":
        services.game_call_time(game_id=game.id)
    elif kind == "pause":
        services.clock_pause(game_id=game.id)
    elif kind == "resume":
        services.clock_resume(game_id=game.id)
    else:
        services.clock_add_minutes(game_id=game.id, minutes=move[1])


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(moves=st.lists(st.one_of(hand_moves, hand_moves, clock_moves), max_size=25))
def test_no_game_runs_on_past_time_called_once_the_scores_differ(
    moves: list[tuple[Any, ...]],
) -> None:
    game = start_game(preset_name="tournament")
    for move in moves:
        with contextlib.suppress(KaiserError):  # a refusal (the game is over, ...) changes nothing
            _play(game, move)
        game.refresh_from_db()
        hands = hands_of(game)
        for previous, hand in itertools.pairwise(hands):
            assert at(previous) <= at(hand)
        for hand in hands:
            assert at(hand) <= hand.recorded_at
        called = game.time_called_at
        if called is None:
            assert not any(h.after_time for h in hands)
            continue
        arrived_after = [h for h in hands if h.recorded_at > called]
        assert sum(not h.after_time for h in arrived_after) <= 1
        assert all(h.after_time for h in arrived_after[1:])
        for hand in hands:
            if hand.after_time and hand.kind == "played" and hand.ns_score != hand.ew_score:
                assert hand.number == len(hands), "a game played on past an unequal score"
                assert game.status == "finished"


def test_a_clock_changed_after_the_door_read_the_game_is_the_one_a_hand_is_judged_by() -> None:
    """The door reads the game, the organiser adds minutes, then the hand arrives past the old
    deadline: the row moved on (the clock's change is a new version), so the hand is judged
    under the lock against the new deadline, and time is not called."""
    game = start_game(preset_name="tournament")
    Game.objects.filter(id=game.id).update(started_at=timezone.now() - 61 * MINUTE)
    seen = Game.objects.get(id=game.id)
    services.clock_add_minutes(game_id=game.id, minutes=5)
    recorded = services.hand_record(
        game_id=game.id,
        entry=played(Seat.NORTH, 7, 5, Side.EW, Side.NS),
        client_id=uuid.uuid4(),
        seen=seen,
    )
    game.refresh_from_db()
    assert game.time_called_at is None and not recorded.hand.after_time
    assert recorded.game is seen and seen.time_called_at is None
