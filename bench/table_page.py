"""The table page: taps and seconds for a typical hand, the page's weight, and how long a tablet
waits for the answer to its confirming tap when 50 tablets tap at once. Prints figures; asserts
nothing.

    .venv/bin/python bench/table_page.py                  # 50 tablets, 12 hands each
    .venv/bin/python bench/table_page.py --tablets 20 --hands 5 --no-browser

1. Taps and seconds: runs the browser test that enters a whole game through the page
   (tests/table/test_browser.py::test_a_whole_game_to_the_target, Debian's chromium), which
   counts every tap and times each hand from the first tap to the new score on screen, and
   reads what it wrote (bench/_out/table_taps.json). The seconds are a script's, not a
   person's: they measure the page and the server, not a hand reaching for the buttons.
2. Page weight: the table page as gunicorn serves it (production settings, hall mode,
   collectstatic'd files through WhiteNoise): HTML, CSS and JS bytes as sent and as gzip.
3. Confirm-to-answer: an event with one table per tablet, a game running at each; every
   tablet opens its table by its code (GET /t/<code>/), then, for each hand, all tablets wait
   at a barrier and send at once. Verification off: the confirming tap is "Record the hand"
   (POST .../hands). Verification on: the scorekeeper records (pending), then the other
   partnership's tap confirms it (POST .../confirm); both timed. Each answer carries the new
   board (HTML), as the page gets it. Threads with requests.Session, against gunicorn (3 sync
   workers, as in the Dockerfile) on 127.0.0.1 and PostgreSQL, on the same two cores.

The bench makes its own database (kaiser_bench_table: dropped and created at the start,
dropped at the end unless --keep-db) and starts and stops gunicorn itself.
"""

from __future__ import annotations

import argparse
import atexit
import gzip
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "_out"
sys.path.insert(0, str(ROOT))

import _summary as summary  # noqa: E402  (bench/ is on sys.path when run as a script)


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tablets", type=int, default=50)
    parser.add_argument("--hands", type=int, default=12, help="hands per tablet and phase")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers")
    parser.add_argument("--db", default="kaiser_bench_table", help="database to create (dropped!)")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--no-browser", action="store_true", help="skip the browser test")
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=0,
        help="gunicorn's CONN_MAX_AGE through DATABASE_URL (0: a connection per request, as "
        "production is configured)",
    )
    return parser.parse_args()


ARGS = parse_args()

from _setup import use_production_settings  # noqa: E402 (bench/ is on sys.path)

use_production_settings(f"{ARGS.pg}/{ARGS.db}", keep_redis=False)

import psycopg  # noqa: E402
import requests  # noqa: E402

from tests.reliability.stack import Gunicorn  # noqa: E402


def recreate_database() -> None:
    with psycopg.connect(f"{ARGS.pg}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{ARGS.db}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{ARGS.db}"')


def drop_database() -> None:
    with psycopg.connect(f"{ARGS.pg}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{ARGS.db}" WITH (FORCE)')


# --- 1. Taps and seconds, from the browser test ---------------------------------------------------


def taps_and_seconds() -> dict[str, Any] | None:
    target = OUT / "table_taps.json"
    if not ARGS.no_browser:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "kaiser_club.settings.test",
            "DATABASE_URL": f"{ARGS.pg}/kaiser_bench_taps",
            "DJANGO_ALLOW_ASYNC_UNSAFE": "true",
        }
        test = "tests/table/test_browser.py::test_a_whole_game_to_the_target"
        done = subprocess.run(
            [str(ROOT / ".venv/bin/pytest"), test, "-q", "--create-db", "-p", "no:cacheprovider"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            print(done.stdout[-2000:], done.stderr[-2000:])
            return None
    if not target.exists():
        return None
    return json.loads(target.read_text())


# --- The server ---------------------------------------------------------------------------------


def gunicorn_database_url() -> str:
    url = os.environ["DATABASE_URL"]
    if ARGS.conn_max_age:
        url += f"?conn_max_age={ARGS.conn_max_age}&conn_health_checks=true"
    return url


# --- The event, its tables and the hands each tablet will enter --------------------------------


@dataclass
class Tablet:
    table_id: int
    code: str
    game_id: int
    hands: list[dict[str, Any]] = field(default_factory=list)
    session: requests.Session = field(default_factory=requests.Session)
    csrf: str = ""


def setup_event(*, tablets: int, verification: bool, rng: random.Random) -> list[Tablet]:
    import datetime as dt

    from django.utils import timezone

    from kaiser_club.models import Club, Player
    from scoring import services
    from scoring.models import Team
    from scoring.rules import HandRefused, RuleSet, Seat, apply_hand, new_game, preview_hand
    from tournaments.models import Event, Pairing, Round, Table
    from tournaments.services.tables import new_code

    club, _ = Club.objects.get_or_create(slug="bench", defaults={"name": "Bench club"})
    rules = services.rules_from(preset_name="tournament")
    event = Event.objects.create(
        club=club,
        name=f"Bench {'with' if verification else 'without'} verification",
        date=dt.date.today(),
        status="running",
        preset="tournament",
        rules=rules.to_dict(),
        format="round_robin",
        verification=verification,
    )
    round_ = Round.objects.create(event=event, number=1, status="started")
    made = []
    for number in range(1, tablets + 1):
        players = [Player.objects.create(name=f"P{number}-{k}") for k in range(4)]
        ns = Team.objects.create(club=club, player_one=players[0], player_two=players[1])
        ew = Team.objects.create(club=club, player_one=players[2], player_two=players[3])
        game = services.game_start(
            club=club,
            ns_team=ns,
            ew_team=ew,
            first_dealer=Seat.NORTH,
            rules=RuleSet.from_dict(event.rules),
            preset_name="tournament",
        )
        table = Table.objects.create(
            event=event, number=number, code=new_code(), code_issued_at=timezone.now()
        )
        Pairing.objects.create(
            event=event, round=round_, table=table, home_team=ns, away_team=ew, game=game
        )
        tablet = Tablet(table_id=table.id, code=table.code or "", game_id=game.id)
        state = new_game(rules, Seat.NORTH)
        while len(tablet.hands) < ARGS.hands and not state.over:
            entry = random_entry(rng, state)
            try:
                preview_hand(state, entry)
            except HandRefused:
                continue
            state = apply_hand(state, entry)
            tablet.hands.append(entry_json(entry))
        made.append(tablet)
    return made


def random_entry(rng: random.Random, state: Any) -> Any:
    from scoring.rules import Contract, HandEntry, Seat, Suit

    bidder = rng.choice(list(Seat))
    bid = rng.choice(range(state.rules.min_bid, 11))
    tricks = max(0, min(8, round(rng.gauss(bid - 2.5, 1.6))))
    team, other = bidder.team, bidder.team.other
    no_trump = rng.random() < 0.12

    def holder(share: float) -> Any:
        if tricks in (0, 8):
            return other if tricks == 0 else team
        return team if rng.random() < share else other

    return HandEntry(
        bidder=bidder,
        bid=bid,
        contract=Contract.NO_TRUMP if no_trump else Contract.TRUMP,
        trump=None if no_trump else rng.choice(list(Suit)),
        bidding_team_tricks=tricks,
        five_hearts=holder(0.45 + tricks / 16),
        three_spades=holder(tricks / 10),
    )


def entry_json(entry: Any) -> dict[str, Any]:
    return {
        "bidder": int(entry.bidder),
        "bid": entry.bid,
        "contract": entry.contract.value,
        "trump": entry.trump.value if entry.trump else None,
        "bidding_team_tricks": entry.bidding_team_tricks,
        "five_hearts": entry.five_hearts.value,
        "three_spades": entry.three_spades.value,
    }


# --- 2. Page weight ----------------------------------------------------------------------------


def page_weight(base: str, tablet: Tablet) -> dict[str, Any]:
    session = requests.Session()
    opened = session.get(f"{base}/t/{tablet.code}/", timeout=30)
    assert opened.status_code == 200, opened.status_code
    html = opened.content
    found: dict[str, Any] = {
        "html": {"bytes": len(html), "gzip": len(gzip.compress(html, 6)), "files": 1}
    }
    urls = {
        "css": re.findall(rb'<link rel="stylesheet" href="([^"]+)"', html),
        "js": re.findall(rb'<script src="([^"]+)"', html),
    }
    for kind, paths in urls.items():
        raw = sent = 0
        for path in paths:
            plain = session.get(base + path.decode(), headers={"Accept-Encoding": "identity"})
            squeezed = session.get(base + path.decode(), headers={"Accept-Encoding": "gzip"})
            raw += len(plain.content)
            sent += int(squeezed.headers.get("Content-Length", len(squeezed.content)))
        found[kind] = {"bytes": raw, "gzip": sent, "files": len(paths)}
    worker = session.get(f"{base}/table/sw.js")
    found["service_worker"] = {"bytes": len(worker.content), "files": 1}
    return found


# --- 3. Confirm-to-answer ------------------------------------------------------------------------


def open_table(base: str, tablet: Tablet) -> None:
    answer = tablet.session.get(f"{base}/t/{tablet.code}/", timeout=60)
    assert answer.status_code == 200, answer.status_code
    tablet.csrf = tablet.session.cookies.get("csrftoken") or ""


def post(base: str, tablet: Tablet, what: str, body: dict[str, Any]) -> tuple[float, int]:
    started = time.perf_counter()
    answer = tablet.session.post(
        f"{base}/table/{tablet.table_id}/{what}",
        data=json.dumps(body),
        headers={"Content-Type": "application/json", "X-CSRFToken": tablet.csrf},
        timeout=120,
    )
    return time.perf_counter() - started, answer.status_code


def burst(base: str, tablets: list[Tablet], *, verification: bool) -> dict[str, list[float]]:
    """Every tablet enters each of its hands at the same moment as the others."""
    times: dict[str, list[float]] = {"record": [], "confirm": []}
    statuses: list[int] = []
    lock = threading.Lock()
    rounds = max(len(t.hands) for t in tablets)
    barrier = threading.Barrier(len(tablets))

    def run(tablet: Tablet) -> None:
        for number in range(1, rounds + 1):
            barrier.wait()
            if number > len(tablet.hands):
                continue
            body = {
                "game_id": tablet.game_id,
                "number": number,
                "client_id": str(uuid.uuid4()),
                "entry": tablet.hands[number - 1],
                "entered_by_seat": 0,
            }
            seconds, status = post(base, tablet, "hands", body)
            with lock:
                times["record"].append(seconds)
                statuses.append(status)
            if verification:
                confirm = {"game_id": tablet.game_id, "number": number, "seat": 1}
                seconds, status = post(base, tablet, "confirm", confirm)
                with lock:
                    times["confirm"].append(seconds)
                    statuses.append(status)

    threads = [threading.Thread(target=run, args=(t,)) for t in tablets]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    bad = [s for s in statuses if s != 200]
    if bad:
        print(f"  !! {len(bad)} answers were not 200: {sorted(set(bad))}")
    return times


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(values: list[float]) -> str:
    if not values:
        return "-"
    return (
        f"p50 {statistics.median(values) * 1000:7.1f} ms   p95 {quantile(values, 0.95) * 1000:7.1f}"
        f" ms   max {max(values) * 1000:7.1f} ms   ({len(values)} answers)"
    )


def main() -> None:
    print(f"load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    taps = taps_and_seconds()
    recreate_database()
    if not ARGS.keep_db:
        atexit.register(drop_database)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    rng = random.Random(ARGS.seed)
    plain = setup_event(tablets=ARGS.tablets, verification=False, rng=rng)
    verified = setup_event(tablets=ARGS.tablets, verification=True, rng=rng)
    single = setup_event(tablets=1, verification=False, rng=rng)
    from django.db import connections

    connections.close_all()

    log = Path(tempfile.mkstemp(prefix="bench-table-gunicorn-", suffix=".log")[1])
    env = {**os.environ, "DATABASE_URL": gunicorn_database_url()}
    server = Gunicorn(env, log, workers=ARGS.workers, backlog=256, access_log=False)
    atexit.register(server.stop)
    server.start()
    weight = page_weight(server.url, plain[0])
    for tablet in plain + verified + single:
        open_table(server.url, tablet)
    alone = burst(server.url, single, verification=False)  # one tablet: the service time
    started = time.perf_counter()
    off = burst(server.url, plain, verification=False)
    off_seconds = time.perf_counter() - started
    started = time.perf_counter()
    on = burst(server.url, verified, verification=True)
    on_seconds = time.perf_counter() - started
    server.stop()

    print("\n== Taps and seconds for a typical hand (browser test, a whole game of 7 hands)")
    if taps:
        per_hand = taps["taps_per_hand"]
        seconds = taps["seconds_per_hand"]
        print(f"  taps per hand: {statistics.median(per_hand):.0f} (each hand: {per_hand})")
        print(
            "  + 1 tap for the other partnership's confirmation when the event verifies;"
            " + 1 once per device to say who keeps score"
        )
        print(
            f"  seconds per hand, scripted taps to the new score on screen: "
            f"p50 {statistics.median(seconds):.2f} s, max {max(seconds):.2f} s"
        )
    else:
        print("  (no figures: the browser test did not run)")

    print("\n== Page weight of the table page (as gunicorn + WhiteNoise send it)")
    total_raw = total_gzip = 0
    for kind in ("html", "css", "js"):
        part = weight[kind]
        total_raw += part["bytes"]
        total_gzip += part["gzip"]
        print(
            f"  {kind.upper():4} {part['bytes']:7,} bytes  ({part['gzip']:6,} gzip)  "
            f"in {part['files']} file(s)"
        )
    print(f"  all  {total_raw:7,} bytes  ({total_gzip:6,} gzip); no images, no fonts, no htmx")
    print(f"  service worker {weight['service_worker']['bytes']:,} bytes (once per device)")

    print(
        f"\n== Confirm-to-answer, {ARGS.tablets} tablets tapping at once, "
        f"{ARGS.hands} hands each, gunicorn {ARGS.workers} workers, "
        f"CONN_MAX_AGE={ARGS.conn_max_age}"
    )
    print(f"  one tablet alone,  'Record the hand':   {ms(alone['record'])}")
    print(f"  verification off, 'Record the hand':   {ms(off['record'])}")
    print(f"  verification on,  'Record' (pending):  {ms(on['record'])}")
    print(f"  verification on,  confirming seat:     {ms(on['confirm'])}")
    writes = len(off["record"]) / off_seconds
    print(f"  throughput: {writes:.0f} hands/s (off), {len(on['confirm']) / on_seconds:.0f} (on)")
    load = " ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"  machine load average (1, 5, 15 min) at the end: {load}")
    if taps:
        summary.add("table page", "taps per hand", statistics.median(taps["taps_per_hand"]))
    summary.add(
        "table page",
        "page weight (HTML+CSS+JS)",
        total_raw / 1000,
        "KB",
        f"{total_gzip / 1000:.1f} KB gzip",
    )
    lone = quantile(alone["record"], 0.5)
    for label, values in (
        ("confirm, verification off", off["record"]),
        ("confirm, verification on", on["confirm"]),
    ):
        p50 = quantile(values, 0.5)
        summary.add(
            "table page",
            f"{label}, {ARGS.tablets} tablets at once: p50",
            p50 * 1000,
            "ms",
            f"p95 {quantile(values, 0.95) * 1000:.0f} ms; {p50 / lone:.1f}x one tablet alone",
        )
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "table_page.json").write_text(
        json.dumps(
            {
                "taps": taps,
                "weight": weight,
                "tablets": ARGS.tablets,
                "hands": ARGS.hands,
                "record_off": off["record"],
                "record_on": on["record"],
                "confirm_on": on["confirm"],
            }
        )
    )


if __name__ == "__main__":
    main()
