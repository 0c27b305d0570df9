"""A hall served by two web nodes behind Caddy, with nginx's micro-cache in front of the public
pages' reads, on loopback: deploy/Caddyfile (``PUBLIC_READS=micro_cache``) and
deploy/nginx-micro-cache.conf as ``production.py`` localises them, two gunicorns of production
settings in hall mode sharing a private PostgreSQL and a private Redis.

A public part is kept by the cache and revalidated, and so is a full page read by someone not
signed in; a signed-in reader's page and an organiser's page never are; a hand recorded through
one node shows on the other's pages; one node killed with SIGKILL mid-play, the tablets retry on
the other and the phones keep being answered, nothing is lost or doubled, and no page is served
older than ``STALE_BOUND``."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests

from kaiser_club.http_cache import SHARED_SECONDS, STALE_SECONDS

from . import production as prod
from .private_redis import PrivateRedis
from .stack import Gunicorn, PrivatePostgres, app_env, free_port, prepare_app, run_python
from .stack import missing_tools as missing_stack_tools
from .tablet import Tablet, hand_body
from .verify import check

pytestmark = [pytest.mark.stack]

# How old a public part may be when served: the cache's 2 s and 2 s more while it asks again,
# the second for which a node reuses the event's counter (PUBLIC_VERSION_SECONDS), and a
# second of slack for a shared two-core machine.
STALE_BOUND = SHARED_SECONDS + STALE_SECONDS + 1 + 1


@dataclass
class Hall:
    database_url: str
    nodes: list[Gunicorn]
    front: str  # Caddy, as the hall reaches it
    cache: str  # nginx's micro-cache itself (the test asks it directly too)
    seeded: dict[str, Any]
    logs: list[Path] = field(default_factory=list)

    @property
    def event(self) -> int:
        return int(self.seeded["event"])

    def app_requests(self, path: str) -> int:
        """How many GETs of ``path`` (its query aside, as gunicorn logs it) reached the web
        nodes."""
        pattern = re.compile(rf"^GET {re.escape(path.split('?')[0])} ", re.M)
        logs = [node.log.read_text(errors="replace") for node in self.nodes]
        return sum(len(pattern.findall(text)) for text in logs)


def _unavailable(why: str) -> None:
    pytest.skip(why)


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    missing = missing_stack_tools() + [
        name for name in ("caddy", "nginx", "redis-server") if shutil.which(name) is None
    ]
    if shutil.which("nginx") is None and Path("/usr/sbin/nginx").exists():
        missing.remove("nginx")
    if missing:
        _unavailable(f"two nodes behind the proxy need {', '.join(missing)}")
    tmp = tmp_path_factory.mktemp("hall-nodes")
    with ExitStack() as cleanup:
        pg_root = Path(tempfile.mkdtemp(prefix="kaiser-pg-"))
        cleanup.callback(lambda: shutil.rmtree(pg_root, ignore_errors=True))
        postgres = PrivatePostgres(pg_root, free_port())
        postgres.init()
        postgres.start()
        cleanup.callback(postgres.stop)
        redis = PrivateRedis(tmp, free_port())
        redis.start()
        cleanup.callback(redis.stop)
        database_url = postgres.create_database("kaiser")
        env = app_env(
            f"{database_url}?conn_max_age=60&conn_health_checks=true",
            tmp / "static",
            REDIS_URL=redis.url,
        )
        prepare_app(env)
        seeded = json.loads(
            run_python(env, ["-m", "tests.reliability.seed", "event", "--tables", "6"])
        )
        nodes = [
            Gunicorn(env, tmp / f"web-{n}.log", workers=2, threads=4, keepalive=30) for n in (1, 2)
        ]
        for node in nodes:
            cleanup.callback(node.stop)
            node.start()
        internal, cache_port, front_port = free_port(), free_port(), free_port()
        nginx = prod.start_nginx(tmp / "nginx", listen_port=cache_port, internal_port=internal)
        cleanup.callback(nginx.stop)
        config = prod.caddy_config(
            site_address=":80",
            listen_port=front_port,
            storage=tmp / "caddy-data",
            upstream_ports=[node.port for node in nodes],
            internal_port=internal,
            cache_port=cache_port,
            public_reads="micro_cache",
        )
        caddy = prod.start_caddy(tmp / "caddy", config, listen_port=front_port)
        cleanup.callback(caddy.stop)
        yield Hall(
            database_url=database_url,
            nodes=nodes,
            front=f"http://127.0.0.1:{front_port}",
            cache=f"http://127.0.0.1:{cache_port}",
            seeded=seeded,
        )


def _part(hall: Hall, page: str) -> str:
    return f"/e/{hall.event}/{page}?part=1"


def test_a_public_part_is_kept_by_the_cache_and_revalidated(hall: Hall) -> None:
    path = _part(hall, "standings/")
    first = requests.get(hall.front + path, timeout=30)
    assert first.status_code == 200 and first.headers["ETag"]
    assert "public" in first.headers["Cache-Control"]
    before = hall.app_requests(path)
    answers = [requests.get(hall.front + path, timeout=30) for _ in range(10)]
    assert all(a.status_code == 200 and a.content == first.content for a in answers)
    assert answers[-1].headers["X-Cache"] == "HIT"
    # Ten readers within the cache's two seconds: the app asked at most once more.
    assert hall.app_requests(path) - before <= 1
    # A phone holding the copy is answered 304 by the cache.
    held = requests.get(hall.front + path, headers={"If-None-Match": first.headers["ETag"]})
    assert held.status_code == 304
    # Past s-maxage and stale-while-revalidate, the cache asks the app again (a conditional
    # request: the copy is unchanged, so revalidated rather than fetched whole).
    time.sleep(SHARED_SECONDS + STALE_SECONDS + 0.5)
    again = requests.get(hall.front + path, timeout=30)
    assert again.headers["X-Cache"] in ("EXPIRED", "REVALIDATED", "STALE", "UPDATING")
    assert again.headers["ETag"] == first.headers["ETag"]


def test_a_full_page_is_kept_for_readers_not_signed_in_and_passed_through_for_one_who_is(
    hall: Hall,
) -> None:
    path = f"/e/{hall.event}/live/"
    first = requests.get(hall.cache + path, timeout=30)
    assert first.status_code == 200 and first.headers["ETag"]
    assert "public" in first.headers["Cache-Control"] and not first.cookies
    assert "csrfmiddlewaretoken" not in first.text and "Sign out" not in first.text
    before = hall.app_requests(path)
    answers = [requests.get(hall.cache + path, timeout=30) for _ in range(10)]
    assert all(a.status_code == 200 and a.content == first.content for a in answers)
    assert answers[-1].headers["X-Cache"] == "HIT"
    assert hall.app_requests(path) - before <= 1
    # A signed-in reader of the same page gets their own, from the app, and it is not kept.
    organiser = {"sessionid": hall.seeded["tablets"][0]["session"]}
    for _ in range(2):
        mine = requests.get(hall.cache + path, cookies=organiser, timeout=30)
        assert mine.status_code == 200 and mine.headers["X-Cache"] == "BYPASS"
        assert "private" in mine.headers["Cache-Control"] and "Sign out" in mine.text
    assert "Sign out" not in requests.get(hall.cache + path, timeout=30).text


def test_a_signed_in_page_and_an_organisers_page_are_never_kept(hall: Hall) -> None:
    organiser = {"sessionid": hall.seeded["tablets"][0]["session"]}
    for path in ("/", f"/events/{hall.event}/"):
        # Straight to the cache, twice: it must pass each through, keeping nothing.
        for _ in range(2):
            answer = requests.get(hall.cache + path, cookies=organiser, timeout=30)
            assert answer.status_code == 200, (path, answer.status_code)
            assert answer.headers["X-Cache"] in ("MISS", "BYPASS"), path
            assert "public" not in answer.headers["Cache-Control"], path
            assert "private" in answer.headers["Cache-Control"], path


def _record(tablet: Tablet, game: int, number: int) -> None:
    assert tablet.record(game, hand_body(number)) is not None, tablet.refused


def test_a_hand_recorded_through_one_node_shows_on_the_other(hall: Hall) -> None:
    one, other = hall.nodes
    table = hall.seeded["tablets"][1]
    tablet = Tablet(one.url, table["session"], timeout=30)
    sheet = f"/e/{hall.event}/live/?part=1"
    before = requests.get(other.url + sheet, timeout=30)
    _record(tablet, table["game"], 1)
    time.sleep(1.1)  # the second a node reuses the event's counter
    after = requests.get(other.url + sheet, headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]
    assert "hand 2" in after.text  # the game's line: playing, hand 2


@dataclass
class Reads:
    lock: threading.Lock = field(default_factory=threading.Lock)
    answered: int = 0
    failed: list[tuple[float, float, str]] = field(default_factory=list)  # (sent, done, what)


def _phones(hall: Hall, stop: threading.Event, reads: Reads, paths: list[str]) -> None:
    session = requests.Session()
    etags: dict[str, str] = {}
    while not stop.is_set():
        for path in paths:
            sent = time.monotonic()
            try:
                headers = {"If-None-Match": etags[path]} if path in etags else {}
                answer = session.get(hall.front + path, headers=headers, timeout=30)
                outcome = str(answer.status_code)
                if answer.status_code == 200:
                    etags[path] = answer.headers.get("ETag", "")
            except requests.RequestException as exc:
                outcome = type(exc).__name__
            with reads.lock:
                if outcome in ("200", "304"):
                    reads.answered += 1
                else:
                    reads.failed.append((sent, time.monotonic(), outcome))
        stop.wait(0.3)


def test_one_node_killed_the_hall_carries_on_and_nothing_is_stale(hall: Hall) -> None:
    tables = hall.seeded["tablets"][2:]
    tablets = [Tablet(hall.front, t["session"], timeout=30, give_up_after=60) for t in tables]
    numbers = dict.fromkeys(range(len(tables)), 0)
    paths = [_part(hall, page) for page in ("live/", "standings/", "rounds/1/", "")]
    stop = threading.Event()
    reads = Reads()
    phones = [
        threading.Thread(target=_phones, args=(hall, stop, reads, paths), daemon=True)
        for _ in range(4)
    ]
    for phone in phones:
        phone.start()
    killed_at = 0.0
    try:
        started = time.monotonic()
        while time.monotonic() - started < 12:
            for n, (tablet, table) in enumerate(zip(tablets, tables, strict=True)):
                numbers[n] += 1
                _record(tablet, table["game"], numbers[n])
            if not killed_at and time.monotonic() - started > 4:
                victim = hall.nodes[0]
                assert victim.process is not None
                os.killpg(victim.process.pid, signal.SIGKILL)  # no goodbye: a node lost
                killed_at = time.monotonic()
            time.sleep(0.3)
    finally:
        stop.set()
        for phone in phones:
            phone.join(timeout=60)
    assert killed_at, "the node was never killed"
    # Phones: every read answered, but those in flight on the node at the moment it died
    # (a browser's next poll, 3 s later, is answered).
    late = [f for f in reads.failed if f[0] > killed_at + 1 or f[1] < killed_at]
    assert not late, late
    assert reads.answered > 100 and len(reads.failed) <= 4, (reads.answered, reads.failed)
    # Tablets: every hand acknowledged once, stored once, the scores a replay of the hands.
    acknowledged = {
        table["game"]: [(a.client_id, a.number) for a in tablet.acknowledged]
        for tablet, table in zip(tablets, tables, strict=True)
    }
    problems, totals = check(hall.database_url, acknowledged)
    assert not problems, problems
    assert totals["hands"] == sum(numbers.values()) == totals["acknowledged"]

    # The last hand shows through the cache within the stated bound.
    table, tablet = tables[0], tablets[0]
    numbers[0] += 1
    path = _part(hall, "live/")
    _record(tablet, table["game"], numbers[0])
    recorded = time.monotonic()
    wanted = f"hand {numbers[0] + 1}"
    while wanted not in requests.get(hall.front + path, timeout=30).text:
        assert time.monotonic() - recorded <= STALE_BOUND, f"still no {wanted!r} after the bound"
        time.sleep(0.2)
