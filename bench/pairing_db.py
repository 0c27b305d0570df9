"""Generating brackets and rounds through the events services on PostgreSQL: prints figures and
ratios, asserts nothing.

    .venv/bin/python bench/pairing_db.py                 # 1,024-team double elimination,
                                                         # 512-team 9-round Swiss
    .venv/bin/python bench/pairing_db.py --de 256 --swiss 128 --rounds 5

Each generation is what the Celery job runs (tournaments.services.generate, under the event's
row lock, in one transaction): rows to plain objects, the pure pairing module, then the
rounds, tables, pairings and one scoring game per pairing whose teams are known. Timed with
perf_counter, queries counted with connection.execute_wrapper. Beside each figure: the pure pairing
call alone on the same input (the floor), and the ratio.

Between Swiss rounds the results are simulated (not timed): every game of the round gets a
played result, the better seed winning two times in three, scores drawn between 52 and 70
for the winner and -20 and 50 for the loser, written in one bulk update. For the double
elimination, the first 64 results are also carried on one by one through the results service
(game_result_sync after a game ends), to show what advancing a bracket costs.

The bench makes its own database (default kaiser_bench_pairing: dropped, created and migrated
at the start, dropped at the end unless --keep-db).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import _summary as summary  # noqa: E402  (bench/ is on sys.path when run as a script)
from _setup import use_production_settings  # noqa: E402


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--de", type=int, default=1024, help="double elimination teams (1,024)")
    parser.add_argument("--swiss", type=int, default=512, help="Swiss teams (512)")
    parser.add_argument("--rounds", type=int, default=9, help="Swiss rounds (9)")
    parser.add_argument("--advance", type=int, default=64, help="bracket results carried on")
    parser.add_argument("--db", default="kaiser_bench_pairing", help="database (dropped!)")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--seed", type=int, default=20261128)
    return parser.parse_args()


ARGS = parse_args()
use_production_settings(f"{ARGS.pg}/{ARGS.db}")

import psycopg  # noqa: E402


def admin(sql: str) -> None:
    with psycopg.connect(f"{ARGS.pg}/postgres", autocommit=True) as conn:
        conn.execute(sql)


admin(f'DROP DATABASE IF EXISTS "{ARGS.db}" WITH (FORCE)')
admin(f'CREATE DATABASE "{ARGS.db}"')

import django  # noqa: E402

django.setup()

import datetime as dt  # noqa: E402

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from kaiser_club.models import Club, Player  # noqa: E402
from scoring import services as scoring  # noqa: E402
from scoring.models import Game, Team  # noqa: E402
from scoring.rules import Side  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.models import Entry, Event, Pairing, Round  # noqa: E402
from tournaments.pairing import double_elimination, swiss_round  # noqa: E402
from tournaments.services.generation import entrants, played_records  # noqa: E402
from tournaments.standings import event_standings  # noqa: E402

RNG = random.Random(ARGS.seed)


def make_event(club: Club, teams: int, fmt: str, rounds: int | None = None) -> Event:
    """An event with ``teams`` entries seeded 1…n, made in bulk (not timed)."""
    event = services.event_create(
        club=club,
        name=f"Bench {fmt} {teams}",
        date=dt.date(2026, 11, 28),
        format=fmt,
        rounds=rounds,
        check_in_required=False,
    )
    players = Player.objects.bulk_create(
        [Player(name=f"{fmt[:2]}{n}-{k}") for n in range(teams) for k in (1, 2)]
    )
    team_rows = Team.objects.bulk_create(
        [
            Team(club=club, name=f"T{n}", player_one=players[2 * n], player_two=players[2 * n + 1])
            for n in range(teams)
        ]
    )
    Entry.objects.bulk_create(
        [
            Entry(event=event, team=team, name=team.name, seed=n + 1, club=club)
            for n, team in enumerate(team_rows)
        ]
    )
    return event


class Counter:
    """Counts the queries sent (connection.execute_wrapper: no 9,000-query log limit)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        self.count += 1
        return execute(sql, params, many, context)


def timed_generation(event: Event) -> tuple[float, int, str]:
    counter = Counter()
    with connection.execute_wrapper(counter):
        start = time.perf_counter()
        with transaction.atomic():
            summary, _ = services.generate(event=services.results.lock_event(event.id))
        seconds = time.perf_counter() - start
    return seconds, counter.count, summary


def simulate_round(event: Event, number: int) -> None:
    rows = list(
        Pairing.objects.filter(event=event, round__number=number, result="pending").select_related(
            "home", "away"
        )
    )
    for row in rows:
        assert row.home and row.away and row.home.seed and row.away.seed
        better_home = row.home.seed < row.away.seed
        home_wins = better_home if RNG.random() < 2 / 3 else not better_home
        win, lose = RNG.randint(52, 70), RNG.randint(-20, 50)
        row.result = "played"
        row.winner_side = "home" if home_wins else "away"
        row.home_points, row.away_points = (win, lose) if home_wins else (lose, win)
    Pairing.objects.bulk_update(rows, ["result", "winner_side", "home_points", "away_points"])
    Round.objects.filter(event=event, number=number).update(status="finished")


def line(label: str, seconds: float, queries: int, games: int, floor: float | None) -> None:
    ratio = f"  ×{seconds / floor:,.0f} the pure call ({floor * 1000:,.1f} ms)" if floor else ""
    vs_pure = f"{seconds / floor:,.1f}x the pure call" if floor else ""
    summary.add("pairing (database)", f"{label}: seconds", seconds, "s", vs_pure)
    summary.add("pairing (database)", f"{label}: queries", queries, "")
    print(
        f"  {label:<22} {seconds:8.2f} s  {queries:6d} queries  {games:5d} games  "
        f"{seconds / max(games, 1) * 1000:6.2f} ms/game  {queries / max(games, 1):5.2f} q/game"
        + ratio
    )


def bench_double_elimination(club: Club) -> None:
    print(f"Double elimination, {ARGS.de} teams")
    label = f"double elimination {ARGS.de}"
    event = make_event(club, ARGS.de, "double_elimination")
    entries = list(Entry.objects.filter(event=event).order_by("id"))
    start = time.perf_counter()
    double_elimination(entrants(event, entries))
    floor = time.perf_counter() - start
    seconds, queries, summary = timed_generation(event)
    games = Game.objects.filter(pairing__event=event).count()
    rows = Pairing.objects.filter(event=event).count()
    print(f"  {summary} ({rows} pairing rows)")
    line(f"{label}: generate", seconds, queries, games, floor)

    # Carry results on: each first-round game ends (by forfeit, the quickest end), then
    # the results service moves the winner and the loser on (timed: the sync only).
    times, counts = [], []
    for row in Pairing.objects.filter(event=event, round__number=1).order_by("match_number")[
        : ARGS.advance
    ]:
        assert row.game_id is not None
        with transaction.atomic():  # scoring's own signal fires after this block, a no-op then
            scoring.game_forfeit(game_id=row.game_id, forfeited_by=Side.EW)
            counter = Counter()
            with connection.execute_wrapper(counter):
                start = time.perf_counter()
                services.game_result_sync(game_id=row.game_id)
                times.append(time.perf_counter() - start)
            counts.append(counter.count)
    if times:
        print(
            f"  carry a result on      p50 {statistics.median(times) * 1000:6.1f} ms  "
            f"max {max(times) * 1000:6.1f} ms  queries p50 {statistics.median(counts):.0f} "
            f"max {max(counts)}  ({len(times)} results; each rebuilds the bracket of "
            f"{rows} rows in one query)"
        )


def bench_swiss(club: Club) -> None:
    print(f"Swiss, {ARGS.swiss} teams, {ARGS.rounds} rounds")
    event = make_event(club, ARGS.swiss, "swiss", rounds=ARGS.rounds)
    total_s, total_q = 0.0, 0
    for number in range(1, ARGS.rounds + 1):
        entries = list(Entry.objects.filter(event=event).order_by("id"))
        order = [row.id for row in event_standings(event=event, before_round=number)]
        start = time.perf_counter()
        swiss_round(entrants(event, entries), played_records(event, number), order, number)
        floor = time.perf_counter() - start
        seconds, queries, _summary = timed_generation(event)
        games = Pairing.objects.filter(event=event, round__number=number, game__isnull=False)
        line(f"Swiss {ARGS.swiss}, round {number}", seconds, queries, games.count(), floor)
        total_s, total_q = total_s + seconds, total_q + queries
        simulate_round(event, number)
    print(f"  all rounds: {total_s:.2f} s, {total_q} queries")


def main() -> None:
    call_command("migrate", verbosity=0)
    club = Club.objects.create(name="Bench club", slug="bench")
    print(f"PostgreSQL {getattr(connection, 'pg_version', '?')}, database {ARGS.db}")
    try:
        bench_double_elimination(club)
        bench_swiss(club)
    finally:
        connection.close()
        if not ARGS.keep_db:
            admin(f'DROP DATABASE IF EXISTS "{ARGS.db}" WITH (FORCE)')


if __name__ == "__main__":
    main()
