"""A worker killed (SIGKILL) while it renders a PDF: its job is taken back once its lease runs
out, sent again by the reports sweep, and a new worker makes it to the end.

A private redis-server on a free port is the broker; the workers are subprocesses on the test
database (``transaction=True``) with a short running timeout (REPORT_RUNNING_TIMEOUT), so the
lease of the dead worker expires in seconds. The PDF is big on purpose (blank score sheets for
a round of many tables) so that it is still being made when the worker is killed.
"""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from pypdf import PdfReader

from tests.tournaments.helpers import generate, make_event
from tournaments.choices import JobStatus
from tournaments.models import Round
from tournaments.reports import services

from .private_redis import Worker, need_postgres, private_redis, sending_to

pytestmark = [pytest.mark.fault, pytest.mark.django_db(transaction=True)]

RUNNING_TIMEOUT = 4  # seconds: the dead worker's lease runs out this long after its last beat
TEAMS = 32  # 16 tables: a PDF that takes seconds to make, killed within ~20 ms of its start


def test_a_job_cut_off_by_a_killed_worker_runs_again_and_finishes(
    tmp_path: Path, settings: Any
) -> None:
    need_postgres()
    started = time.monotonic()
    event = make_event(teams=TEAMS, format="swiss")
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    media = tmp_path / "media"
    settings.MEDIA_ROOT = str(media)
    settings.REPORT_RUNNING_TIMEOUT = RUNNING_TIMEOUT

    with private_redis(tmp_path) as redis_server, sending_to(redis_server.url, settings):
        env = {"REPORT_RUNNING_TIMEOUT": str(RUNNING_TIMEOUT)}
        first = Worker(redis_server.url, media, tmp_path / "worker-1.log", **env)
        second = Worker(redis_server.url, media, tmp_path / "worker-2.log", **env)
        first.start()
        try:
            job = services.report_request(event=event, kind="blank_sheets", round_=round_)
            job.refresh_from_db()
            assert job.sent_at is not None, job.send_error

            # Kill the worker as soon as it has claimed the job and is rendering.
            deadline = time.monotonic() + 40
            while time.monotonic() < deadline:
                job.refresh_from_db()
                if job.status != JobStatus.QUEUED:
                    break
                time.sleep(0.02)
            assert job.status == JobStatus.RUNNING, f"{job.status}\n{first.tail()}"
            assert f":{first.pid}:" in job.claimed_by
            first.kill()
            job.refresh_from_db()
            assert job.status == JobStatus.RUNNING and job.file == "", "finished before the kill"
            assert not list(media.glob("reports/**/*.pdf"))

            # A new worker; the sweep takes the job back once the dead one's lease is out.
            second.start()
            assert job.lease_until is not None
            time.sleep(max(0.0, (job.lease_until - timezone.now()).total_seconds()) + 0.5)
            counts = services.report_sweep()
            assert counts["taken_back"] == 1 and counts["resent"] == 1, counts

            deadline = time.monotonic() + 45
            while time.monotonic() < deadline:
                job.refresh_from_db()
                if job.status in (JobStatus.DONE, JobStatus.FAILED):
                    break
                time.sleep(0.2)
            assert job.status == JobStatus.DONE, f"{job.status}: {job.error}\n{second.tail()}"
        finally:
            first.stop()
            second.stop()

    assert job.attempts == 2
    assert f":{second.pid}:" in job.claimed_by
    reader = PdfReader(io.BytesIO((media / job.file).read_bytes()))
    assert len(reader.pages) == job.pages and job.pages >= TEAMS // 2
    leftovers = [p.name for p in (media / job.file).parent.iterdir() if p.suffix == ".part"]
    assert not leftovers, f"half-written files left behind: {leftovers}"
    print(
        f"\nPDF of {job.pages} pages made in {job.render_ms} ms by the second worker; "
        f"test {time.monotonic() - started:.1f} s"
    )
