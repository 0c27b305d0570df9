"""Two devices writing one game at once, on PostgreSQL with real transactions.

Each thread enters its own transaction, waits at a barrier just before it locks the game row,
and then both race for the lock; the thread that gets it holds it a moment, so the other is
seen to wait. Exactly one hand is recorded; the other write is refused as stale (409, with the
game's current state) or, for a retry with the same client id, answered with the same hand.
A second test drops the unique constraint on (game, number) first: the row lock alone decides.
A control test removes the lock as well and shows the race is then lost, so the tests can tell.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from kaiser_club.roles import Role
from scoring import services
from scoring.errors import StaleGame
from scoring.models import Game, Hand
from scoring.services import state
from tests.conftest import IN_CI
from tests.factories import member, start_game
from tests.scoring.hands import EW, NS, E, N, hand_json, played

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HOLD = 0.3  # seconds the winner holds the lock


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        message = "row-lock races need PostgreSQL (set DATABASE_URL=postgres://...)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


class Race:
    """Runs callables in threads that meet at a barrier inside their transactions."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, lock: bool = True) -> None:
        self.barrier = threading.Barrier(2, timeout=20)
        self.locked_at: dict[str, float] = {}
        met: set[str] = set()
        real_lock, real_write = state.lock_game, state.update_if_version

        def meet() -> None:
            # Each thread waits once, at the first write it reaches: the lock of the replaying
            # path, or the conditional update of the fast path (the hand applied to the kept
            # state); both threads are inside their transactions then.
            name = threading.current_thread().name
            if name not in met:
                met.add(name)
                self.barrier.wait()

        def lock_at_the_barrier(game_id: int) -> Game:
            meet()
            game = real_lock(game_id) if lock else Game.objects.get(id=game_id)
            self.locked_at.setdefault(threading.current_thread().name, time.monotonic())
            time.sleep(HOLD)
            return game

        def write_at_the_barrier(game: Game, *args: Any) -> bool:
            meet()
            # The conditional update holds the row lock until its transaction ends, while the
            # other thread's update or lock waits for it.
            if lock:
                written = real_write(game, *args)
            else:  # the control: the version read is not checked either
                written = Game.objects.filter(id=game.id).update(**args[0]) == 1
            if written:
                self.locked_at.setdefault(threading.current_thread().name, time.monotonic())
                time.sleep(HOLD)
            return written

        monkeypatch.setattr("scoring.services.hands.lock_game", lock_at_the_barrier)
        monkeypatch.setattr("scoring.services.hands.update_if_version", write_at_the_barrier)

    def run(self, **calls: Callable[[], Any]) -> dict[str, Any]:
        outcomes: dict[str, Any] = {}

        def thread_body(name: str, call: Callable[[], Any]) -> None:
            try:
                outcomes[name] = call()
            except Exception as exc:  # the outcome under test
                outcomes[name] = exc
            finally:
                connection.close()

        threads = [
            threading.Thread(target=thread_body, args=(name, call), name=name)
            for name, call in calls.items()
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
            assert not thread.is_alive(), "a racing thread never finished"
        return outcomes

    def waited(self, loser: str, winner: str) -> float:
        return self.locked_at[loser] - self.locked_at[winner]


def scorekeeper_client(game: Game) -> APIClient:
    client = APIClient()
    client.force_authenticate(member(game.club, Role.SCOREKEEPER))
    return client


@pytest.fixture
def without_number_constraint() -> Iterator[None]:
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE scoring_hand DROP CONSTRAINT one_hand_per_number")
    try:
        yield
    finally:
        Hand.with_pending.all().delete()  # the control test leaves duplicates behind
        with connection.cursor() as cursor:
            cursor.execute(
                "ALTER TABLE scoring_hand "
                "ADD CONSTRAINT one_hand_per_number UNIQUE (game_id, number)"
            )


def test_two_devices_record_the_same_hand_number_one_wins_the_other_is_stale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = start_game()
    url = f"/api/games/{game.id}/hands/"
    first = hand_json(bidder=0, bid=7, tricks=6, five="ns", three="ew", number=1)
    second = hand_json(bidder=1, bid=8, tricks=5, five="ew", three="ns", number=1)
    clients = {"a": scorekeeper_client(game), "b": scorekeeper_client(game)}
    race = Race(monkeypatch)
    answers = race.run(
        a=lambda: clients["a"].post(url, first, format="json"),
        b=lambda: clients["b"].post(url, second, format="json"),
    )
    statuses = {name: answer.status_code for name, answer in answers.items()}
    assert sorted(statuses.values()) == [201, 409]
    winner = next(name for name, code in statuses.items() if code == 201)
    loser = next(name for name, code in statuses.items() if code == 409)
    winning_body = first if winner == "a" else second
    assert race.waited(loser, winner) >= HOLD * 0.9  # the loser waited for the lock

    stale = answers[loser].json()
    assert stale["code"] == "stale"
    assert "was for hand 1, but the game has 1 hand recorded" in stale["detail"]
    assert stale["game"]["hand_count"] == 1
    assert stale["game"]["version"] == 2
    assert [h["client_id"] for h in stale["game"]["hands"]] == [winning_body["client_id"]]

    rows = list(Hand.objects.filter(game=game).values_list("number", "client_id"))
    assert rows == [(1, uuid.UUID(winning_body["client_id"]))]
    game.refresh_from_db()
    assert (game.hand_count, game.version) == (1, 2)


def test_the_row_lock_decides_without_the_unique_constraint(
    monkeypatch: pytest.MonkeyPatch, without_number_constraint: None
) -> None:
    game = start_game()
    race = Race(monkeypatch)
    outcomes = race.run(
        a=lambda: services.hand_record(
            game_id=game.id, entry=played(N, 7, 6, NS, EW), client_id=uuid.uuid4(), number=1
        ),
        b=lambda: services.hand_record(
            game_id=game.id, entry=played(E, 8, 5, EW, NS), client_id=uuid.uuid4(), number=1
        ),
    )
    recorded = [o for o in outcomes.values() if isinstance(o, services.Recorded)]
    stale = [o for o in outcomes.values() if isinstance(o, StaleGame)]
    assert (len(recorded), len(stale)) == (1, 1), outcomes
    assert stale[0].status == 409 and stale[0].game_id == game.id
    assert list(Hand.objects.filter(game=game).values_list("number", flat=True)) == [1]
    assert Hand.objects.get(game=game).client_id == recorded[0].hand.client_id
    game.refresh_from_db()
    assert game.hand_count == 1


def test_control_without_the_lock_and_the_constraint_the_race_is_lost(
    monkeypatch: pytest.MonkeyPatch, without_number_constraint: None
) -> None:
    """Shows the two tests above can fail: with a plain read instead of the row lock and a
    write that does not check the version read, both devices see an empty game and both
    write hand 1."""
    game = start_game()
    race = Race(monkeypatch, lock=False)
    outcomes = race.run(
        a=lambda: services.hand_record(
            game_id=game.id, entry=played(N, 7, 6, NS, EW), client_id=uuid.uuid4(), number=1
        ),
        b=lambda: services.hand_record(
            game_id=game.id, entry=played(E, 8, 5, EW, NS), client_id=uuid.uuid4(), number=1
        ),
    )
    assert all(isinstance(o, services.Recorded) for o in outcomes.values()), outcomes
    assert list(Hand.objects.filter(game=game).values_list("number", flat=True)) == [1, 1]


def test_the_same_submission_from_two_devices_records_one_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = start_game()
    url = f"/api/games/{game.id}/hands/"
    body = hand_json(bidder=0, bid=7, tricks=6, five="ns", three="ew", number=1)
    clients = {"a": scorekeeper_client(game), "b": scorekeeper_client(game)}
    race = Race(monkeypatch)
    answers = race.run(
        a=lambda: clients["a"].post(url, body, format="json"),
        b=lambda: clients["b"].post(url, body, format="json"),
    )
    assert sorted(answer.status_code for answer in answers.values()) == [200, 201]
    hands = [answer.json()["hand"] for answer in answers.values()]
    assert hands[0] == hands[1]
    assert (hands[0]["number"], hands[0]["client_id"]) == (1, body["client_id"])
    assert (hands[0]["ns_score"], hands[0]["ew_score"]) == (11, -1)
    assert Hand.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert (game.hand_count, game.version) == (1, 2)
