"""Standings of a big event, and the public pages against a static file, on PostgreSQL:
prints figures and ratios, asserts nothing.

    .venv/bin/python bench/standings.py                 # 512 teams, 5,000 finished games
    .venv/bin/python bench/standings.py --teams 64 --games 500 --duration 5

Three events in one database, each a Swiss built with bulk_create (circle-method pairings,
seeded random scores: the winner reaches 52, one game in ten is won on time below 52, then one
more round being played with live scores): the big one (``--teams`` teams, ``--games``
finished games, ``--playing`` in progress), one of 16 teams (the cost-growth rows' other end)
and one of the demo's size (``make demo``: 8 teams, round 1 played, round 2 under way).

In this process, on the big event: standings computed (every metric of the registry,
head-to-head and Buchholz included; and the default order), read through the cache cold and
warm, and the event's version stamp. Cost growth (the goal: flat): the version stamp and a
warm public standings page (Django's test client, every middleware, the stored rendering
served, the event's counter read on every request) at 16 and at ``--teams`` teams.

Then gunicorn (production settings, hall mode, ``--workers`` workers of ``--threads`` threads,
the cache on Redis when ``--redis`` is given, else each worker's own memory) serves, on a free
port of 127.0.0.1, at the demo's size and at the big event's: the public standings page as a
phone first opens it, its live part (the htmx poll, a 200 each time), the part answered 304
(what an open page costs while nothing changes); and a static file through WhiteNoise in the
same server (before and after: the ceiling is their mean). Each is loaded by ``wrk`` (or,
without wrk, a threaded keep-alive client, which measures itself as much as the server) with
``--connections`` connections for ``--duration`` seconds, one after the other. Goal:
each public page at least half the static file's rate. The database (default
kaiser_bench_standings) is dropped and created at the start, dropped at the end unless
--keep-db."""

from __future__ import annotations

import argparse
import atexit
import http.client
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=512)
    parser.add_argument("--games", type=int, default=5_000, help="finished games")
    parser.add_argument("--playing", type=int, default=256, help="games in progress")
    parser.add_argument("--db", default="kaiser_bench_standings", help="database (dropped!)")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--threads", type=int, default=4, help="threads a gunicorn worker (4, as deployed)"
    )
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--duration", type=int, default=10, help="seconds per load")
    parser.add_argument("--repeat", type=int, default=20, help="timed standings runs")
    parser.add_argument(
        "--redis", default="redis://127.0.0.1:6379/11", help="cache for gunicorn ('' for none)"
    )
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=0,
        help="gunicorn's CONN_MAX_AGE through DATABASE_URL (0: a connection per request, what "
        "a plain DATABASE_URL gives production)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep-db", action="store_true")
    return parser.parse_args()


ARGS = parse_args()
from _setup import use_production_settings  # noqa: E402 (bench/ is on sys.path)

# This process: memory cache (no REDIS_URL); gunicorn gets --redis. The static files are
# collected into a scratch directory that both this process and gunicorn serve from (the
# production settings' manifest storage refuses to render a page without it).
STATIC_ROOT = tempfile.mkdtemp(prefix="bench-static-")
atexit.register(shutil.rmtree, STATIC_ROOT, True)
use_production_settings(f"{ARGS.pg}/{ARGS.db}", keep_redis=False, DJANGO_STATIC_ROOT=STATIC_ROOT)

import psycopg  # noqa: E402

from tests.reliability.stack import gunicorn  # noqa: E402


def admin(sql: str) -> None:
    with psycopg.connect(f"{ARGS.pg}/postgres", autocommit=True) as connection:
        connection.execute(sql)


admin(f'DROP DATABASE IF EXISTS "{ARGS.db}" WITH (FORCE)')
admin(f'CREATE DATABASE "{ARGS.db}"')
if not ARGS.keep_db:
    atexit.register(admin, f'DROP DATABASE IF EXISTS "{ARGS.db}" WITH (FORCE)')

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from kaiser_club.models import Club, Player  # noqa: E402
from scoring.models import Game, Team  # noqa: E402
from scoring.rules import preset  # noqa: E402
from tournaments.models import Entry, Event, Pairing, Round, Table  # noqa: E402
from tournaments.standings import (  # noqa: E402
    METRICS,
    event_standings,
    event_tables,
    event_versions,
)
from tournaments.standings.versions import live_versions  # noqa: E402

# --- the event ---------------------------------------------------------------------------------


def circle_rounds(n: int) -> list[list[tuple[int, int]]]:
    """Round-robin rounds by the circle method (n even): every round pairs every team once."""
    others = list(range(1, n))
    rounds = []
    for _ in range(n - 1):
        line = [0, *others]
        rounds.append([(line[i], line[n - 1 - i]) for i in range(n // 2)])
        others = others[-1:] + others[:-1]
    return rounds


def build(
    rng: random.Random, club: Club, *, n_teams: int, n_games: int, n_playing: int
) -> tuple[Event, float]:
    started = time.perf_counter()
    rules = preset("tournament").to_dict()
    metrics = list(METRICS)
    event = Event.objects.create(
        club=club,
        name=f"Bench Open ({n_teams} teams)",
        date=timezone.localdate(),
        preset="tournament",
        rules=rules,
        format="swiss",
        rounds=60,
        tiebreaks=["wins", "head_to_head", "buchholz", "point_difference", "seed"],
        status="running",
    )
    assert set(event.tiebreaks) <= set(metrics)
    players = Player.objects.bulk_create(
        [Player(name=f"Player {n_teams}.{n:04d}") for n in range(2 * n_teams)]
    )
    teams = Team.objects.bulk_create(
        [
            Team(club=club, player_one=players[2 * n], player_two=players[2 * n + 1], name=f"T{n}")
            for n in range(n_teams)
        ]
    )
    entries = Entry.objects.bulk_create(
        [
            Entry(event=event, team=t, name=f"Team {n + 1:03d}", seed=n + 1, club=club)
            for n, t in enumerate(teams)
        ]
    )
    tables = Table.objects.bulk_create(
        [Table(event=event, number=n + 1) for n in range(n_teams // 2)]
    )
    schedule = circle_rounds(n_teams)
    per_round = n_teams // 2
    finished_rounds = -(-n_games // per_round)
    rounds = Round.objects.bulk_create(
        [
            Round(event=event, number=r + 1, status="finished", started_at=timezone.now())
            for r in range(finished_rounds)
        ]
        + [Round(event=event, number=finished_rounds + 1, status="started")]
    )
    games: list[Game] = []
    pairings: list[Pairing] = []
    made = 0
    for r in range(finished_rounds + 1):
        live = r == finished_rounds
        for t, (i, j) in enumerate(schedule[r % len(schedule)]):
            if live and t >= n_playing:
                break
            if not live and made >= n_games:
                break
            home, away = entries[i], entries[j]
            ns, ew = teams[i], teams[j]
            if live:
                scores = (rng.randint(0, 45), rng.randint(0, 45))
                winner, reason, status = "", "", "in_progress"
            else:
                made += 1
                losing = rng.randint(-20, 50)
                on_time = rng.random() < 0.1
                win = rng.randint(losing + 1, 51) if on_time and losing < 50 else 52
                reason = "time" if on_time and win < 52 else "target"
                home_won = rng.random() < 0.5 + (j - i) / (4 * n_teams)
                scores = (win, losing) if home_won else (losing, win)
                winner, status = ("ns" if home_won else "ew"), "finished"
            games.append(
                Game(
                    club=club,
                    ns_team=ns,
                    ew_team=ew,
                    north=ns.player_one,
                    south=ns.player_two,
                    east=ew.player_one,
                    west=ew.player_two,
                    first_dealer=0,
                    dealer=0,
                    preset="tournament",
                    rules=rules,
                    target=52,
                    status=status,
                    ns_score=scores[0],
                    ew_score=scores[1],
                    hand_count=rng.randint(8, 16) if not live else rng.randint(1, 8),
                    winner=winner,
                    end_reason=reason,
                    time_limit_minutes=60,
                    started_at=timezone.now(),
                )
            )
            pairings.append(
                Pairing(
                    event=event,
                    round=rounds[r],
                    table=tables[t],
                    home=home,
                    away=away,
                    home_team=ns,
                    away_team=ew,
                    result="pending" if live else "played",
                    winner_side="" if live else ("home" if winner == "ns" else "away"),
                    home_points=None if live else scores[0],
                    away_points=None if live else scores[1],
                )
            )
    Game.objects.bulk_create(games, batch_size=2000)
    for pairing, game in zip(pairings, games, strict=True):
        pairing.game = game
    Pairing.objects.bulk_create(pairings, batch_size=2000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    return event, time.perf_counter() - started


# --- timing ------------------------------------------------------------------------------------


def timed(call: Callable[[], Any], repeat: int) -> tuple[float, float, int]:
    """(median ms, p95 ms, queries of one call)."""
    with CaptureQueriesContext(connection) as ctx:
        call()
    queries = len(ctx.captured_queries)
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        runs.append((time.perf_counter() - started) * 1000)
    runs.sort()
    return statistics.median(runs), runs[max(0, int(len(runs) * 0.95) - 1)], queries


def standings_figures(event: Event) -> list[tuple[str, float, float, int]]:
    fresh = Event.objects.get(id=event.id)
    rows: list[tuple[str, float, float, int]] = []

    def full() -> Any:
        return event_standings(event=fresh)

    def plain() -> Any:
        return event_standings(event=fresh, tiebreaks=["wins", "point_difference"])

    def cold() -> Any:
        cache.clear()
        return event_tables(event=fresh)

    def warm() -> Any:
        return event_tables(event=fresh)

    def version() -> Any:
        return event_versions(fresh)

    rows.append(("computed, every tie-break (h2h, Buchholz)", *timed(full, ARGS.repeat)))
    rows.append(("computed, wins then point difference", *timed(plain, ARGS.repeat)))
    rows.append(("through the cache, cold", *timed(cold, ARGS.repeat)))
    event_tables(event=fresh)
    rows.append(("through the cache, warm", *timed(warm, ARGS.repeat)))
    rows.append(("version stamp alone", *timed(version, ARGS.repeat)))

    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    page = f"/e/{fresh.id}/standings/"

    def rendered_page() -> Any:
        assert client.get(page).status_code == 200

    def rendered_part() -> Any:
        cache.clear()  # no kept part, no standings: everything from the database
        assert client.get(page + "?part=1").status_code == 200

    def kept_part() -> Any:
        assert client.get(page + "?part=1").status_code == 200

    def not_modified() -> Any:
        assert client.get(page + "?part=1", HTTP_IF_NONE_MATCH=etag).status_code == 304

    rendered_page()
    etag = client.get(page + "?part=1")["ETag"]
    rows.append(("page: full standings page, rendered", *timed(rendered_page, ARGS.repeat)))
    rows.append(("page: part, all from the database", *timed(rendered_part, ARGS.repeat)))
    client.get(page + "?part=1")
    rows.append(("page: part, kept under its ETag", *timed(kept_part, ARGS.repeat)))
    rows.append(("page: part, 304", *timed(not_modified, ARGS.repeat)))
    reset_queries()
    return rows


def growth_figures(events: dict[str, Event]) -> list[tuple[str, str, float, float, int]]:
    """(what, size, median ms, p95 ms, queries): the version stamp and a warm public page at
    16 teams and at the big event's size. The page through Django's test client (every
    middleware), not signed in, its rendering stored; the counter read on every request
    (PUBLIC_VERSION_SECONDS 0: a worker's one-second memo would hide it)."""
    from django.conf import settings
    from django.test import Client

    settings.PUBLIC_VERSION_SECONDS = 0
    client = Client(HTTP_HOST="127.0.0.1")
    rows = []
    for size in ("small", "big"):
        event = events[size]
        teams = Entry.objects.filter(event=event).count()
        page = f"/e/{event.id}/standings/"

        def stamp(event_id: int = event.id) -> Any:
            return live_versions(event_id)

        def warm_page(path: str = page) -> Any:
            assert client.get(path).status_code == 200

        warm_page()
        rows.append(("version stamp", f"{teams} teams", *timed(stamp, ARGS.repeat * 10)))
        rows.append(("warm public page", f"{teams} teams", *timed(warm_page, ARGS.repeat * 10)))
    settings.PUBLIC_VERSION_SECONDS = 1.0
    return rows


# --- gunicorn and load -------------------------------------------------------------------------


def get(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers=headers or {})
    answer = conn.getresponse()
    body = answer.read()
    conn.close()
    return answer.status, dict(answer.getheaders()), body


def load_wrk(base: str, path: str, headers: dict[str, str]) -> tuple[float, float, int]:
    """(requests per second, mean latency ms, non-2xx/3xx answers) from wrk."""
    command = ["wrk", "-t2", f"-c{ARGS.connections}", f"-d{ARGS.duration}s", "--latency"]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run(
        [*command, base + path], capture_output=True, text=True, check=True
    ).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    latency = re.search(r"Latency\s+([\d.]+)(us|ms|s)", output)
    assert latency is not None
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[latency.group(2)]
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    return rate, float(latency.group(1)) * scale, int(bad.group(1)) if bad else 0


def load_threads(port: int, path: str, headers: dict[str, str]) -> tuple[float, float, int]:
    """The same without wrk: ``--connections`` threads, keep-alive, for ``--duration`` s."""
    stop_at = time.monotonic() + ARGS.duration
    counts: list[int] = []
    latencies: list[float] = []
    bad: list[int] = []
    lock = threading.Lock()

    def worker() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        done, spent, wrong = 0, 0.0, 0
        while time.monotonic() < stop_at:
            started = time.perf_counter()
            conn.request("GET", path, headers=headers)
            answer = conn.getresponse()
            answer.read()
            spent += time.perf_counter() - started
            done += 1
            wrong += answer.status >= 400
        conn.close()
        with lock:
            counts.append(done)
            latencies.append(spent / max(done, 1) * 1000)
            bad.append(wrong)

    threads = [threading.Thread(target=worker) for _ in range(ARGS.connections)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts) / (time.monotonic() - started), statistics.mean(latencies), sum(bad)


def http_figures(events: dict[str, Event]) -> list[tuple[str, str, float, float, int, int]]:
    """(label, path, req/s, mean ms, errors, bytes) per load, static file first and last."""
    env = dict(os.environ)
    if ARGS.conn_max_age:
        env["DATABASE_URL"] += f"?conn_max_age={ARGS.conn_max_age}"
    if ARGS.redis:
        env["REDIS_URL"] = ARGS.redis
    log = Path(tempfile.mkstemp(prefix="bench-standings-gunicorn-", suffix=".log")[1])
    with gunicorn(env, log, workers=ARGS.workers, threads=ARGS.threads, access_log=False) as server:
        load = (
            (lambda path, h: load_wrk(server.url, path, h))
            if shutil.which("wrk")
            else (lambda path, h: load_threads(server.port, path, h))
        )
        static = "/static/public/public.css"
        assert get(server.port, static)[0] == 200
        plan: list[tuple[str, str, dict[str, str]]] = [("static file", static, {})]
        for size in ("demo", "big"):
            event = events[size]
            teams = Entry.objects.filter(event=event).count()
            page = f"/e/{event.id}/standings/"
            part = f"{page}?part=1"
            for _ in range(2 * ARGS.workers):  # each worker warms its memory (Redis once)
                get(server.port, page)
                get(server.port, part)
            status, headers, _body = get(server.port, part)
            assert status == 200, status
            etag = headers["ETag"]
            assert get(server.port, part, {"If-None-Match": etag})[0] == 304
            plan += [
                (f"{teams} teams: standings page, full", page, {}),
                (f"{teams} teams: live part (htmx poll, 200)", part, {}),
                (f"{teams} teams: live part, 304", part, {"If-None-Match": etag}),
            ]
        plan.append(("static file again", static, {}))
        results = []
        for label, path, extra in plan:
            size = 0 if "304" in label else len(get(server.port, path, extra)[2])
            rate, latency, bad = load(path, extra)
            results.append((label, path, rate, latency, bad, size))
    return results


def main() -> None:
    rng = random.Random(ARGS.seed)
    print(f"Migrating {ARGS.db} ...", flush=True)
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    if ARGS.redis:
        import redis

        redis.Redis.from_url(ARGS.redis).flushdb()  # a new database reuses ids and versions
    club = Club.objects.create(name="Bench Club", slug="bench-club", default_preset="tournament")
    events: dict[str, Event] = {}
    for size, teams, games, playing in [
        ("big", ARGS.teams, ARGS.games, ARGS.playing),
        ("small", 16, 80, 8),
        ("demo", 8, 4, 4),  # kaiser_club/demo.py's tournament: round 1 played, 2 under way
    ]:
        events[size], seconds = build(rng, club, n_teams=teams, n_games=games, n_playing=playing)
        finished = Pairing.objects.filter(event=events[size]).exclude(result="pending").count()
        playing_now = Pairing.objects.filter(event=events[size], result="pending").count()
        print(
            f"Event: {teams} teams, {finished} finished games, {playing_now} being played; "
            f"built in {seconds:.1f} s (bulk_create)."
        )
    event = events["big"]
    version = connection.cursor().connection.info.server_version
    print(f"PostgreSQL {version // 10000}.{version % 10000}; {os.cpu_count()} cores shared.\n")
    print(f"{'standings (this process)':<44}{'median':>10}{'p95':>10}{'queries':>9}")
    rows = standings_figures(event)
    for label, median, p95, queries in rows:
        print(f"{label:<44}{median:>8.1f}ms{p95:>8.1f}ms{queries:>9}")
    cold = next(r for r in rows if r[0].endswith("cold"))
    warm = next(r for r in rows if r[0].endswith("warm"))
    print(f"cache: warm read is {cold[1] / warm[1]:.0f}× faster than cold")
    print("(page: rows are the Django test client in this process, middleware included)\n")

    growth = growth_figures(events)
    print(f"{'cost growth (this process)':<44}{'median':>10}{'p95':>10}{'queries':>9}")
    for what, size, median, p95, queries in growth:
        print(f"{what + ', ' + size:<44}{median * 1000:>7.0f}µs{p95 * 1000:>7.0f}µs{queries:>9}")
    print()

    cache_name = f"Redis ({ARGS.redis})" if ARGS.redis else "each worker's memory"
    client = "wrk -t2" if shutil.which("wrk") else "threaded client"
    print(
        f"HTTP on 127.0.0.1: gunicorn {ARGS.workers} workers x {ARGS.threads} threads, "
        "production settings in hall mode, "
        f"cache in {cache_name}; {client}, {ARGS.connections} connections, "
        f"{ARGS.duration} s each, one after the other; load average "
        f"{os.getloadavg()[0]:.2f} before."
    )
    print(f"{'':<46}{'req/s':>9}{'mean':>10}{'bytes':>9}{'errors':>8}")
    results = http_figures(events)
    for label, _path, rate, latency, bad, size in results:
        print(f"{label:<46}{rate:>9.0f}{latency:>8.1f}ms{size:>9}{bad:>8}")
    ceiling = statistics.mean(r[2] for r in results if r[0].startswith("static"))
    print(f"\nceiling (static, mean of the two runs): {ceiling:.0f} req/s")
    for label, _path, rate, *_ in results:
        if not label.startswith("static"):
            print(f"{label:<46}{rate / ceiling:>8.0%} of the ceiling (goal ≥ 50%)")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    summarise(rows, growth, results, ceiling)


def summarise(rows: list[Any], growth: list[Any], results: list[Any], ceiling: float) -> None:
    """Headline figures for `make bench`'s table (bench/_summary.py), each with its goal."""
    from _summary import add

    size = f"{ARGS.teams} teams, {ARGS.games} games"
    by_label = {row[0]: row for row in rows}
    full = by_label["computed, every tie-break (h2h, Buchholz)"]
    add("standings", f"computed, every tie-break ({size})", full[1], "ms", f"{full[3]} queries")
    warm = by_label["through the cache, warm"]
    add("standings", "through the cache, warm", warm[1], "ms", f"{full[1] / warm[1]:.0f}× faster")
    for what in ("version stamp", "warm public page"):
        small, big = (g for g in growth if g[0] == what)
        ratio = big[2] / small[2]
        for g in (small, big):
            add(
                "cost growth",
                f"{what}, {g[1]}",
                g[2] * 1000,
                "µs",
                f"{g[4]} quer{'y' if g[4] == 1 else 'ies'}"
                + (
                    f"; {big[1]} / {small[1]} = {ratio:.2f}× (goal: flat): "
                    + ("met" if ratio <= 1.25 else "NOT met")
                    if g is big
                    else ""
                ),
            )
    add("public pages", "static file (the ceiling)", ceiling, "req/s", "WhiteNoise, same server")
    for label, _path, rate, *_ in results:
        if not label.startswith("static"):
            share = rate / ceiling
            add(
                "public pages",
                label,
                rate,
                "req/s",
                f"{share:.0%} of static (goal ≥ 50%): {'met' if share >= 0.5 else 'NOT met'}",
            )


if __name__ == "__main__":
    main()
