"""Two games that feed the same next match end at the same moment, on PostgreSQL with real
transactions: the event's row lock serialises the two results, so the next match gets both
teams and exactly one game (without the lock each could see the other slot still empty)."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection

from scoring import services as scoring
from scoring.rules import Team
from tests.conftest import IN_CI
from tournaments.models import Pairing
from tournaments.services import results

from .helpers import generate, gid, make_event, winning_hand

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        message = "row-lock races need PostgreSQL (set DATABASE_URL=postgres://...)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


def test_two_semi_finals_ending_at_once_fill_the_final_once(monkeypatch):
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    semis = [Pairing.objects.get(event=event, code=c) for c in ("W1-1", "W1-2")]
    for semi in semis:  # two hands each; the third ends the game
        for _ in range(2):
            scoring.hand_record(
                game_id=gid(semi), entry=winning_hand(Team.NS), client_id=uuid.uuid4()
            )

    barrier = threading.Barrier(2, timeout=20)
    real_lock = results.lock_event

    def lock_at_the_barrier(event_id: int):  # type: ignore[no-untyped-def]
        if threading.current_thread().name.startswith("semi"):
            barrier.wait()  # both results are about to be carried on
        return real_lock(event_id)

    monkeypatch.setattr(results, "lock_event", lock_at_the_barrier)
    errors: list[BaseException] = []

    def finish(game_id: int) -> None:
        try:
            scoring.hand_record(
                game_id=game_id, entry=winning_hand(Team.NS), client_id=uuid.uuid4()
            )  # commits; the events app carries the result on after the commit
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=finish, args=(gid(s),), name=f"semi-{n}")
        for n, s in enumerate(semis)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    final = Pairing.objects.get(event=event, code="W2-1")
    assert {final.home_id, final.away_id} == {semis[0].home_id, semis[1].home_id}
    assert final.game_id is not None
    assert Pairing.objects.filter(event=event, code="W2-1", game__isnull=False).count() == 1
    assert all(Pairing.objects.get(id=s.id).advanced for s in semis)
