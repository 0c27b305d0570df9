"""The floor every API request pays before and after its view: prints figures and ratios,
asserts nothing.

    .venv/bin/python bench/floor.py                   # 2,000 requests a row
    .venv/bin/python bench/floor.py --requests 500

gunicorn (2 workers of 4 threads, production settings in hall mode) as bench/record_hands.py
runs it, one client, one request at a time through requests.Session, p50 of each row:

  healthz           GET /healthz: answered by the first middleware (one SELECT 1)
  static file       GET of a small static file: answered by WhiteNoise
  API GET, anon     GET /api/presets/ (a constant list), no session
  API GET, session  the same, as a signed-in browser (session cookie + CSRF header)
  API POST, session POST /api/presets/ with a small JSON body, signed in: the session, the
                    user, the CSRF check, the request limits and DRF's checks all run; the
                    answer is DRF's 405 (the list takes no POST)

Beside each p50, the server's own CPU time a request (gunicorn's processes, from /proc): on a
shared machine the latency moves with everyone else's load, the CPU a request costs much less.

Each row is run against a server without Redis (sessions in the database, the cache in each
worker's memory) and, when Redis answers at --redis, against one with REDIS_URL set (as
production and a hall with Redis run). The API rows are also given as a ratio to healthz.
Queries per request are counted with Django's test client in this process.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

USERNAME = "bench-floor"
STATIC_NAME = "floor.txt"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests a row (2,000)")
    parser.add_argument("--db", default="kaiser_floor_bench", help="database to create (dropped!)")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/13", help="'' to skip Redis")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--threads", type=int, default=4, help="threads a gunicorn worker (4, as deployed)"
    )
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards")
    return parser.parse_args()


ARGS = parse_args()
STATIC_ROOT = Path(tempfile.mkdtemp(prefix="bench-floor-static-"))
(STATIC_ROOT / STATIC_NAME).write_text("a small static file\n")

from _setup import use_production_settings  # noqa: E402  (bench/ is on sys.path)

use_production_settings(
    f"{ARGS.pg}/{ARGS.db}", keep_redis=False, DJANGO_STATIC_ROOT=str(STATIC_ROOT)
)

import _setup  # noqa: E402
import _summary as summary  # noqa: E402
import requests  # noqa: E402

from tests.reliability.stack import gunicorn  # noqa: E402


def recreate_database() -> None:
    _setup.recreate_database(ARGS.pg, ARGS.db)


def drop_database() -> None:
    _setup.drop_database(ARGS.pg, ARGS.db)


recreate_database()

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402


def redis_answers(url: str) -> bool:
    if not url:
        return False
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def signed_in(user: User, base: str) -> requests.Session:
    """A browser's session after signing in (made as django.contrib.auth.login makes it, in
    the configured session engine): its cookie, and the CSRF cookie and header."""
    client = Client()
    client.force_login(user)
    csrf = secrets.token_hex(16)
    session = requests.Session()
    session.cookies.set("sessionid", client.cookies["sessionid"].value, domain="127.0.0.1")
    session.cookies.set("csrftoken", csrf, domain="127.0.0.1")
    session.headers.update({"X-CSRFToken": csrf, "Referer": base + "/"})
    return session


Row = tuple[str, Callable[[], requests.Response], int]


def rows(base: str, anonymous: requests.Session, session: requests.Session) -> list[Row]:
    body = {"name": "floor"}
    return [
        ("healthz", lambda: anonymous.get(f"{base}/healthz", timeout=10), 200),
        ("static file", lambda: anonymous.get(f"{base}/static/{STATIC_NAME}", timeout=10), 200),
        ("API GET, anon", lambda: anonymous.get(f"{base}/api/presets/", timeout=10), 200),
        ("API GET, session", lambda: session.get(f"{base}/api/presets/", timeout=10), 200),
        (
            "API POST, session",
            lambda: session.post(f"{base}/api/presets/", json=body, timeout=10),
            405,
        ),
    ]


@dataclass
class Measured:
    seconds: list[float]
    cpu: float  # the server's CPU seconds (gunicorn's processes, user + system) a request


def cpu_seconds(pids: list[int]) -> float:
    """CPU time used so far by these processes (Linux: /proc/<pid>/stat)."""
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def timed(
    call: Callable[[], requests.Response], expected: int, count: int, pids: list[int]
) -> Measured:
    for _ in range(min(100, count)):  # warm both workers and the connection
        call()
    seconds = []
    cpu_before = cpu_seconds(pids)
    for _ in range(count):
        before = time.perf_counter()
        answer = call()
        seconds.append(time.perf_counter() - before)
        if answer.status_code != expected:
            raise RuntimeError(f"HTTP {answer.status_code}: {answer.text[:300]}")
    return Measured(seconds, (cpu_seconds(pids) - cpu_before) / count)


def p50(values: list[float]) -> float:
    return statistics.median(values)


def serve_and_time(user: User, redis_url: str) -> dict[str, Measured]:
    env = {**os.environ}
    if redis_url:
        env["REDIS_URL"] = redis_url
    log = Path(tempfile.mkstemp(prefix="bench-floor-gunicorn-", suffix=".log")[1])
    results: dict[str, Measured] = {}
    with gunicorn(env, log, workers=ARGS.workers, threads=ARGS.threads, access_log=False) as server:
        session = signed_in(user, server.url)
        pids = server.pids()
        for label, call, expected in rows(server.url, requests.Session(), session):
            results[label] = timed(call, expected, ARGS.requests, pids)
    return results


def queries() -> dict[str, int]:
    """Queries of a signed-in API GET and POST (the session's and the user's included)."""
    client = Client(HTTP_HOST="127.0.0.1", enforce_csrf_checks=True)
    client.force_login(User.objects.get(username=USERNAME))
    csrf = secrets.token_hex(16)
    client.cookies["csrftoken"] = csrf
    counted = {}
    for label, call in (
        ("API GET, session", lambda: client.get("/api/presets/")),
        (
            "API POST, session",
            lambda: client.post(
                "/api/presets/", {"name": "floor"}, "application/json", HTTP_X_CSRFTOKEN=csrf
            ),
        ),
    ):
        call()
        with CaptureQueriesContext(connection) as ctx:
            call()
        counted[label] = len(ctx.captured_queries)
    return counted


def report(runs: dict[str, dict[str, Measured]], counted: dict[str, int]) -> None:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print()
    print(
        f"{ARGS.requests:,} requests a row, one at a time; "
        f"gunicorn {ARGS.workers} workers x {ARGS.threads} threads; "
        f"{os.cpu_count()} CPUs shared with whatever else runs; load average now {load}"
    )
    print("server CPU: gunicorn's own CPU time a request (PostgreSQL's and Redis' not counted)")
    for setup, results in runs.items():
        print()
        header = f"{setup:<24} {'p50 ms':>8} {'p95 ms':>8} {'/ healthz':>10} {'server CPU ms':>14}"
        print(header)
        print("-" * len(header))
        floor = p50(results["healthz"].seconds)
        for label, measured in results.items():
            ordered = sorted(measured.seconds)
            middle, p95 = p50(ordered), ordered[int(0.95 * (len(ordered) - 1))]
            ratio = middle / floor
            print(
                f"{label:<24} {middle * 1000:>8.2f} {p95 * 1000:>8.2f} {ratio:>9.1f}x "
                f"{measured.cpu * 1000:>14.2f}"
            )
            summary.add(
                "floor", f"{setup}: {label}: p50", middle * 1000, "ms", f"{ratio:.1f}x healthz"
            )
            summary.add("floor", f"{setup}: {label}: server CPU", measured.cpu * 1000, "ms")
    print()
    for label, number in counted.items():
        print(f"queries, {label}: {number}")
        summary.add("floor", f"queries, {label}", number)


def main() -> None:
    print(f"Database {ARGS.db}: created; migrating ...", flush=True)
    call_command("migrate", verbosity=0)
    user = User.objects.create_user(USERNAME, password=secrets.token_urlsafe(12))
    runs = {"sessions in the database": serve_and_time(user, "")}
    if redis_answers(ARGS.redis):
        runs[f"with Redis ({ARGS.redis})"] = serve_and_time(user, ARGS.redis)
    else:
        print(f"Redis does not answer at {ARGS.redis!r}: the row with Redis is left out.")
    report(runs, queries())


if __name__ == "__main__":
    try:
        main()
    finally:
        connection.close()
        if not ARGS.keep_db:
            drop_database()
