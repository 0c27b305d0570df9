"""Load on the real stack at a tournament's own pace, on loopback only, bounded in count and
time: it stops by itself.

gunicorn (production settings, hall mode, several workers) on PostgreSQL, in a database this
script creates (and drops at the end). A Swiss round in progress: one game a table and one
tablet (a thread) a table, recording a hand every ``--pace`` seconds (120: a hand of Kaiser
takes about two minutes) through the games API with its own hand ids and retries, as an
organiser's signed-in session (at an event the API takes hands from organisers; a table's own
code opens the table page instead). ``--viewers`` phones (default 1,000), not signed in, each
open one public page of the event (SHARES: the standings 40%, the live scores 20%, the round's
tables 15%, the event's page 5%, one table's score sheet 20%) and then poll its live part
every 3 seconds as htmx does, sending the ETag they hold (If-None-Match): a 304 while nothing
changed, the new part when it did. The polls are an open-loop schedule (a slow answer does
not slow the phones down) sent by a pool of keep-alive connections; a poll that falls due
while its phone is still waiting, or while ``4 x --viewer-threads`` requests are already
waiting, is not sent and counted as shed. ``--viewer-processes N`` splits the phones across N
processes, so that one Python process (its GIL) does not bound what is sent: each runs that
schedule for its share, with its own connections and ``--viewer-threads`` (so its own ``4 x``
bound), and the first adds up what they measured and the CPU they used. The tablets stay in
the first.

Afterwards it prints requests a second and p50/p95/p99 per kind of request (a hand, a page
opened, a part polled), errors, shed polls, the CPU the load generator used against the
server's, and checks that nothing was lost: every hand a tablet sent is stored once, no other,
and every game's scores are a replay of its hands through the rules engine. The goals:
p95 within 200 ms for hands and for reads, no error, nothing shed, nothing lost.

    .venv/bin/python bench/load.py --quick            # 30 s
    .venv/bin/python bench/load.py                    # 150 s, 200 tables, 1,000 phones
    .venv/bin/python bench/load.py --pace 3           # a hand every 3 s a table: a stress run

    .venv/bin/python bench/load.py --nodes 2 --kill-node-at 60   # one node lost mid-load
    .venv/bin/python bench/load.py --shared-cache --viewers 5000  # nginx's micro-cache in front
    .venv/bin/python bench/load.py --nodes 2 --shared-cache --viewers 5000 --viewer-processes 2

``--nodes N`` runs N gunicorns (``--workers`` each) behind Caddy with deploy/Caddyfile, as
compose runs its web nodes; ``--shared-cache`` puts nginx's micro-cache
(deploy/nginx-micro-cache.conf) in front of the public pages' reads, and counts the requests
that still reached the app (the nodes' access logs); ``--kill-node-at SECONDS`` kills the first
node with SIGKILL that far into the load (the tablets retry on another, through Caddy). With
one node and no cache, the clients talk to gunicorn directly, as before.

The server URL is 127.0.0.1 only; DATABASE_URL (or --server) names the PostgreSQL server.
"""

from __future__ import annotations

import argparse
import heapq
import http.client
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
import _summary as summary  # noqa: E402  (bench/ is on sys.path when run as a script)
import psycopg  # noqa: E402

from tests.reliability import production as prod  # noqa: E402
from tests.reliability.stack import Gunicorn, app_env, free_port, manage, run_python  # noqa: E402
from tests.reliability.tablet import GaveUp, Tablet, hand_body  # noqa: E402
from tests.reliability.verify import check  # noqa: E402

OUT = REPO / "bench" / "_out"
TICKS = os.sysconf("SC_CLK_TCK")
RECORD = "hand (tablet, API)"
OPENED = "read: page opened"
POLL_304 = "read: part polled, 304"
POLL_200 = "read: part polled, 200"
READS = (OPENED, POLL_304, POLL_200)
POLL_SECONDS = 3.0  # tournaments/public/views.py POLL_SECONDS: what the pages ask htmx for
P95_GOAL_MS = 200
OPENING = 10.0  # seconds over which the phones open their pages (--opening)
# Which page a phone has open (tests/reliability/seed.py names them): most follow the standings
# or the live scores, a player their own game's sheet.
SHARES = {
    "public standings": 40,
    "public live": 20,
    "public round": 15,
    "public event": 5,
    "public game sheet": 20,
}


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
    """Latencies and outcomes per kind of request, from any thread."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seconds: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, int] = defaultdict(int)
        self.kinds: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.lags: list[float] = []  # a poll's real start after its planned start
        self.shed_busy = 0  # a poll due while the phone still waited for its last one
        self.shed_queue = 0  # a poll due while too many requests were already waiting
        self.shed_at: list[float] = []  # when each shed poll fell due, seconds into the load

    def add(self, label: str, seconds: float, outcome: str) -> None:
        ok = outcome[:1] in ("2", "3")
        with self.lock:
            self.seconds[label].append(seconds)
            if not ok:
                self.errors[label] += 1
                self.kinds[label][outcome] += 1

    @property
    def shed(self) -> int:
        return self.shed_busy + self.shed_queue

    def export(self) -> dict[str, Any]:
        """Everything measured, as plain values another process can receive."""
        with self.lock:
            return {
                "seconds": dict(self.seconds),
                "errors": dict(self.errors),
                "kinds": {label: dict(kinds) for label, kinds in self.kinds.items()},
                "lags": self.lags,
                "shed_busy": self.shed_busy,
                "shed_queue": self.shed_queue,
                "shed_at": self.shed_at,
            }

    def merge(self, other: dict[str, Any]) -> None:
        """Adds what another process measured (its ``export()``)."""
        with self.lock:
            for label, values in other["seconds"].items():
                self.seconds[label].extend(values)
            for label, count in other["errors"].items():
                self.errors[label] += count
            for label, kinds in other["kinds"].items():
                for outcome, count in kinds.items():
                    self.kinds[label][outcome] += count
            self.lags.extend(other["lags"])
            self.shed_busy += other["shed_busy"]
            self.shed_queue += other["shed_queue"]
            self.shed_at.extend(other["shed_at"])


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


# --- the tablets ----------------------------------------------------------------------------


@dataclass
class Table:
    tablet: Tablet
    game: int
    sent: list[str] = field(default_factory=list)  # client ids of every hand it sent


def run_tablet(table: Table, pace: float, stop: threading.Event, problems: list[str]) -> None:
    """A hand every ``pace`` seconds (give or take 30%) until ``stop`` is set."""
    if stop.wait(random.uniform(0, pace)):  # tables do not all finish a hand at once
        return
    number = 1
    while not stop.is_set():
        started = time.monotonic()
        body = hand_body(number)
        table.sent.append(body["client_id"])
        try:
            if table.tablet.record(table.game, body) is None:
                problems.append(
                    f"game {table.game} hand {number} refused: {table.tablet.refused[-1]}"
                )
                return
        except GaveUp as exc:
            problems.append(f"tablet of game {table.game} gave up: {exc}")
            return
        number += 1
        stop.wait(max(0.0, pace * random.uniform(0.7, 1.3) - (time.monotonic() - started)))


# --- the phones -----------------------------------------------------------------------------


@dataclass
class Phone:
    """One person's phone with one public page open: the page once, then its part."""

    page: str
    etag: str = ""
    opened: bool = False
    waiting: bool = False


def _get(http: Any, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    http.request("GET", path, headers=headers)
    answer = http.getresponse()
    answer.read()
    return answer.status, {k.lower(): v for k, v in answer.getheaders()}


def warm_pages(port: int, pages: list[str]) -> None:
    """Each page and its part asked once before the load (``--warm``): the app has rendered
    them, as when someone looked at the pages before the hall's phones arrive."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for page in sorted(set(pages)):
        for path in (page, page + "?part=1"):
            _get(connection, path, {})
    connection.close()


def run_phones(
    port: int,
    pages: list[str],
    threads: int,
    stop_at: float,
    samples: Samples,
    opening: float = OPENING,
) -> None:
    """Each phone opens its page at a moment of the first ``opening`` seconds (people arrive
    and open it; all 1,000 at the same instant would measure a stampede, not a hall), then
    polls its part every POLL_SECONDS on a fixed schedule (htmx's ``every 3s``), kept
    whatever the server's speed (an open loop). A poll that falls due while its phone still
    waits for the last one, or while ``4 * threads`` requests are already waiting or in
    flight, is not sent: counted as shed (the server is not keeping up)."""
    local = threading.local()
    pending = threading.BoundedSemaphore(4 * threads)
    crowd = [Phone(page=page) for page in pages]
    due = [(time.monotonic() + random.uniform(0, opening), n) for n in range(len(crowd))]
    heapq.heapify(due)
    began_at = time.monotonic()

    def connection() -> http.client.HTTPConnection:
        if not hasattr(local, "http"):
            local.http = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        return local.http  # type: ignore[no-any-return]

    def fetch(phone: Phone, planned: float) -> None:
        began = time.monotonic()
        if phone.opened:
            label, path = POLL_304, phone.page + "?part=1"
            headers = {"If-None-Match": phone.etag} if phone.etag else {}
        else:
            label, path, headers = OPENED, phone.page, {}
        try:
            try:
                status, got = _get(connection(), path, headers)
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A keep-alive connection the server closed meanwhile: once more, afresh, as a
                # browser does.
                local.http.close()
                del local.http
                status, got = _get(connection(), path, headers)
            outcome = str(status)
            if status == 200 and label == POLL_304:
                label = POLL_200
            if status == 200:
                # The page holds its part but no ETag: the first poll fetches the part whole
                # and learns it, as a browser's cache does.
                phone.opened = True
                phone.etag = "" if label == OPENED else got.get("etag", "")
        except (http.client.HTTPException, OSError) as exc:
            outcome = type(exc).__name__
            if hasattr(local, "http"):
                local.http.close()
                del local.http
        finally:
            phone.waiting = False
            pending.release()
        samples.add(label, time.monotonic() - began, outcome)
        with samples.lock:
            samples.lags.append(began - planned)

    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="phone") as pool:
        while due:
            planned, n = heapq.heappop(due)
            if planned >= stop_at:
                break
            heapq.heappush(due, (planned + POLL_SECONDS, n))
            time.sleep(max(0.0, planned - time.monotonic()))
            phone = crowd[n]
            if phone.waiting:
                samples.shed_busy += 1
                samples.shed_at.append(planned - began_at)
                continue
            if not pending.acquire(blocking=False):
                samples.shed_queue += 1
                samples.shed_at.append(planned - began_at)
                continue
            phone.waiting = True
            pool.submit(fetch, phone, planned)


# --- the phones in other processes ---------------------------------------------------------


@dataclass
class PhoneProcess:
    process: multiprocessing.process.BaseProcess
    conn: Connection


def phone_process(
    port: int, pages: list[str], threads: int, opening: float, conn: Connection
) -> None:
    """A generator process: says it is ready, is told when the load ends, runs its phones
    until then and sends back what it measured and the CPU seconds it used meanwhile."""
    conn.send("ready")
    stop_at = conn.recv()  # time.monotonic() is the same clock in every process
    cpu = generator_cpu()
    samples = Samples()
    run_phones(port, pages, threads, stop_at, samples, opening)
    conn.send((samples.export(), generator_cpu() - cpu))
    conn.close()


def start_phone_processes(
    port: int, pages: list[str], threads: int, count: int, opening: float
) -> list[PhoneProcess]:
    """``count`` processes (spawned, not forked: this process runs threads), each with every
    ``count``-th phone, started and ready (imports done) before the load begins."""
    context = multiprocessing.get_context("spawn")
    started = []
    for n in range(count):
        ours, theirs = context.Pipe()
        process = context.Process(
            target=phone_process,
            args=(port, pages[n::count], threads, opening, theirs),
            name=f"phones-{n + 1}",
            daemon=True,
        )
        process.start()
        theirs.close()
        started.append(PhoneProcess(process, ours))
    for worker in started:
        if worker.conn.recv() != "ready":
            raise RuntimeError(f"{worker.process.name} did not start")
    return started


def run_phone_processes(workers: list[PhoneProcess], stop_at: float, samples: Samples) -> float:
    """Lets the processes go until ``stop_at``, merges what they measured into ``samples``
    and returns the CPU seconds they used."""
    for worker in workers:
        worker.conn.send(stop_at)
    cpu = 0.0
    for worker in workers:
        # After stop_at a process still finishes the polls in flight (30 s at most each).
        if not worker.conn.poll(max(1.0, stop_at + 120 - time.monotonic())):
            raise RuntimeError(f"{worker.process.name} did not report")
        try:
            measured, seconds = worker.conn.recv()
        except EOFError:
            worker.process.join(5)
            raise RuntimeError(
                f"{worker.process.name} died (exit code {worker.process.exitcode})"
            ) from None
        samples.merge(measured)
        cpu += seconds
        worker.process.join(10)
    return cpu


def stop_phone_processes(workers: list[PhoneProcess]) -> None:
    for worker in workers:
        worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join(5)


# --- nodes behind the proxy -----------------------------------------------------------------


def start_fronts(
    work: Path, nodes: list[Gunicorn], *, shared_cache: bool
) -> tuple[int, list[prod.Process]]:
    """Caddy in front of the nodes (deploy/Caddyfile), and nginx's micro-cache between them
    for the public reads if asked: (the port the clients use, the processes started)."""
    front_port = free_port()
    started: list[prod.Process] = []
    internal = cache_port = None
    if shared_cache:
        internal, cache_port = free_port(), free_port()
        started.append(
            prod.start_nginx(work / "nginx", listen_port=cache_port, internal_port=internal)
        )
    config = prod.caddy_config(
        site_address=":80",
        listen_port=front_port,
        storage=work / "caddy-data",
        upstream_ports=[node.port for node in nodes],
        internal_port=internal,
        cache_port=cache_port,
        public_reads="micro_cache" if shared_cache else "web_nodes",
    )
    started.append(prod.start_caddy(work / "caddy", config, listen_port=front_port))
    return front_port, started


def kill_node(node: Gunicorn) -> None:
    if node.process is not None and node.process.poll() is None:
        os.killpg(node.process.pid, signal.SIGKILL)


PUBLIC_READ = re.compile(r"^GET /e/\S+ (\d{3}) ", re.M)


def app_reads(nodes: list[Gunicorn]) -> dict[str, int]:
    """The public reads that reached the nodes (their access logs), and those answered 200."""
    statuses = [
        status
        for node in nodes
        for status in PUBLIC_READ.findall(node.log.read_text(errors="replace"))
    ]
    return {"all": len(statuses), "200": statuses.count("200")}


# --- report ---------------------------------------------------------------------------------


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q / 100 * len(sorted_values)) - 1))
    return sorted_values[index]


def table(samples: Samples, seconds: float) -> list[str]:
    head = f"{'request':<26} {'requests':>9} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} "
    head += f"{'p99 ms':>8} {'errors':>7}"
    lines = [head, "-" * len(head)]
    reads: list[float] = []
    for label in (RECORD, *READS):
        values = sorted(samples.seconds.get(label, []))
        if label in READS:
            reads.extend(values)
        lines.append(_row(label, values, samples.errors[label], seconds))
    lines.append("-" * len(head))
    read_errors = sum(samples.errors[label] for label in READS)
    lines.append(_row("reads, all", sorted(reads), read_errors, seconds))
    return lines


def _row(label: str, values: list[float], errors: int, seconds: float) -> str:
    return (
        f"{label:<26} {len(values):>9} {len(values) / seconds:>7.1f} "
        f"{percentile(values, 50) * 1000:>8.1f} {percentile(values, 95) * 1000:>8.1f} "
        f"{percentile(values, 99) * 1000:>8.1f} {errors:>7}"
    )


def met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def summarise(samples: Samples, seconds: float, offered: float, sent: int, lost: int) -> None:
    """Headline rows for `make bench`'s table, each with its goal."""
    hands = sorted(samples.seconds.get(RECORD, []))
    reads = sorted(v for label in READS for v in samples.seconds.get(label, []))
    errors = sum(samples.errors.values())
    for label, values in (("hands", hands), ("reads", reads)):
        p95 = percentile(values, 95) * 1000
        summary.add(
            "load",
            f"{label}: p50 (p95 in the ratio)",
            percentile(values, 50) * 1000,
            "ms",
            f"p95 {p95:.0f} ms; goal p95 ≤ {P95_GOAL_MS}: {met(p95 <= P95_GOAL_MS)}",
        )
    summary.add(
        "load",
        "reads served a second",
        len(reads) / seconds,
        "/s",
        f"{offered:.0f} offered",
    )
    summary.add("load", "errors", errors, "", f"goal 0: {met(errors == 0)}")
    summary.add(
        "load",
        "reads shed",
        samples.shed,
        "",
        f"goal 0: {met(samples.shed == 0)}",
    )
    summary.add(
        "load",
        "hands lost",
        lost,
        "",
        f"{sent} sent; goal 0: {met(lost == 0)}",
    )


def stored_client_ids(database_url: str, games: list[int]) -> set[str]:
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT client_id::text FROM scoring_hand WHERE game_id = ANY(%s)", [games]
        ).fetchall()
    return {str(row[0]) for row in rows}


# --- main -----------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="30 seconds (the figures are rough)")
    parser.add_argument("--duration", type=float, help="seconds of load (default 150)")
    parser.add_argument("--tablets", type=int, default=200, help="tables, one tablet each")
    parser.add_argument(
        "--pace", type=float, default=120.0, help="seconds between a tablet's hands (120)"
    )
    parser.add_argument("--viewers", type=int, default=1000, help="phones polling a page")
    parser.add_argument("--nodes", type=int, default=1, help="web nodes (gunicorns) behind Caddy")
    parser.add_argument(
        "--shared-cache", action="store_true", help="nginx's micro-cache in front of the reads"
    )
    parser.add_argument(
        "--kill-node-at", type=float, help="seconds into the load when one node is SIGKILLed"
    )
    parser.add_argument(
        "--viewer-threads", type=int, default=32, help="threads sending polls, per process (32)"
    )
    parser.add_argument(
        "--viewer-processes", type=int, default=1, help="processes sending the polls (1)"
    )
    parser.add_argument(
        "--opening",
        type=float,
        default=OPENING,
        help="seconds over which the phones open their pages (10: a stampede at 5,000)",
    )
    parser.add_argument(
        "--warm",
        action="store_true",
        help="ask each page and its part once before the load (the app has rendered them)",
    )
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
    args = parser.parse_args()
    duration = args.duration or (30.0 if args.quick else 150.0)
    duration = min(duration, 600.0)  # bounded whatever is asked
    tablets_wanted = min(args.tablets, 200)
    phones = args.viewers
    behind_proxy = args.nodes > 1 or args.shared_cache

    server = server_url(args.server)
    OUT.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="kaiser-load-"))
    options = f"?conn_max_age={args.conn_max_age}&conn_health_checks=true"
    nodes: list[Gunicorn] = []
    fronts: list[prod.Process] = []
    workers: list[PhoneProcess] = []
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
        # What a phone in the hall opens: the event's public pages (not the signed-in API),
        # in the shares of SHARES (a game's sheet: one of the round's games at random).
        public = {label: ps for label, ps in seeded["pages"].items() if label in SHARES}
        pages = [
            random.choice(public[label])
            for label in random.choices(list(SHARES), weights=list(SHARES.values()), k=phones)
        ]
        # Keep-alive longer than a tablet's pace and a phone's poll, as behind a proxy.
        nodes = [
            Gunicorn(
                env,
                work / f"gunicorn-{n}.log",
                workers=args.workers,
                threads=args.threads,
                keepalive=max(5, int(args.pace * 3)),
                access_log=args.shared_cache,  # to count what reached the app
            )
            for n in range(max(1, args.nodes))
        ]
        for node in nodes:
            node.start()
        port = nodes[0].port
        if behind_proxy:
            port, fronts = start_fronts(work, nodes, shared_cache=args.shared_cache)
        print(
            f"set-up {time.monotonic() - t0:.0f} s: {len(seeded['tablets'])} tables, "
            f"{sum(map(len, public.values()))} public pages, {len(nodes)} node(s) of "
            f"gunicorn {args.workers}x{args.threads}"
            f"{' behind Caddy' if behind_proxy else ''}"
            f"{' and nginx micro-cache' if args.shared_cache else ''} on 127.0.0.1:{port}, "
            f"database {args.database}, CONN_MAX_AGE={args.conn_max_age}, "
            f"cache {args.redis or 'in each worker'}; phones sent by "
            f"{args.viewer_processes} generator process(es) of {args.viewer_threads} threads; "
            f"load for {duration:.0f} s ...",
            flush=True,
        )

        samples = Samples()
        problems: list[str] = []
        # A tablet never drops a hand: it retries (the same id) until acknowledged, here for
        # up to two minutes, each try waiting up to 30 s for an answer.
        tables = [
            Table(
                Tablet(f"http://127.0.0.1:{port}", t["session"], timeout=30, give_up_after=120),
                t["game"],
            )
            for t in seeded["tablets"]
        ]
        if args.warm:
            warm_pages(port, pages)
        if args.viewer_processes > 1:
            workers = start_phone_processes(
                port, pages, args.viewer_threads, args.viewer_processes, args.opening
            )
        server_pids = [pid for node in nodes for pid in node.pids()]
        server_pids += [pid for front in fronts for pid in front.pids()]
        cpu_before = (generator_cpu(), cpu_seconds(server_pids), machine_busy())
        load_before = os.getloadavg()
        started = time.monotonic()
        stop_at = started + duration
        stop = threading.Event()
        threads = [
            threading.Thread(
                target=run_tablet,
                args=(table, args.pace, stop, problems),
                name=f"tablet-{table.game}",
                daemon=True,
            )
            for table in tables
        ]
        for thread in threads:
            thread.start()
        killer = None
        if args.kill_node_at is not None:
            killer = threading.Timer(args.kill_node_at, kill_node, args=(nodes[0],))
            killer.start()
        workers_cpu = 0.0
        if workers:
            workers_cpu = run_phone_processes(workers, stop_at, samples)
        else:
            run_phones(port, pages, args.viewer_threads, stop_at, samples, args.opening)
        if killer is not None:
            killer.cancel()
        stop.set()
        elapsed = time.monotonic() - started
        cpu_after = (generator_cpu(), cpu_seconds(server_pids), machine_busy())
        load_after = os.getloadavg()
        for thread in threads:  # a hand in flight is finished (or given up) first
            thread.join(timeout=max(1.0, stop_at + 180 - time.monotonic()))
        stuck = sum(thread.is_alive() for thread in threads)

        for table_ in tables:
            for seconds, outcome in table_.tablet.attempts_log:
                samples.add(RECORD, seconds, outcome)
        print()
        print("\n".join(table(samples, elapsed)))
        for label, kinds in samples.kinds.items():
            print(f"  errors of {label}: {dict(kinds)}")
        retried = sum(t.tablet.retries for t in tables)

        generator = cpu_after[0] - cpu_before[0] + workers_cpu
        served = cpu_after[1] - cpu_before[1]
        busy = cpu_after[2][0] - cpu_before[2][0]
        total = cpu_after[2][1] - cpu_before[2][1]
        lags = sorted(samples.lags)
        print()
        print(
            f"wall {elapsed:.1f} s on {os.cpu_count()} cores ({total:.0f} core-seconds); load "
            f"average {load_before[0]:.2f} before, {load_after[0]:.2f} at the end"
        )
        print(
            f"CPU  load generator {generator:.1f} s ({generator / total:.0%} of the machine), "
            f"server {served:.1f} s ({served / total:.0%}), whole machine busy "
            f"{busy / total:.0%} (PostgreSQL and anything else running included)"
        )
        offered = phones / POLL_SECONDS
        reads = sum(len(samples.seconds.get(label, [])) for label in READS)
        print(
            f"phones: {phones} polling every {POLL_SECONDS:.0f} s, {offered:.0f} reads/s "
            f"offered, {reads / elapsed:.0f}/s served; shed {samples.shed} (phone still "
            f"waiting {samples.shed_busy}, {4 * args.viewer_threads} already queued "
            f"{samples.shed_queue}); start lag p50 {percentile(lags, 50) * 1000:.0f} ms, p95 "
            f"{percentile(lags, 95) * 1000:.0f} ms"
        )
        if samples.shed:
            settled = args.opening + 5  # the phones have opened their pages, and 5 s more
            early = sum(1 for at in samples.shed_at if at < settled)
            by_5s: dict[int, int] = defaultdict(int)
            for at in samples.shed_at:
                by_5s[int(at // 5) * 5] += 1
            when = ", ".join(f"{start}-{start + 5} s: {n}" for start, n in sorted(by_5s.items()))
            print(
                f"shed while the phones opened their pages (the first {settled:.0f} s): "
                f"{early}; after: {samples.shed - early} (by when due: {when})"
            )
        if args.shared_cache:
            reached = app_reads(nodes)
            pages_open = len(set(pages))
            windows = max(1.0, elapsed / 2)
            print(
                f"behind the cache: {reached['all']} public reads reached the app "
                f"({reached['all'] / elapsed:.0f}/s of {reads / elapsed:.0f}/s served), "
                f"{reached['200']} answered whole: {reached['200'] / pages_open / windows:.2f} "
                f"a page per 2 s on average over the {pages_open} pages open"
            )
        if args.kill_node_at is not None:
            print(f"node 1 of {len(nodes)} killed with SIGKILL {args.kill_node_at:.0f} s in")
        hands = sum(len(t.tablet.acknowledged) for t in tables)
        print(
            f"tablets: {len(tables) / args.pace:.1f} hands/s offered, "
            f"{hands / elapsed:.1f} acknowledged/s"
        )

        acknowledged = {
            t.game: [(a.client_id, a.number) for a in t.tablet.acknowledged] for t in tables
        }
        found, totals = check(database_url, acknowledged)
        sent = {client_id for t in tables for client_id in t.sent}
        lost = len(sent - stored_client_ids(database_url, [t.game for t in tables]))
        print()
        print(
            f"hands sent {len(sent)}, acknowledged {totals['acknowledged']}, stored "
            f"{totals['hands']} in {totals['games']} games, lost {lost}; tablet retries "
            f"{retried}; tablets still running {stuck}"
        )
        summarise(samples, elapsed, offered, len(sent), lost)
        problems.extend(found)
        if stuck:
            problems.append(f"{stuck} tablets did not stop")
        if problems:
            print("NOT OK:")
            for problem in problems[:30]:
                print(f"  {problem}")
            return 1
        print("OK: nothing lost, nothing doubled, every game's scores equal a replay of its hands.")
        return 0
    finally:
        stop_phone_processes(workers)
        for front in fronts:
            front.stop()
        for node in nodes:
            node.stop()
        shutil.rmtree(work, ignore_errors=True)
        if not args.keep:
            drop_database(server, args.database)


if __name__ == "__main__":
    sys.exit(main())
