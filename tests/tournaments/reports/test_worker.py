"""One PDF made by a real Celery worker through Redis, against the test's PostgreSQL database.

The worker is a subprocess (``celery -A kaiser_club worker --pool=solo``) on Redis database 5,
given the test database's name through DATABASE_URL (the rows must be committed for it to see
them: ``transaction=True``). Under CI=true a missing Redis or PostgreSQL fails the test: a skip
is not a pass.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection

from kaiser_club.celery import app
from tests.tournaments.helpers import generate, make_event, win_for
from tournaments.choices import JobStatus
from tournaments.models import Pairing, ReportJob
from tournaments.reports import services

from .helpers import pdf_text

BROKER = os.environ.get("REPORTS_TEST_BROKER", "redis://127.0.0.1:6379/5")
IN_CI = os.environ.get("CI") == "true"

pytestmark = [pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]


def unavailable(why: str) -> None:
    if IN_CI:
        pytest.fail(f"{why} (CI needs it: a skip is not a pass)")
    pytest.skip(why)


def database_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


@pytest.fixture
def broker() -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(BROKER, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        unavailable(f"Redis is not answering at {BROKER}: {exc}")
    client.flushdb()
    yield client
    client.flushdb()


@pytest.fixture
def real_celery(
    broker: redis.Redis, settings: Any, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """This process sends to Redis instead of running tasks eagerly."""
    # Celery reads CELERY_BROKER_URL from the environment before its own configuration.
    monkeypatch.setenv("CELERY_BROKER_URL", BROKER)
    saved = (app.conf.broker_url, app.conf.task_always_eager)
    app.conf.update(broker_url=BROKER, task_always_eager=False)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    fresh_pools()  # the next send opens its connection on BROKER
    yield
    fresh_pools()
    app.conf.update(broker_url=saved[0], task_always_eager=saved[1])


def fresh_pools() -> None:
    app._pool = None  # type: ignore[attr-defined]
    app.amqp._producer_pool = None  # type: ignore[attr-defined]


@pytest.fixture
def worker(real_celery: None, media: Path, tmp_path: Path) -> Iterator[Path]:
    if connection.vendor != "postgresql":
        unavailable("The worker test needs PostgreSQL (set DATABASE_URL=postgres://...).")
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "kaiser_club.settings.test",
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": BROKER,
        "DJANGO_MEDIA_ROOT": str(media),
    }
    celery = Path(sys.executable).parent / "celery"
    command = [
        str(celery),
        "-A",
        "kaiser_club",
        "worker",
        "--pool=solo",
        "-l",
        "warning",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "-n",
        f"reports-test-{os.getpid()}@%h",
    ]
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, cwd=django_settings.BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        yield log
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def test_a_real_worker_renders_a_pdf_asked_for_through_the_service(worker: Path) -> None:
    event = make_event(teams=4, format="swiss")
    generate(event)
    for p in Pairing.objects.filter(event=event, game__isnull=False).select_related("home"):
        assert p.home is not None
        win_for(p, p.home)

    job = services.report_request(event=event, kind="standings")  # autocommit: sent at once
    job.refresh_from_db()
    assert job.sent_at is not None, f"not sent to the broker: {job.send_error}"

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in (JobStatus.DONE, JobStatus.FAILED):
            break
        time.sleep(0.5)
    log = worker.read_text(errors="replace")
    assert job.status == JobStatus.DONE, f"job {job.status}: {job.error}\nworker log:\n{log}"
    _host, pid, _token = job.claimed_by.split(":")
    assert int(pid) != os.getpid()  # made by the worker process, not here
    text = pdf_text(job)
    for n in range(1, 5):
        assert f"Team {n}" in text
    assert ReportJob.objects.get(id=job.id).attempts == 1
