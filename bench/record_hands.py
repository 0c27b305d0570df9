"""Recording hands three ways, on PostgreSQL: prints figures and ratios, asserts nothing.

    .venv/bin/python bench/record_hands.py            # 10,000 hands each way
    .venv/bin/python bench/record_hands.py --hands 600

One stream of hands is made first with the rules engine (games of about 15 hands, tournament
rules: random bidder, bid, no-trump or suit, tricks and the two cards, a forced dealer bid now
and then; each hand checked with scoring.rules.preview_hand; a new game when one ends or
reaches 15 hands). The same stream is then written three ways, game by game in turn (each
game by bare SQL, the service and the API, each on its own copy of the game, the one that goes
first moving round), so that a slower minute on the shared machine falls on all three alike:

  bare SQL  the floor: through psycopg, one transaction per hand, INSERT INTO scoring_hand and
            UPDATE scoring_game with values the engine worked out beforehand;
  services  scoring.services.hand_record in this process as a door calls it: the game's row
            read, the hand applied to the state it keeps (update game, insert hand and history
            line, through the ORM: scoring/services/hands.py);
  HTTP      POST /api/games/<id>/hands/ to gunicorn (2 workers of 4 threads, which keep the
            connection open, as deployed; production settings in hall mode), one client, one
            request at a time on one kept-alive connection (http.client: the bytes a tablet's
            browser sends, and little Python on the client's side of the two shared cores).
            A sample of hands (--requests-sample) is sent again through requests.Session, as
            earlier figures were, to show what that client library adds on its own (~0.6 ms
            a request here, measured against a WSGI app that answers "ok").

A fourth way is timed in turn with them: the framework's floor, the same body POSTed on the
same kind of connection and session to a DRF view that answers a small JSON and runs no
statement of its own (bench/floor_urls.py, served by the same gunicorn). The HTTP hand's p50
against it shows what the app adds to what any signed-in API write costs; goal at most 3x.

Games are started before the clock runs; only the hands are timed. The bench makes its own
database (default kaiser_bench: dropped, created and migrated at the start, dropped at the end
unless --keep-db), starts gunicorn itself on a free port on 127.0.0.1 and stops it on exit.

Queries per hand (at most 6 at any game length): one hand recorded at hand 1 and one
at hand 40 of a game, by the HTTP API (Django's test client in this process, the whole request
counted: session, user, the game with the writer's role, the writes) and by the service (the
game's row read as a door reads it, then the hand). The ratios to bare SQL are printed as
figures: the goal is the HTTP hand's against the framework's floor (below), since no API
request, however little it does, comes near a bare statement.

Where a hand's time goes (--breakdown, 1,000 hands): another stream posted to Django's WSGI
handler in this process, as gunicorn calls it but without the network, each statement timed
by an execute wrapper: the whole request, the session read, the game read, the write, and
what is left, the Python (middleware, DRF, the rules, the answer). It shows how far the HTTP
goal is from the database's share of a hand.

With --against REV, a second gunicorn serves the code of an earlier revision (a git worktree
of REV, made and removed by the bench) and its hands are timed in turn with the three ways:
the difference a change made, measured against the same moments of the shared machine.

Sign-in for HTTP: the session is a signed-in browser session (session cookie + CSRF header),
made once. HTTP basic auth re-hashes the password on every request (PBKDF2, 1,000,000
iterations in production: ~0.65 s here), which would measure the hasher, not the app; a short
basic-auth sample (--basic-sample, default 20 hands) is printed beside it to show that cost.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SECRET_KEY = "bench-" + secrets.token_urlsafe(40)
SCOREKEEPER, PASSWORD = "bench-scorekeeper", "bench-" + secrets.token_urlsafe(12)
HANDS_PER_GAME = 15
QUERIES_GOAL = 6
FLOOR_GOAL = 3.0  # the HTTP hand's p50 against the framework's floor
FLOOR = "framework floor (DRF POST)"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands per way (10,000)")
    parser.add_argument("--db", default="kaiser_bench", help="database to create (dropped!)")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432", help="server URL")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers")
    parser.add_argument(
        "--threads",
        type=int,
        default=4,
        help="threads a gunicorn worker (4, as docker-compose runs it; 1: sync workers, a new "
        "connection for every request)",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--against",
        metavar="REV",
        default="",
        help="also time the HTTP API as git revision REV serves it (a second gunicorn on a "
        "checkout of REV, the same database: REV must have the same migrations), in turn "
        "with the others: what a change saved, measured under the same load",
    )
    parser.add_argument("--basic-sample", type=int, default=20, help="hands with basic auth")
    parser.add_argument(
        "--requests-sample",
        type=int,
        default=1000,
        help="hands sent through requests.Session as well (1,000; 0 to skip)",
    )
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--breakdown",
        type=int,
        default=1000,
        help="hands timed statement by statement through Django's handler in this process "
        "(1,000; 0 to skip)",
    )
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=0,
        help="gunicorn's CONN_MAX_AGE, through DATABASE_URL (0: the settings' default, 60 s, "
        "as production has it)",
    )
    return parser.parse_args()


ARGS = parse_args()
os.environ.update(
    DJANGO_SETTINGS_MODULE="kaiser_club.settings.production",
    DJANGO_SECRET_KEY=SECRET_KEY,
    DJANGO_HALL_MODE="true",
    DJANGO_ALLOWED_HOSTS="127.0.0.1",
    DJANGO_LOG_LEVEL="WARNING",
    DATABASE_URL=f"{ARGS.pg}/{ARGS.db}",
)
os.environ.pop("CELERY_BROKER_URL", None)  # tasks, if any, run eagerly as in the quick start

import _setup  # noqa: E402
import _summary as summary  # noqa: E402  (bench/ is on sys.path when run as a script)
import psycopg  # noqa: E402
import requests  # noqa: E402

from tests.reliability.stack import gunicorn  # noqa: E402


def recreate_database() -> None:
    _setup.recreate_database(ARGS.pg, ARGS.db)


def drop_database() -> None:
    _setup.drop_database(ARGS.pg, ARGS.db)


recreate_database()

import django  # noqa: E402

django.setup()

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from kaiser_club.models import Club, Membership, Player  # noqa: E402
from kaiser_club.roles import Role  # noqa: E402
from scoring import services  # noqa: E402
from scoring.models import Game, Hand, Team  # noqa: E402
from scoring.rows_and_rules import entry_fields, result_fields, state_fields  # noqa: E402
from scoring.rules import (  # noqa: E402
    Contract,
    GameState,
    HandEntry,
    HandRefused,
    HandResult,
    Seat,
    Suit,
    apply_hand,
    new_game,
    preset,
    preview_hand,
)

# --- The stream of hands -----------------------------------------------------------------------


@dataclass
class PlannedGame:
    first_dealer: Seat
    hands: list[tuple[HandEntry, HandResult, GameState]] = field(default_factory=list)


def random_entry(rng: random.Random, state: GameState) -> HandEntry:
    """A hand as a table might play it; the caller checks it with the rules engine."""
    rules = state.rules
    if rng.random() < 0.08:  # all passed: the dealer must play at the minimum
        bidder, bid, forced = state.dealer, rules.min_bid, True
    else:
        bidder = rng.choice(list(Seat))
        bid = rng.choices(range(rules.min_bid, 13), weights=[40, 25, 15, 9, 6, 5][: 13 - 7])[0]
        forced = False
    no_trump = not forced and rng.random() < 0.12
    # The bidding team usually takes about the tricks it needs; sometimes it falls short.
    tricks = max(0, min(8, round(rng.gauss(bid - 2.5, 1.6))))
    team, other = bidder.team, bidder.team.other

    def holder(share: float) -> Any:
        if tricks == 0:
            return other
        if tricks == 8:
            return team
        return team if rng.random() < share else other

    return HandEntry(
        bidder=bidder,
        bid=bid,
        contract=Contract.NO_TRUMP if no_trump else Contract.TRUMP,
        trump=None if no_trump else rng.choice(list(Suit)),
        forced=forced,
        bidding_team_tricks=tricks,
        five_hearts=holder(0.45 + tricks / 16),
        three_spades=holder(tricks / 10),
    )


def plan_games(total: int, rng: random.Random) -> list[PlannedGame]:
    rules = preset("tournament")
    games: list[PlannedGame] = []
    made = 0
    while made < total:
        planned = PlannedGame(first_dealer=rng.choice(list(Seat)))
        state = new_game(rules, planned.first_dealer)
        while made < total and len(planned.hands) < HANDS_PER_GAME and not state.over:
            entry = random_entry(rng, state)
            try:
                result = preview_hand(state, entry)
            except HandRefused:
                continue
            state = apply_hand(state, entry)
            planned.hands.append((entry, result, state))
            made += 1
        games.append(planned)
    return games


# --- The database's people and games -----------------------------------------------------------


@dataclass
class Cast:
    club: Club
    teams: list[Team]
    scorekeeper: User


def make_cast() -> Cast:
    club = Club.objects.create(name="Bench Club", slug="bench", default_preset="tournament")
    players = [Player.objects.create(name=f"Bench player {i}") for i in range(16)]
    for player in players:
        Membership.objects.create(club=club, player=player, role=Role.PLAYER)
    teams = [
        Team.objects.create(club=club, name=f"Team {i}", player_one=a, player_two=b)
        for i, (a, b) in enumerate(zip(players[::2], players[1::2], strict=True))
    ]
    user = User.objects.create_user(SCOREKEEPER, password=PASSWORD)
    keeper = Player.objects.create(name="Bench scorekeeper", user=user)
    Membership.objects.create(club=club, player=keeper, role=Role.SCOREKEEPER)
    return Cast(club=club, teams=teams, scorekeeper=user)


def start_games(cast: Cast, plans: list[PlannedGame], rng: random.Random) -> list[int]:
    rules = preset("tournament")
    ids = []
    for plan in plans:
        ns, ew = rng.sample(cast.teams, 2)
        game = services.game_start(
            club=cast.club,
            ns_team=ns,
            ew_team=ew,
            first_dealer=plan.first_dealer,
            rules=rules,
            preset_name="tournament",
        )
        ids.append(game.id)
    return ids


# --- The three ways ----------------------------------------------------------------------------


@dataclass
class Timings:
    label: str
    seconds: list[float] = field(default_factory=list)
    wall: float = 0.0

    @property
    def per_second(self) -> float:
        return len(self.seconds) / self.wall

    def quantile(self, q: float) -> float:
        ordered = sorted(self.seconds)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.seconds)


@dataclass
class Way:
    label: str
    game_ids: list[int]
    write: Callable[..., None]


def timed_in_turn(plans: list[PlannedGame], ways: list[Way]) -> list[Timings]:
    """Each game played by every way in turn, each on its own copy of the game, the way that
    goes first moving round from game to game: a slower minute on a shared machine falls on
    all of them alike, and none always follows another. ``wall`` is each way's own time."""
    found = [Timings(way.label) for way in ways]
    paired = list(zip(ways, found, strict=True))
    for index, plan in enumerate(plans):
        first = index % len(paired)
        for way, timings in paired[first:] + paired[:first]:
            game_id = way.game_ids[index]
            start = time.perf_counter()
            for number, (entry, result, state) in enumerate(plan.hands, start=1):
                before = time.perf_counter()
                way.write(game_id, number, entry, result, state)
                timings.seconds.append(time.perf_counter() - before)
            timings.wall += time.perf_counter() - start
    return found


def timed_hands(
    label: str, plans: list[PlannedGame], game_ids: list[int], write: Callable[..., None]
) -> Timings:
    return timed_in_turn(plans, [Way(label, game_ids, write)])[0]


def by_services(cast: Cast) -> Callable[..., None]:
    def write(
        game_id: int, number: int, entry: HandEntry, result: HandResult, state: GameState
    ) -> None:
        # As a door calls it: the game's row read once, the hand applied to what it keeps.
        seen = Game.objects.get(id=game_id)
        recorded = services.hand_record(
            game_id=game_id,
            entry=entry,
            client_id=uuid.uuid4(),
            number=number,
            by=cast.scorekeeper,
            seen=seen,
        )
        assert (recorded.game.ns_score, recorded.game.ew_score) == (
            state.scores.ns,
            state.scores.ew,
        )

    return write


def hand_json(entry: HandEntry, number: int) -> dict[str, Any]:
    fields = entry_fields(entry)
    fields.pop("completed_at")
    return {**fields, "client_id": str(uuid.uuid4()), "number": number}


def by_http(session: requests.Session, base: str) -> Callable[..., None]:
    """Through requests.Session (cookies, CSRF header and basic auth as the session has them)."""

    def write(
        game_id: int, number: int, entry: HandEntry, result: HandResult, state: GameState
    ) -> None:
        answer = session.post(
            f"{base}/api/games/{game_id}/hands/", json=hand_json(entry, number), timeout=30
        )
        if answer.status_code != 201:
            raise RuntimeError(f"HTTP {answer.status_code}: {answer.text[:500]}")
        check_scores(answer.json()["game"], state)

    return write


def kept_alive(
    session: requests.Session, port: int
) -> tuple[http.client.HTTPConnection, dict[str, Any]]:
    """One kept-alive http.client connection and the session's cookies and headers for it."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    cookie = "; ".join(f"{name}={value}" for name, value in session.cookies.items())
    return conn, {**session.headers, "Cookie": cookie, "Content-Type": "application/json"}


def by_http_lean(session: requests.Session, port: int) -> tuple[Callable[..., None], Any]:
    """The same request on one kept-alive http.client connection, with the session's cookies
    and headers: what a browser sends, without requests' own work on the client's side."""
    conn, headers = kept_alive(session, port)

    def write(
        game_id: int, number: int, entry: HandEntry, result: HandResult, state: GameState
    ) -> None:
        body = json.dumps(hand_json(entry, number))
        conn.request("POST", f"/api/games/{game_id}/hands/", body=body, headers=headers)
        answer = conn.getresponse()
        text = answer.read()
        if answer.status != 201:
            raise RuntimeError(f"HTTP {answer.status}: {text[:500]!r}")
        check_scores(json.loads(text)["game"], state)

    return write, conn.close


def by_floor(session: requests.Session, port: int) -> tuple[Callable[..., None], Any]:
    """The framework's floor for the same request: the hand's body POSTed, signed in, on its
    own kept-alive connection, to a DRF view that reads it and answers a small JSON without a
    statement of its own (bench/floor_urls.py)."""
    conn, headers = kept_alive(session, port)

    def write(
        game_id: int, number: int, entry: HandEntry, result: HandResult, state: GameState
    ) -> None:
        conn.request(
            "POST", "/bench/floor/", body=json.dumps(hand_json(entry, number)), headers=headers
        )
        answer = conn.getresponse()
        text = answer.read()
        if answer.status != 201:
            raise RuntimeError(f"HTTP {answer.status}: {text[:500]!r}")

    return write, conn.close


def check_scores(game: dict[str, Any], state: GameState) -> None:
    assert (game["ns_score"], game["ew_score"]) == (state.scores.ns, state.scores.ew)


def by_bare_sql(dsn: str) -> tuple[Callable[..., None], Callable[[], None]]:
    """INSERT the hand row and UPDATE the game row with values worked out beforehand."""
    columns = [f for f in Hand._meta.concrete_fields if not f.primary_key]
    insert = (
        f"INSERT INTO {Hand._meta.db_table} ({', '.join(f.column for f in columns)}) "
        f"VALUES ({', '.join(['%s'] * len(columns))})"
    )
    game_columns = list(state_fields(new_game(preset("tournament"), Seat.NORTH)))
    update = (
        f"UPDATE {Game._meta.db_table} SET "
        + ", ".join(f"{name} = %s" for name in game_columns)
        + ", ended_at = %s, version = version + 1, updated_at = %s WHERE id = %s"
    )
    conn = psycopg.connect(dsn)

    def write(
        game_id: int, number: int, entry: HandEntry, result: HandResult, state: GameState
    ) -> None:
        now = timezone.now()
        given = {
            "game_id": game_id,
            "client_id": uuid.uuid4(),
            "request_digest": "0" * 64,
            **entry_fields(entry),
            **result_fields(result),
            "completed_at": now,
            "recorded_at": now,
            "recorded_by_id": None,
        }
        row = [given[f.attname] if f.attname in given else f.get_default() for f in columns]
        values = state_fields(state)
        with conn.transaction():
            conn.execute(insert, row)
            conn.execute(
                update,
                [
                    *(str(v) if hasattr(v, "value") else v for v in values.values()),
                    now if state.over else None,
                    now,
                    game_id,
                ],
            )

    return write, conn.close


# --- gunicorn ----------------------------------------------------------------------------------


@contextlib.contextmanager
def worktree(revision: str) -> Any:
    """A checkout of ``revision`` in a temporary folder (git worktree), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="bench-against-")) / "checkout"
    git = ["git", "-C", str(ROOT)]
    subprocess.run([*git, "worktree", "add", "--detach", "-q", str(folder), revision], check=True)
    try:
        yield folder
    finally:
        subprocess.run([*git, "worktree", "remove", "--force", str(folder)], check=False)


def gunicorn_database_url() -> str:
    url = os.environ["DATABASE_URL"]
    if ARGS.conn_max_age:
        url += f"?conn_max_age={ARGS.conn_max_age}&conn_health_checks=true"
    return url


def signed_in_session(user: User, base: str) -> requests.Session:
    """A browser's session after signing in: a session cookie and the CSRF cookie + header."""
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    csrf = secrets.token_hex(16)  # 32 characters, as Django's CSRF secret
    session = requests.Session()
    session.cookies.set("sessionid", store.session_key or "", domain="127.0.0.1")
    session.cookies.set("csrftoken", csrf, domain="127.0.0.1")
    session.headers.update({"X-CSRFToken": csrf, "Referer": base + "/"})
    return session


# --- Queries per hand ----------------------------------------------------------------------


def queries_per_hand(cast: Cast) -> list[tuple[str, int, int]]:
    """(door, hand number, queries) for a hand at hand 1 and at hand 40 of a game, by the HTTP
    API and by the service. BEGIN and COMMIT are not counted (as in tests/test_hand_queries.py)."""
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from tests.reliability.tablet import hand_body

    rules = preset("standard")  # hand_body's games never end (tests/reliability/tablet.py)

    def game_at(hands: int) -> Game:
        game = services.game_start(
            club=cast.club,
            ns_team=cast.teams[0],
            ew_team=cast.teams[1],
            first_dealer=Seat.NORTH,
            rules=rules,
            preset_name="standard",
        )
        for number in range(1, hands + 1):
            services.hand_record(
                game_id=game.id, entry=entry_of(hand_body(number)), client_id=uuid.uuid4()
            )
        return game

    def counted(call: Callable[[], Any]) -> int:
        with CaptureQueriesContext(connection) as ctx:
            call()
        return sum(1 for q in ctx.captured_queries if q["sql"] not in ("BEGIN", "COMMIT"))

    session = signed_in_session(cast.scorekeeper, "http://127.0.0.1")
    client = Client(HTTP_HOST="127.0.0.1")
    client.cookies["sessionid"] = session.cookies["sessionid"]
    rows = []
    for number in (1, 40):
        game = game_at(number - 1)

        def by_api(game_id: int = game.id, n: int = number) -> None:
            answer = client.post(
                f"/api/games/{game_id}/hands/", hand_body(n), content_type="application/json"
            )
            assert answer.status_code == 201, answer.content[:300]

        rows.append(("HTTP API request", number, counted(by_api)))
        game = game_at(number - 1)

        def by_service(game_id: int = game.id, n: int = number) -> None:
            seen = Game.objects.get(id=game_id)
            services.hand_record(
                game_id=game_id,
                entry=entry_of(hand_body(n)),
                client_id=uuid.uuid4(),
                number=n,
                by=cast.scorekeeper,
                seen=seen,
            )

        rows.append(("service (the door's read included)", number, counted(by_service)))
    return rows


def entry_of(body: dict[str, Any]) -> HandEntry:
    from scoring.api.serializers import HandRecordSerializer

    incoming = HandRecordSerializer(data=body)
    incoming.is_valid(raise_exception=True)
    return incoming.to_entry()


# --- Where a hand's time goes --------------------------------------------------------------


@dataclass
class Breakdown:
    """Per hand through Django's WSGI handler (as gunicorn calls it, without the network): the
    whole request, and each kind of statement's time as the client waits for it."""

    request: list[float] = field(default_factory=list)
    statements: dict[str, list[float]] = field(default_factory=dict)

    def p50(self, values: list[float]) -> float:
        return statistics.median(values)


STATEMENT_KINDS = (  # (label, what the start of its SQL holds); the first match wins
    ("write (game, hand, history)", "WITH moved AS"),
    ("session and user", "django_session"),
    ("game read (role, teams, seats)", 'SELECT "scoring_game".'),
)


def statement_kind(sql: str) -> str:
    start = sql[:300]
    return next((label for label, mark in STATEMENT_KINDS if mark in start), "other statements")


def breakdown(cast: Cast, plans: list[PlannedGame], rng: random.Random) -> Breakdown:
    """The same stream of hands, posted to Django's handler in this process one at a time,
    each statement timed by an execute wrapper: how much of a hand is the database's."""
    import io

    from django.core.handlers.wsgi import WSGIHandler

    handler = WSGIHandler()
    session = signed_in_session(cast.scorekeeper, "http://127.0.0.1")
    cookie = "; ".join(f"{name}={value}" for name, value in session.cookies.items())
    found = Breakdown()
    hand: dict[str, float] = {}

    def timed(execute: Callable[..., Any], sql: str, *rest: Any) -> Any:
        before = time.perf_counter()
        try:
            return execute(sql, *rest)
        finally:
            kind = statement_kind(sql)
            hand[kind] = hand.get(kind, 0.0) + time.perf_counter() - before

    def post(game_id: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": f"/api/games/{game_id}/hands/",
            "SERVER_NAME": "127.0.0.1",
            "SERVER_PORT": "80",
            "HTTP_HOST": "127.0.0.1",
            "wsgi.url_scheme": "http",
            "wsgi.input": io.BytesIO(data),
            "wsgi.errors": sys.stderr,
            "CONTENT_LENGTH": str(len(data)),
            "CONTENT_TYPE": "application/json",
            "HTTP_COOKIE": cookie,
            "HTTP_X_CSRFTOKEN": session.headers["X-CSRFToken"],
            "REMOTE_ADDR": "127.0.0.1",
        }
        status: list[str] = []
        answer = b"".join(handler(environ, lambda line, headers, *_: status.append(line)))
        if not status[0].startswith("201"):
            raise RuntimeError(f"{status[0]}: {answer[:500]!r}")

    ids = start_games(cast, plans, rng)
    with connection.execute_wrapper(timed):
        for plan, game_id in zip(plans, ids, strict=True):
            for number, (entry, _result, _state) in enumerate(plan.hands, start=1):
                hand.clear()
                before = time.perf_counter()
                post(game_id, hand_json(entry, number))
                found.request.append(time.perf_counter() - before)
                for kind, seconds in hand.items():
                    found.statements.setdefault(kind, []).append(seconds)
    return found


# --- Running and reporting ---------------------------------------------------------------------


def count(plans: list[PlannedGame]) -> int:
    return sum(len(p.hands) for p in plans)


def report(rows: list[Timings], extras: list[Timings], plans: list[PlannedGame]) -> None:
    finished = sum(1 for p in plans if p.hands and p.hands[-1][2].over)
    version = connection.cursor().connection.info.server_version
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print()
    print(
        f"{count(plans):,} hands in {len(plans):,} games ({finished:,} played to the end, "
        f"the rest stopped at {HANDS_PER_GAME} hands); PostgreSQL "
        f"{version // 10000}.{version % 10000}; "
        f"gunicorn {ARGS.workers} workers x {ARGS.threads} threads, "
        f"CONN_MAX_AGE {ARGS.conn_max_age or 60}"
    )
    print(f"{os.cpu_count()} CPUs shared with whatever else runs; load average now {load}")
    print()
    header = f"{'way':<28} {'hands':>7} {'hands/s':>9} {'p50 ms':>8} {'p95 ms':>8} {'mean ms':>8}"
    print(header)
    print("-" * len(header))
    for t in [*rows, *extras]:
        print(
            f"{t.label:<28} {len(t.seconds):>7,} {t.per_second:>9.1f} "
            f"{t.quantile(0.5) * 1000:>8.2f} {t.quantile(0.95) * 1000:>8.2f} {t.mean * 1000:>8.2f}"
        )
    bare, *others = rows
    for t in rows:
        summary.add("record hands", f"{t.label}: hands/s", t.per_second, "/s")
        p50 = t.quantile(0.5)
        if t is bare:
            summary.add("record hands", f"{t.label}: p50", p50 * 1000, "ms", "the floor")
        else:
            ratio = p50 / bare.quantile(0.5)
            summary.add(
                "record hands", f"{t.label}: p50", p50 * 1000, "ms", f"{ratio:.1f}x bare SQL"
            )
        summary.add("record hands", f"{t.label}: p95", t.quantile(0.95) * 1000, "ms")
    for t in extras:  # another client, another sign-in, or another revision
        p50 = t.quantile(0.5)
        ratio = p50 / bare.quantile(0.5)
        summary.add("record hands", f"{t.label}: p50", p50 * 1000, "ms", f"{ratio:.1f}x bare SQL")
    print()
    print(f"{'ratio to bare SQL':<28} {'time/hand':>10} {'p50':>8} {'p95':>8}")
    for t in [*others, *extras]:
        print(
            f"{t.label + ' / bare SQL':<28} {t.mean / bare.mean:>9.1f}x "
            f"{t.quantile(0.5) / bare.quantile(0.5):>7.1f}x "
            f"{t.quantile(0.95) / bare.quantile(0.95):>7.1f}x"
        )


def report_floor(http: Timings, floor: Timings) -> None:
    """The HTTP hand against the framework's own floor for a signed-in DRF POST, timed in
    turn with it on the same server: what the app adds to what any API write costs."""
    print()
    print(f"{'way':<28} {'requests':>8} {'p50 ms':>8} {'p95 ms':>8}")
    print(
        f"{floor.label:<28} {len(floor.seconds):>8,} {floor.quantile(0.5) * 1000:>8.2f} "
        f"{floor.quantile(0.95) * 1000:>8.2f}"
    )
    p50 = http.quantile(0.5) / floor.quantile(0.5)
    p95 = http.quantile(0.95) / floor.quantile(0.95)
    verdict = "met" if p50 <= FLOOR_GOAL else "NOT met"
    print(
        f"{http.label + ' / framework floor':<42} p50 {p50:.1f}x  p95 {p95:.1f}x   "
        f"goal (p50) ≤ {FLOOR_GOAL:.0f}x: {verdict}"
    )
    summary.add("record hands", f"{floor.label}: p50", floor.quantile(0.5) * 1000, "ms")
    summary.add(
        "record hands",
        f"{http.label} / framework floor: p50",
        p50,
        "x",
        f"p95 {p95:.1f}x; goal ≤ {FLOOR_GOAL:.0f}x: {verdict}",
    )


def report_queries(counts: list[tuple[str, int, int]]) -> None:
    print()
    print(f"{'queries per hand':<40} {'hand':>5} {'queries':>8}   goal ≤ {QUERIES_GOAL}")
    for door, number, queries in counts:
        print(f"{door:<40} {number:>5} {queries:>8}")
        summary.add(
            "record hands",
            f"queries, {door}, hand {number}",
            queries,
            "",
            f"goal ≤ {QUERIES_GOAL}: " + ("met" if queries <= QUERIES_GOAL else "NOT met"),
        )


def report_breakdown(found: Breakdown, bare: Timings) -> None:
    bare_p50 = bare.quantile(0.5)
    request = found.p50(found.request)
    print()
    print(
        f"where a hand's time goes (Django's handler in this process, no network; "
        f"{len(found.request):,} hands, p50 of each)"
    )
    print(f"{'part':<46} {'ms':>7} {'x bare SQL':>11}")
    print(f"{'the whole request':<46} {request * 1000:>7.3f} {request / bare_p50:>10.1f}x")
    summary.add(
        "record hands",
        "HTTP API request in-process, no network: p50",
        request * 1000,
        "ms",
        f"{request / bare_p50:.1f}x bare SQL",
    )
    waited = 0.0
    for kind, times in sorted(found.statements.items(), key=lambda item: -len(item[1])):
        p50 = found.p50(times)
        shown = f"{kind} ({len(times) / len(found.request):.2f} a hand)"
        print(f"{shown:<46} {p50 * 1000:>7.3f} {p50 / bare_p50:>10.1f}x")
        if len(times) == len(found.request):  # statements of every hand
            waited += p50
            summary.add("record hands", f"in-process hand, {kind}: p50", p50 * 1000, "ms")
    rest = request - waited
    label = "the rest: Python (Django, DRF, rules)"
    print(f"{label:<46} {rest * 1000:>7.3f} {rest / bare_p50:>10.1f}x")
    summary.add(
        "record hands", "in-process hand, Python: p50 less the statements", rest * 1000, "ms"
    )


def main() -> None:
    rng = random.Random(ARGS.seed)
    print(f"Database {ARGS.db}: created; migrating ...", flush=True)
    call_command("migrate", verbosity=0)
    cast = make_cast()
    plans = plan_games(ARGS.hands, rng)
    print(f"Planned {count(plans):,} hands in {len(plans):,} games.", flush=True)

    dsn = f"{ARGS.pg}/{ARGS.db}"
    bare_write, bare_close = by_bare_sql(dsn)
    log = Path(tempfile.mkstemp(prefix="bench-gunicorn-", suffix=".log")[1])
    env = {**os.environ, "DATABASE_URL": gunicorn_database_url()}
    extras: list[Timings] = []

    def serving(settings: dict[str, str], **where: Any) -> Any:  # here or in another checkout
        return gunicorn(
            {**env, **settings},
            log,
            workers=ARGS.workers,
            threads=ARGS.threads,
            access_log=False,
            **where,
        )

    with contextlib.ExitStack() as stack:
        # The settings measured, with the framework's floor served beside the app.
        server = stack.enter_context(serving({"DJANGO_SETTINGS_MODULE": "bench.floor_settings"}))
        session = signed_in_session(cast.scorekeeper, server.url)
        lean_write, lean_close = by_http_lean(session, server.port)
        floor_write, floor_close = by_floor(session, server.port)
        stack.callback(floor_close)
        http_games = start_games(cast, plans, rng)
        ways = [
            Way("bare SQL (psycopg)", start_games(cast, plans, rng), bare_write),
            Way("services.hand_record", start_games(cast, plans, rng), by_services(cast)),
            Way("HTTP API (session)", http_games, lean_write),
            Way(FLOOR, http_games, floor_write),  # writes no game: the ids go unused
        ]
        if ARGS.against:
            checkout = stack.enter_context(worktree(ARGS.against))
            earlier = stack.enter_context(serving({}, cwd=checkout))
            earlier_session = signed_in_session(cast.scorekeeper, earlier.url)
            earlier_write, earlier_close = by_http_lean(earlier_session, earlier.port)
            stack.callback(earlier_close)
            label = f"HTTP API at {ARGS.against}"[:28]
            ways.append(Way(label, start_games(cast, plans, rng), earlier_write))
        print(f"bare SQL, services and HTTP (gunicorn on {server.url}), in turn ...", flush=True)
        bare, by_service, http, floor, *against = timed_in_turn(plans, ways)
        extras.extend(against)
        bare_close()
        lean_close()
        if ARGS.requests_sample:
            sample = plan_games(ARGS.requests_sample, random.Random(ARGS.seed + 3))
            ids = start_games(cast, sample, rng)
            print(f"HTTP through requests, {ARGS.requests_sample:,} hands ...", flush=True)
            extras.append(
                timed_hands("HTTP API (requests client)", sample, ids, by_http(session, server.url))
            )
        if ARGS.basic_sample:
            sample = plan_games(ARGS.basic_sample, random.Random(ARGS.seed + 1))
            ids = start_games(cast, sample, rng)
            plain = requests.Session()
            plain.auth = (SCOREKEEPER, PASSWORD)
            print(f"HTTP with basic auth, {ARGS.basic_sample} hands ...", flush=True)
            extras.append(
                timed_hands("HTTP API (basic auth)", sample, ids, by_http(plain, server.url))
            )

    assert Hand.objects.count() == 3 * count(plans) + sum(len(t.seconds) for t in extras)
    counts = queries_per_hand(cast)
    found = None
    if ARGS.breakdown:
        print(f"Breakdown, {ARGS.breakdown:,} hands in this process ...", flush=True)
        found = breakdown(cast, plan_games(ARGS.breakdown, random.Random(ARGS.seed + 2)), rng)
    report([bare, by_service, http], extras, plans)
    report_floor(http, floor)
    report_queries(counts)
    if found is not None:
        report_breakdown(found, bare)


def _stop_on_signal(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _stop_on_signal)
    try:
        main()
    finally:
        connection.close()
        if not ARGS.keep_db:
            drop_database()
