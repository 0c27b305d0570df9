"""Races on PostgreSQL with real transactions and threads that meet at a barrier.

Two games that feed the same next match end at the same moment: the event's row lock
serialises the two results, so the next match gets both teams and exactly one game (without
the lock each could see the other slot still empty). A result carried on twice at once (the
tablet's commit and the beat's resync) opens the next match once; and with the event's lock
taken away, the database alone still gives a pairing one game: the second writer takes the
first one's game instead of leaving its own behind with no pairing. A sync reads the game
only under the lock, so a result undone while it waited is not carried on.

The other check-then-create paths, each raced the same way: generation asked for twice (one
job, one round), the same report asked for twice or rerun while asked for anew (one job under
way), and tables made or added at once (one row per table number, each with its own code).
Where the event's lock orders the writers, a variant without it shows the database's
constraint holding alone, the second writer finding the first one's row.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest
from django.db import connection, transaction

from kaiser_club.errors import Conflict
from scoring import services as scoring
from scoring.models import Game
from scoring.rules import Side
from tests.conftest import IN_CI
from tournaments import services
from tournaments.choices import JobStatus
from tournaments.models import Event, GenerationJob, Pairing, ReportJob, Round, Table
from tournaments.reports import services as report_services
from tournaments.services import generation, results
from tournaments.services.games import pairing_game_open
from tournaments.services.tables import tables_ensure
from tournaments.tasks import generate_task

from .helpers import generate, gid, make_event, staff_actor, win_for, winning_hand

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HOLD = 0.3  # seconds a racer holds its transaction open after the barrier


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        message = "row-lock races need PostgreSQL (set DATABASE_URL=postgres://...)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Runs each call in its own thread (named race-0, race-1, …) and returns what each
    returned or raised, in order."""
    outcomes: list[Any] = [None] * len(calls)

    def body(index: int, call: Callable[[], Any]) -> None:
        try:
            outcomes[index] = call()
        except Exception as exc:  # the outcome under test
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [
        threading.Thread(target=body, args=(n, call), name=f"race-{n}")
        for n, call in enumerate(calls)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a racing thread never finished"
    return outcomes


def meet_at_the_event_lock(
    monkeypatch: pytest.MonkeyPatch, *, lock: bool = True, where: ModuleType = results
) -> None:
    """Each racing thread waits at a barrier the first time it is about to lock the event (in
    module ``where``), so both writers go on at the same moment. ``lock=False`` reads the event
    without locking it and holds on a moment, so both writers are sure to work side by side."""
    barrier = threading.Barrier(2, timeout=20)
    real_lock = where.lock_event
    met: set[str] = set()

    def lock_at_the_barrier(event_id: int) -> Event:
        name = threading.current_thread().name
        if name.startswith("race") and name not in met:
            met.add(name)
            barrier.wait()
            if not lock:
                event = Event.objects.get(id=event_id)
                time.sleep(HOLD)
                return event
        return real_lock(event_id)

    monkeypatch.setattr(where, "lock_event", lock_at_the_barrier)


def rows(event: Event) -> dict[str, Pairing]:
    return {p.code: p for p in Pairing.objects.filter(event=event).select_related("home", "away")}


def assert_one_game_per_pairing(event: Event) -> None:
    """Every game belongs to exactly one pairing: none was made twice or left behind."""
    assert not Game.objects.filter(pairing__isnull=True).exists(), "a game with no pairing"
    with_games = Pairing.objects.filter(event=event, game__isnull=False)
    assert Game.objects.count() == with_games.count()


def play_hands(pairing: Pairing, side: Side, count: int) -> None:
    for _ in range(count):
        scoring.hand_record(game_id=gid(pairing), entry=winning_hand(side), client_id=uuid.uuid4())


def double_elimination_to(code: str) -> tuple[Event, Pairing]:
    """Four teams in double elimination, played (better seed winning) until ``code`` is the
    next game to play."""
    event = make_event(teams=4, format="double_elimination")
    generate(event)
    for earlier in ("W1-1", "W1-2", "W2-1", "L1-1", "L2-1"):
        if earlier == code:
            break
        row = rows(event)[earlier]
        win_for(row, row.home)
    return event, rows(event)[code]


def test_two_semi_finals_ending_at_once_fill_the_final_once(monkeypatch):
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    semis = [Pairing.objects.get(event=event, code=c) for c in ("W1-1", "W1-2")]
    for semi in semis:  # two hands each; the third ends the game
        play_hands(semi, Side.NS, 2)
    meet_at_the_event_lock(monkeypatch)
    outcomes = race(*(lambda s=s: play_hands(s, Side.NS, 1) for s in semis))
    assert outcomes == [None, None]
    final = Pairing.objects.get(event=event, code="W2-1")
    assert {final.home_id, final.away_id} == {semis[0].home_id, semis[1].home_id}
    assert final.game_id is not None
    assert Pairing.objects.filter(event=event, code="W2-1", game__isnull=False).count() == 1
    assert all(Pairing.objects.get(id=s.id).advanced for s in semis)
    assert_one_game_per_pairing(event)


def test_the_winners_final_and_a_losers_game_ending_at_once_open_the_next_game_once(
    monkeypatch,
):
    """W2-1's loser and L1-1's winner meet in L2-1, the game before the grand final."""
    event, _ = double_elimination_to("W2-1")
    b = rows(event)
    feeding = [b["W2-1"], b["L1-1"]]
    for row in feeding:
        play_hands(row, Side.NS, 2)
    meet_at_the_event_lock(monkeypatch)
    outcomes = race(*(lambda r=r: play_hands(r, Side.NS, 1) for r in feeding))
    assert outcomes == [None, None]
    after = rows(event)["L2-1"]
    assert {after.home_id, after.away_id} == {b["W2-1"].away_id, b["L1-1"].home_id}
    assert after.game_id is not None
    assert_one_game_per_pairing(event)


@pytest.mark.parametrize(
    ("code", "then", "side"),
    [("L2-1", "GF", Side.NS), ("GF", "GF2", Side.EW)],
    ids=["losers-final-opens-the-grand-final", "grand-final-opens-the-reset"],
)
def test_a_result_carried_on_twice_at_once_opens_the_next_game_once(monkeypatch, code, then, side):
    """The tablet's last hand is carried on as it commits while the beat's resync carries the
    same result on: one game for the next match (for the reset, whose two slots the grand
    final fills together, this was two games, one of them with no pairing)."""
    event, row = double_elimination_to(code)
    play_hands(row, side, 2)
    meet_at_the_event_lock(monkeypatch)
    outcomes = race(
        lambda: play_hands(row, side, 1),
        lambda: results.game_result_sync(game_id=gid(row)),
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert Pairing.objects.get(id=row.id).advanced
    after = rows(event)[then]
    assert after.game_id is not None and not after.cancelled
    assert_one_game_per_pairing(event)


def test_two_writers_opening_one_pairings_game_at_once_share_one_game():
    """No event lock at all: two writers that both read the pairing without a game make a
    game each at the same moment. The conditional update lets the first set its game; the
    second, whose update waits for the first to commit and then matches nothing, rolls its
    own game back and returns the first one's: no IntegrityError, no game left behind."""
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    final = Pairing.objects.get(event=event, code="W2-1")
    semis = [Pairing.objects.get(event=event, code=c) for c in ("W1-1", "W1-2")]
    Pairing.objects.filter(id=final.id).update(  # both teams known, no game yet
        home=semis[0].home,
        home_team=semis[0].home_team,
        away=semis[1].home,
        away_team=semis[1].home_team,
    )
    barrier = threading.Barrier(2, timeout=20)

    def open_the_final() -> int:
        with transaction.atomic():
            row = Pairing.objects.select_related("home_team", "away_team").get(id=final.id)
            assert row.game_id is None
            barrier.wait()
            game = pairing_game_open(event=event, pairing=row)
            time.sleep(HOLD)  # the first writer's game is not committed yet
            assert row.game_id == game.id
            return game.id

    outcomes = race(open_the_final, open_the_final)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    final.refresh_from_db()
    assert outcomes == [final.game_id, final.game_id]
    assert_one_game_per_pairing(event)


def test_a_result_undone_while_its_sync_waits_for_the_lock_is_not_carried_on(monkeypatch):
    """The pairing and its game are read under the event's lock: a sync that was waiting for
    the lock while the grand final's last hand was undone finds the game in progress again,
    and opens no reset (read before the lock, the finished game would have been carried on)."""
    event, gf = double_elimination_to("GF")
    real_sync = results.game_result_sync
    monkeypatch.setattr(results, "game_result_sync", lambda **kwargs: None)  # not carried yet
    play_hands(gf, Side.EW, 3)
    waiting, go_on = threading.Event(), threading.Event()
    real_lock = results.lock_event

    def lock_after_the_undo(event_id: int) -> Event:
        if threading.current_thread().name.startswith("race"):
            waiting.set()
            go_on.wait(timeout=20)
        return real_lock(event_id)

    monkeypatch.setattr(results, "lock_event", lock_after_the_undo)
    undone: list[BaseException] = []

    def undo_the_last_hand() -> None:
        try:
            assert waiting.wait(timeout=20)
            scoring.hand_undo(game_id=gid(gf))
        except BaseException as exc:  # pragma: no cover - reported below
            undone.append(exc)
        finally:
            go_on.set()

    outcomes = race(lambda: real_sync(game_id=gid(gf)), undo_the_last_hand)
    assert not undone and not [o for o in outcomes if isinstance(o, Exception)], outcomes
    after = rows(event)
    assert Game.objects.get(id=gid(gf)).status == "in_progress"
    assert (after["GF"].result, after["GF"].advanced) == ("pending", False)
    assert after["GF2"].home_id is None and after["GF2"].game_id is None
    assert_one_game_per_pairing(event)


# --- generation -----------------------------------------------------------------------------


@pytest.mark.parametrize("lock", [True, False], ids=["event-lock", "constraint-alone"])
def test_generation_asked_for_twice_at_once_is_one_job_and_one_round(monkeypatch, lock):
    """Two organisers press Generate at once: one job is queued and the other request is told
    so (with the event's lock the second sees the first job; without it the database's
    one-active-job constraint refuses the second insert, and the request says the same).
    The job's task delivered twice at once then makes one round, every game in a pairing."""
    event = make_event(teams=4, format="swiss")
    queued: list[int] = []
    monkeypatch.setattr(  # run below, by hand
        generate_task, "apply_async", lambda args, **options: queued.append(args[0])
    )
    meet_at_the_event_lock(monkeypatch, lock=lock, where=generation)
    outcomes = race(
        lambda: services.generation_request(event=event),
        lambda: services.generation_request(event=event),
    )
    jobs = [o for o in outcomes if isinstance(o, GenerationJob)]
    refused = [o for o in outcomes if isinstance(o, Conflict)]
    assert (len(jobs), len(refused)) == (1, 1), outcomes
    assert refused[0].message == (
        "A generation is already queued for this event; wait for it to finish."
    )
    assert list(GenerationJob.objects.filter(event=event).values_list("id", flat=True)) == [
        jobs[0].id
    ]
    assert queued == [jobs[0].id]

    barrier = threading.Barrier(2, timeout=20)

    def deliver() -> GenerationJob:
        barrier.wait()
        return services.generation_run(job_id=jobs[0].id)

    outcomes = race(deliver, deliver)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    job = GenerationJob.objects.get(id=jobs[0].id)
    assert (job.status, job.summary) == ("done", "Round 1: 2 games.")
    assert Round.objects.filter(event=event).count() == 1
    assert Pairing.objects.filter(event=event, game__isnull=False).count() == 2
    assert_one_game_per_pairing(event)


# --- report jobs ----------------------------------------------------------------------------


@pytest.fixture
def report_sends(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The report jobs handed to the broker, recorded instead of rendered."""
    sends: list[int] = []
    monkeypatch.setattr(report_services, "report_send", lambda *, job_id: sends.append(job_id))
    return sends


@pytest.mark.parametrize("lock", [True, False], ids=["event-lock", "constraint-alone"])
def test_the_same_report_asked_for_twice_at_once_is_one_job(monkeypatch, report_sends, lock):
    """Both requests answer with the one job (without the event's lock the database refuses
    the second insert and that request finds the first job), and it is sent once."""
    event = make_event(teams=2)
    meet_at_the_event_lock(monkeypatch, lock=lock, where=report_services)
    outcomes = race(
        lambda: report_services.report_request(event=event, kind="standings"),
        lambda: report_services.report_request(event=event, kind="standings"),
    )
    assert all(isinstance(o, ReportJob) for o in outcomes), outcomes
    assert list(ReportJob.objects.values_list("id", flat=True)) == [outcomes[0].id]
    assert outcomes[1].id == outcomes[0].id
    assert report_sends == [outcomes[0].id]


@pytest.mark.parametrize("lock", [True, False], ids=["event-lock", "constraint-alone"])
def test_a_rerun_and_a_new_request_for_one_report_at_once_leave_one_job_under_way(
    monkeypatch, report_sends, lock
):
    """The failed job is run again while the same report is asked for anew: whichever comes
    first makes it, and the other answers with that job."""
    event = make_event(teams=2)
    failed = ReportJob.objects.create(
        event=event, kind="standings", status=JobStatus.FAILED, error="Broken."
    )
    meet_at_the_event_lock(monkeypatch, lock=lock, where=report_services)
    outcomes = race(
        lambda: report_services.report_rerun(job=failed),
        lambda: report_services.report_request(event=event, kind="standings"),
    )
    assert all(isinstance(o, ReportJob) for o in outcomes), outcomes
    active = list(ReportJob.objects.filter(status__in=report_services.ACTIVE))
    assert len(active) == 1
    assert [o.id for o in outcomes] == [active[0].id, active[0].id]
    assert report_sends == [active[0].id]


# --- tables and their codes -----------------------------------------------------------------


def test_tables_made_side_by_side_are_made_once():
    """Two writers with no lock between them need tables 1 to 3 at once (say a draw and a
    bracket's next game): the second one's insert waits for the first to commit and skips
    those numbers, and both get the same three tables with the same codes."""
    event = make_event(teams=2)
    barrier = threading.Barrier(2, timeout=20)

    def make_tables() -> dict[int, tuple[int, str | None]]:
        with transaction.atomic():
            barrier.wait()
            tables = tables_ensure(event=event, count=3)
            time.sleep(HOLD)  # the first writer's tables are not committed yet
            return {n: (t.id, t.code) for n, t in tables.items()}

    outcomes = race(make_tables, make_tables)
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    stored = {t.number: (t.id, t.code) for t in Table.objects.filter(event=event)}
    assert outcomes == [stored, stored]
    assert sorted(stored) == [1, 2, 3]
    assert len({code for _, code in stored.values()}) == 3


def test_two_tables_added_at_once_are_two_tables(monkeypatch):
    """Add table pressed twice at once: the event's lock lets the second see the first, so
    each adds one table at the end, each with its own code."""
    event = make_event(teams=2)
    tables_ensure(event=event, count=2)
    meet_at_the_event_lock(monkeypatch)
    actor = staff_actor()
    outcomes = race(
        lambda: services.table_add(actor=actor, event=event),
        lambda: services.table_add(actor=actor, event=event),
    )
    assert all(isinstance(o, Table) for o in outcomes), outcomes
    assert sorted(o.number for o in outcomes) == [3, 4]
    stored = list(Table.objects.filter(event=event).values_list("number", "code"))
    assert [n for n, _ in stored] == [1, 2, 3, 4]
    assert len({code for _, code in stored}) == 4
