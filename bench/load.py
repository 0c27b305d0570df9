"""Load on the real stack, on loopback only, bounded in count and time: it stops by itself.

gunicorn (production settings, hall mode, several workers) on PostgreSQL, in a database this
script creates (and drops at the end). A Swiss round in progress: one game a table, one tablet
(a thread) a table recording a hand every few seconds through the games API, with its own
hand ids and retries; viewers (an open-loop schedule run by a thread pool) reading the game's
API and page, the standings API and the public pages. Afterwards it prints requests a second
and p50/p95/p99 per endpoint, errors (target: none), the CPU the load generator used against
the server's, and checks that nothing was lost: every acknowledged hand stored once, no other,
and every game's scores a replay of its hands through the rules engine.

    .venv/bin/python bench/load.py --quick            # 20 s
    .venv/bin/python bench/load.py                    # 150 s, 200 tablets, 1000 viewers
    .venv/bin/python bench/load.py --tablets 50 --viewers 300 --duration 60

The server URL is 127.0.0.1 only; DATABASE_URL (or --server) names the PostgreSQL server.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
import _summary as summary  # noqa: E402  (bench/ is on sys.path when run as a script)
import psycopg  # noqa: E402
import requests  # noqa: E402

from tests.reliability.stack import Gunicorn, app_env, manage, run_python  # noqa: E402
from tests.reliability.tablet import GaveUp, Tablet, hand_body  # noqa: E402
from tests.reliability.verify import check  # noqa: E402

OUT = REPO / "bench" / "_out"
TICKS = os.sysconf("SC_CLK_TCK")
RECORD = "record hand (tablet)"


# --- set-up ---------------------------------------------------------------------------------


def server_url(explicit: str | None) -> str:
    url = explicit or os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/x")
    parts = urlsplit(url)
    if not parts.scheme.startswith("postgres"):
        sys.exit("bench/load.py needs PostgreSQL: set DATABASE_URL=postgres://... or --server")
    if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("bench/load.py runs on loopback only: the PostgreSQL server must be local.")
    return urlunsplit(parts._replace(path="", query=""))


def recreate_database(server: str, name: str) -> str:
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server}/{name}"


def drop_database(server: str, name: str) -> None:
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def collect_static(env: dict[str, str], static_root: Path) -> None:
    """collectstatic (with compression) takes a minute or more here: done again only when a
    file under static/ is newer than the last manifest."""
    manifest = static_root / "staticfiles.json"
    sources = [p for p in (REPO / "static").rglob("*") if p.is_file()]
    newest = max((p.stat().st_mtime for p in sources), default=0.0)
    if manifest.exists() and manifest.stat().st_mtime >= newest:
        return
    manage(env, "collectstatic", "--noinput", timeout=900)


# --- measuring ------------------------------------------------------------------------------


class Samples:
    """Latencies and outcomes per endpoint, from any thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seconds: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.kinds: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.shed = 0  # viewer requests not sent: too many already waiting

    def add(self, label: str, seconds: float, outcome: str) -> None:
        ok = outcome[:1] in ("2", "3")
        with self.lock:
            self.seconds[label].append(seconds)
            if not ok:
                self.errors[label] += 1
                self.kinds[label][outcome] += 1


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime
    return total


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICKS, sum(values) / TICKS


def generator_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# --- the clients ----------------------------------------------------------------------------


def run_tablet(tablet: Tablet, game: int, pace: float, stop_at: float, problems: list[str]) -> None:
    time.sleep(random.uniform(0, pace))  # tables do not all finish a hand at once
    number = 1
    while time.monotonic() < stop_at:
        started = time.monotonic()
        try:
            if tablet.record(game, hand_body(number)) is None:
                problems.append(f"game {game} hand {number} refused: {tablet.refused[-1]}")
                return
        except GaveUp as exc:
            problems.append(f"tablet of game {game} gave up: {exc}")
            return
        number += 1
        time.sleep(max(0.0, pace * random.uniform(0.7, 1.3) - (time.monotonic() - started)))


def run_viewers(
    base_url: str,
    session_key: str,
    pages: dict[str, list[str]],
    rate: float,
    threads: int,
    stop_at: float,
    samples: Samples,
) -> float:
    """Requests arrive at ``rate`` a second (Poisson), whatever the server's speed (an open
    loop: slow answers do not slow the viewers down). A request planned while ``4 * threads``
    are already waiting or in flight is not sent but counted as shed (the server is not
    keeping up; a queue without end would measure the queue). Returns the worst lag between a
    request's planned start and its real start."""
    local = threading.local()
    lag = [0.0]
    labels = list(pages)
    pending = threading.BoundedSemaphore(4 * threads)

    def fetch(label: str, path: str, planned: float) -> None:
        if not hasattr(local, "http"):
            local.http = requests.Session()
            local.http.cookies.set("sessionid", session_key, domain="127.0.0.1", path="/")
        began = time.monotonic()
        lag[0] = max(lag[0], began - planned)
        try:
            response = local.http.get(base_url + path, timeout=30)
            outcome = str(response.status_code)
        except requests.RequestException as exc:
            outcome = type(exc).__name__
        finally:
            pending.release()
        samples.add(label, time.monotonic() - began, outcome)

    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="viewer") as pool:
        planned = time.monotonic()
        while True:
            planned += random.expovariate(rate)
            if planned >= stop_at:
                break
            time.sleep(max(0.0, planned - time.monotonic()))
            label = random.choice(labels)
            if not pending.acquire(blocking=False):
                samples.shed += 1
                continue
            pool.submit(fetch, label, random.choice(pages[label]), planned)
    return lag[0]


# --- report ---------------------------------------------------------------------------------


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q / 100 * len(sorted_values)) - 1))
    return sorted_values[index]


def table(samples: Samples, seconds: float) -> list[str]:
    head = f"{'endpoint':<26} {'requests':>9} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} "
    head += f"{'p99 ms':>8} {'errors':>7}"
    lines = [head, "-" * len(head)]
    everything: list[float] = []
    errors = 0
    order = [RECORD, *sorted(k for k in samples.seconds if k != RECORD)]
    for label in order:
        values = sorted(samples.seconds.get(label, []))
        everything.extend(values)
        errors += samples.errors[label]
        lines.append(_row(label, values, samples.errors[label], seconds))
    lines.append("-" * len(head))
    lines.append(_row("all", sorted(everything), errors, seconds))
    for label, values, errs in [
        (RECORD, sorted(samples.seconds.get(RECORD, [])), samples.errors[RECORD]),
        ("all requests", sorted(everything), errors),
    ]:
        summary.add("load", f"{label}: requests/s", len(values) / seconds, "/s", f"{errs} errors")
        summary.add(
            "load",
            f"{label}: p50 / p95 / p99",
            percentile(values, 50) * 1000,
            "ms",
            f"p95 {percentile(values, 95) * 1000:.0f} ms, "
            f"p99 {percentile(values, 99) * 1000:.0f} ms",
        )
    return lines


def _row(label: str, values: list[float], errors: int, seconds: float) -> str:
    return (
        f"{label:<26} {len(values):>9} {len(values) / seconds:>7.1f} "
        f"{percentile(values, 50) * 1000:>8.1f} {percentile(values, 95) * 1000:>8.1f} "
        f"{percentile(values, 99) * 1000:>8.1f} {errors:>7}"
    )


# --- main -----------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="20 seconds (the figures are rough)")
    parser.add_argument("--duration", type=float, help="seconds of load (default 150)")
    parser.add_argument("--tablets", type=int, default=200, help="tables, one tablet each")
    parser.add_argument("--pace", type=float, default=3.0, help="seconds between a tablet's hands")
    parser.add_argument("--viewers", type=int, default=1000, help="people reading pages")
    parser.add_argument(
        "--viewer-pace", type=float, default=10.0, help="seconds between a viewer's reads"
    )
    parser.add_argument("--viewer-threads", type=int, default=32)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--threads", type=int, default=4, help="threads per gunicorn worker")
    parser.add_argument(
        "--conn-max-age", type=int, default=60, help="Django CONN_MAX_AGE (production: 60)"
    )
    parser.add_argument(
        "--redis",
        default="redis://127.0.0.1:6379/12",
        help="the workers' shared cache, as in production ('' for each worker's own memory)",
    )
    parser.add_argument("--server", help="PostgreSQL server URL (default: from DATABASE_URL)")
    parser.add_argument("--database", default="kaiser_load", help="the database it creates")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--page",
        action="append",
        default=[],
        metavar="LABEL=PATH",
        help="another page for the viewers; {event} is replaced by the event's id",
    )
    args = parser.parse_args()
    duration = args.duration or (20.0 if args.quick else 150.0)
    duration = min(duration, 600.0)  # bounded whatever is asked
    tablets_wanted = min(args.tablets, 200)
    viewers = min(args.viewers, 1000)

    server = server_url(args.server)
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="kaiser-load-"))
    options = f"?conn_max_age={args.conn_max_age}&conn_health_checks=true"
    gunicorn: Gunicorn | None = None
    try:
        t0 = time.monotonic()
        database_url = recreate_database(server, args.database)
        env = app_env(database_url + options, OUT / "static")
        if args.redis:
            import redis

            redis.Redis.from_url(args.redis).flushdb()  # a new database reuses ids and versions
            env["REDIS_URL"] = args.redis
        manage(env, "migrate", "--noinput", timeout=900)
        collect_static(env, OUT / "static")
        seeded = json.loads(
            run_python(
                env,
                ["-m", "tests.reliability.seed", "event", "--tables", str(tablets_wanted)],
                timeout=900,
            )
        )
        for extra in args.page:
            label, _, path = extra.partition("=")
            seeded["pages"][label] = [path.format(event=seeded["event"])]
        # Keep-alive longer than a tablet's pace, as behind a proxy: with gunicorn's 2 s, a
        # tablet's next hand often met a connection the server had just closed.
        gunicorn = Gunicorn(
            env,
            work / "gunicorn.log",
            workers=args.workers,
            threads=args.threads,
            keepalive=max(5, int(args.pace * 3)),
        )
        gunicorn.start()
        print(
            f"set-up {time.monotonic() - t0:.0f} s: {len(seeded['tablets'])} tables, "
            f"gunicorn {args.workers}x{args.threads} on {gunicorn.url}, "
            f"database {args.database}, CONN_MAX_AGE={args.conn_max_age}, "
            f"cache {args.redis or 'in each worker'}; load for {duration:.0f} s ...",
            flush=True,
        )

        samples = Samples()
        problems: list[str] = []
        # A tablet never drops a hand: it retries (the same id) until acknowledged, here for
        # up to two minutes, each try waiting up to 30 s for an answer.
        tablets = [
            (Tablet(gunicorn.url, t["session"], timeout=30, give_up_after=120), t["game"])
            for t in seeded["tablets"]
        ]
        server_pids = gunicorn.pids()
        cpu_before = (generator_cpu(), cpu_seconds(server_pids), machine_busy())
        started = time.monotonic()
        stop_at = started + duration
        threads = [
            threading.Thread(
                target=run_tablet,
                args=(tablet, game, args.pace, stop_at, problems),
                name=f"tablet-{game}",
                daemon=True,
            )
            for tablet, game in tablets
        ]
        for thread in threads:
            thread.start()
        lag = run_viewers(
            gunicorn.url,
            seeded["viewer_session"],
            seeded["pages"],
            viewers / args.viewer_pace,
            args.viewer_threads,
            stop_at,
            samples,
        )
        for thread in threads:
            thread.join(timeout=max(1.0, stop_at + 180 - time.monotonic()))
        elapsed = time.monotonic() - started
        cpu_after = (generator_cpu(), cpu_seconds(server_pids), machine_busy())
        stuck = sum(thread.is_alive() for thread in threads)

        for tablet, _ in tablets:
            for seconds, outcome in tablet.attempts_log:
                samples.add(RECORD, seconds, outcome)
        print()
        print("\n".join(table(samples, elapsed)))
        for label, kinds in samples.kinds.items():
            print(f"  errors of {label}: {dict(kinds)}")
        retried = sum(t.retries for t, _ in tablets)

        generator = cpu_after[0] - cpu_before[0]
        served = cpu_after[1] - cpu_before[1]
        busy = cpu_after[2][0] - cpu_before[2][0]
        total = cpu_after[2][1] - cpu_before[2][1]
        print()
        print(f"wall {elapsed:.1f} s on {os.cpu_count()} cores ({total:.0f} core-seconds)")
        print(
            f"CPU  load generator {generator:.1f} s ({generator / total:.0%} of the machine), "
            f"gunicorn {served:.1f} s ({served / total:.0%}), whole machine busy "
            f"{busy / total:.0%} (PostgreSQL and anything else running included)"
        )
        offered = viewers / args.viewer_pace
        print(
            f"viewers: {offered:.0f} reads/s offered; {samples.shed} not sent because "
            f"{4 * args.viewer_threads} were already waiting (server not keeping up); worst "
            f"start lag {lag * 1000:.0f} ms"
        )
        hands = sum(len(t.acknowledged) for t, _ in tablets)
        print(
            f"tablets: {len(tablets) / args.pace:.0f} hands/s offered, "
            f"{hands / elapsed:.1f} acknowledged/s"
        )

        acknowledged = {
            game: [(a.client_id, a.number) for a in t.acknowledged] for t, game in tablets
        }
        found, totals = check(database_url, acknowledged)
        print()
        print(
            f"hands acknowledged {totals['acknowledged']}, stored {totals['hands']} in "
            f"{totals['games']} games; tablet retries {retried}; tablets still running {stuck}"
        )
        problems.extend(found)
        if stuck:
            problems.append(f"{stuck} tablets did not stop")
        if problems:
            print("NOT OK:")
            for problem in problems[:30]:
                print(f"  {problem}")
            return 1
        summary.add("load", "hands lost or doubled", 0, "", f"{totals['hands']} stored, replayed")
        print("OK: nothing lost, nothing doubled, every game's scores equal a replay of its hands.")
        return 0
    finally:
        if gunicorn is not None:
            gunicorn.stop()
        shutil.rmtree(work, ignore_errors=True)
        if not args.keep:
            drop_database(server, args.database)


if __name__ == "__main__":
    sys.exit(main())
