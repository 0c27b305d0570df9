"""``make demo`` as a newcomer runs it: ``load_demo`` then ``serve_demo`` on a port of its own,
with nothing but the project installed (SQLite, no Redis). The clock is kept with no client (a
game past its deadline has time called by beat's sweep within 15 s), a PDF is made by the
worker, off the request, the links printed name the port served, and Ctrl-C (SIGTERM here)
stops the server, the worker and beat."""

from __future__ import annotations

import datetime as dt
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.reliability.stack import REPO, free_port

pytestmark = pytest.mark.stack

PYTHON = Path(sys.executable)


def demo_env(tmp: Path) -> dict[str, str]:
    kept = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "REDIS_", "DEMO_"))
        and key not in ("DATABASE_URL", "CI")
    }
    return {
        **kept,
        "DJANGO_SETTINGS_MODULE": "kaiser_club.settings.local",
        "DATABASE_URL": f"sqlite:///{tmp / 'db.sqlite3'}",
        "DEMO_BROKER_DIR": str(tmp / "broker"),
        "DJANGO_MEDIA_ROOT": str(tmp / "media"),
        "PYTHONPATH": str(REPO),  # the tree under test, before any installed copy
    }


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [str(PYTHON), "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def descendants(pid: int) -> list[int]:
    found: list[int] = []
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True)
    for child in (int(p) for p in children.stdout.split()):
        found += [child, *descendants(child)]
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_make_demo_keeps_the_clock_and_makes_pdfs_off_the_request(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/"
    env = demo_env(tmp_path)
    manage(env, "migrate", "--noinput")
    said = manage(env, "load_demo", "--base-url", url)
    assert re.search(rf"{re.escape(url)}invitations/\S+/", said), said

    log = tmp_path / "demo.log"
    with log.open("wb") as out:
        demo = subprocess.Popen(
            [str(PYTHON), "manage.py", "serve_demo", f"127.0.0.1:{port}"],
            cwd=REPO,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 120
        while f"Kaiser Club is on {url}" not in log.read_text(errors="replace"):
            assert demo.poll() is None, log.read_text(errors="replace")[-3000:]
            assert time.monotonic() < deadline, log.read_text(errors="replace")[-3000:]
            time.sleep(0.3)
        processes = descendants(demo.pid)
        lines = [command_line(pid) for pid in processes]
        assert any(" worker " in line for line in lines), lines
        assert any(" beat " in line for line in lines), lines

        # The clock: a game past its deadline, and nobody asking.
        db = sqlite3.connect(tmp_path / "db.sqlite3", timeout=20, isolation_level=None)
        game, limit = db.execute(
            "SELECT id, time_limit_minutes FROM scoring_game WHERE status = 'in_progress' "
            "AND time_limit_minutes IS NOT NULL AND time_called_at IS NULL ORDER BY id LIMIT 1"
        ).fetchone()
        started = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=limit + 31)
        db.execute(
            "UPDATE scoring_game SET started_at = ? WHERE id = ?",
            (started.strftime("%Y-%m-%d %H:%M:%S.%f"), game),
        )
        overdue = time.monotonic()
        called = None
        while time.monotonic() - overdue < 20:
            row = db.execute("SELECT time_called_at FROM scoring_game WHERE id = ?", (game,))
            if row.fetchone()[0] is not None:
                called = time.monotonic() - overdue
                break
            time.sleep(0.25)
        assert called is not None and called <= 15, (called, log.read_text()[-3000:])

        # A PDF: the request returns, the worker makes it.
        browser = requests.Session()
        browser.get(f"{url}accounts/login/", timeout=30)
        token = browser.cookies["csrftoken"]
        signed = browser.post(
            f"{url}accounts/login/",
            data={"csrfmiddlewaretoken": token, "username": "organiser", "password": "kaiser-demo"},
            allow_redirects=False,
            timeout=30,
        )
        assert signed.status_code == 302
        (event,) = db.execute(
            "SELECT id FROM tournaments_event WHERE kind = 'tournament' ORDER BY id LIMIT 1"
        ).fetchone()
        asked = browser.post(
            f"{url}events/{event}/reports/",
            data={"csrfmiddlewaretoken": browser.cookies["csrftoken"], "kind": "standings"},
            allow_redirects=False,
            timeout=30,
        )
        assert asked.status_code == 302
        deadline = time.monotonic() + 90
        status = claimed = ""
        while time.monotonic() < deadline:
            status, claimed = db.execute(
                "SELECT status, claimed_by FROM tournaments_reportjob WHERE event_id = ? "
                "ORDER BY id DESC LIMIT 1",
                (event,),
            ).fetchone()
            if status in ("done", "failed"):
                break
            time.sleep(0.3)
        assert status == "done", log.read_text()[-3000:]
        worker = [pid for pid in descendants(demo.pid) if " worker " in command_line(pid)]
        assert int(claimed.split(":")[1]) in worker, (claimed, worker)
        db.close()
    finally:
        demo.send_signal(signal.SIGTERM)  # what Ctrl-C does
        try:
            demo.wait(timeout=40)
        finally:
            if demo.poll() is None:
                os.killpg(demo.pid, signal.SIGKILL)
                demo.wait(timeout=10)
    left = [pid for pid in processes if Path(f"/proc/{pid}").exists() and command_line(pid)]
    assert left == [], [command_line(pid) for pid in left]
    assert "Stopping the server, the worker and beat." in log.read_text()
