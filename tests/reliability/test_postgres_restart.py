"""PostgreSQL restarted while tablets record hands, on the real stack.

A private PostgreSQL (its own directory and port; the shared server is never touched) under
gunicorn with production settings in hall mode. Tablets (threads) record hands through the
games API with ids they make themselves and retry a failed request with the same id and body.
While they record, the database is restarted (``pg_ctl restart -m fast``: connections are cut,
transactions in flight roll back). Afterwards: every hand a tablet saw acknowledged is stored,
once, under the number it was given; no hand is stored that nobody saw acknowledged; every
game's scores are a replay of its hands through the rules engine.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import IN_CI

from .stack import Gunicorn, PrivatePostgres, app_env, missing_tools, prepare_app, private_postgres
from .stack import run_python as run_module
from .tablet import GaveUp, Tablet, hand_body
from .verify import check

pytestmark = pytest.mark.fault

TABLETS = 6
HANDS_PER_GAME = 24
RESTART_AFTER = TABLETS * HANDS_PER_GAME // 3  # acknowledged hands before the restart
PACE = 0.05  # seconds a tablet waits between hands (a real table: a few minutes)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    missing = missing_tools()
    if missing:
        message = f"the real stack needs {', '.join(missing)}"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    tmp = tmp_path_factory.mktemp("pg-restart")
    with private_postgres() as postgres:
        env = app_env(postgres.create_database("kaiser"), tmp / "static")
        prepare_app(env, static=False)  # the tablets use the JSON API only
        seeded = json.loads(
            run_module(env, ["-m", "tests.reliability.seed", "games", "--count", str(TABLETS)])
        )
        server = Gunicorn(env, tmp / "gunicorn.log", workers=2, threads=2)
        server.start()
        try:
            yield postgres, server, seeded
        finally:
            server.stop()


def _play(tablet: Tablet, game_id: int, errors: list[str], acked: Counter[str]) -> None:
    try:
        for number in range(1, HANDS_PER_GAME + 1):
            if tablet.record(game_id, hand_body(number)) is None:
                errors.append(f"game {game_id} hand {number} refused: {tablet.refused[-1]}")
                return
            acked["total"] += 1
            time.sleep(PACE)
    except GaveUp as exc:
        errors.append(f"gave up: {exc}")
    except Exception as exc:  # the thread must report, not die silently
        errors.append(f"game {game_id}: {type(exc).__name__}: {exc}")


def test_tablets_lose_nothing_when_postgresql_restarts(
    stack: tuple[PrivatePostgres, Gunicorn, dict],
) -> None:
    postgres, server, seeded = stack
    tablets = [(Tablet(server.url, t["session"]), t["game"]) for t in seeded["tablets"]]
    errors: list[str] = []
    acked: Counter[str] = Counter()
    threads = [
        threading.Thread(target=_play, args=(tablet, game, errors, acked), daemon=True)
        for tablet, game in tablets
    ]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 120
    while acked["total"] < RESTART_AFTER and not errors and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not errors, errors
    assert acked["total"] >= RESTART_AFTER, "the tablets did not get going"
    restarted_at = acked["total"]
    postgres.restart()
    for thread in threads:
        thread.join(timeout=180)
    assert not any(t.is_alive() for t in threads), "a tablet is still recording after 3 minutes"
    assert not errors, errors

    seen = sum((tablet.seen for tablet, _ in tablets), Counter[str]())
    retries = sum(tablet.retries for tablet, _ in tablets)
    print(f"\nrestart after {restarted_at} hands; answers seen: {dict(seen)}; retries: {retries}")
    # The restart was felt (otherwise this test proves nothing), and only as retryable answers.
    assert retries > 0, f"no request failed during the restart: {dict(seen)}"
    assert seen["500"] == 0, f"the outage answered 500 (not 503) {seen['500']} times"
    assert all(tablet.refused == [] for tablet, _ in tablets)

    acknowledged: dict[int, list[tuple[str, int]]] = {}
    for tablet, game in tablets:
        acknowledged[game] = [(a.client_id, a.number) for a in tablet.acknowledged]
        assert [a.number for a in tablet.acknowledged] == list(range(1, HANDS_PER_GAME + 1))
    problems, totals = check(postgres.url("kaiser"), acknowledged)
    assert problems == []
    assert totals == {
        "games": TABLETS,
        "hands": TABLETS * HANDS_PER_GAME,
        "acknowledged": TABLETS * HANDS_PER_GAME,
    }


def test_the_private_server_is_not_the_shared_one(
    stack: tuple[PrivatePostgres, Gunicorn, dict],
) -> None:
    postgres, _server, _seeded = stack
    assert postgres.port != 5432
    assert Path(postgres.data, "postmaster.pid").exists()
