"""Redis stopped in the middle of an event: hands are still recorded through the API, a PDF
asked for meanwhile waits in PostgreSQL and the organiser's page says so; when Redis is back,
the reports sweep sends the job again and a real worker makes it.

A private redis-server on a free port (never the shared 6379) is the cache and the broker; the
worker is a subprocess on the test database (rows must be committed: ``transaction=True``).
"""

from __future__ import annotations

import io
import time
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from kaiser_club.roles import Role
from scoring.models import Game, Hand
from tests.factories import member
from tests.tournaments.helpers import generate, hand_json, make_event, win_for
from tournaments import services as events
from tournaments.choices import JobStatus
from tournaments.models import Pairing, ReportJob, Round
from tournaments.reports import services

from .private_redis import Worker, need_postgres, private_redis, sending_to

pytestmark = [pytest.mark.fault, pytest.mark.django_db(transaction=True)]


def wait_for(job: ReportJob, statuses: tuple[str, ...], seconds: float) -> ReportJob:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if job.status in statuses:
            break
        time.sleep(0.2)
    return job


def start_round(event: Any) -> None:
    events.round_start_unchecked(round_=Round.objects.get(event=event, number=1))


def test_hands_recorded_and_reports_wait_while_redis_is_down(
    tmp_path: Path, settings: Any, client: Any, api_client: Any
) -> None:
    need_postgres()
    started = time.monotonic()
    event = make_event(teams=4, format="swiss", verification=False)
    generate(event)  # eager, before Redis matters
    start_round(event)  # hands count once the round has started
    pairings = list(Pairing.objects.filter(event=event, game__isnull=False).select_related("home"))
    win_for(pairings[0], pairings[0].home)
    organiser = member(event.club, Role.ORGANISER)
    media = tmp_path / "media"
    settings.MEDIA_ROOT = str(media)

    with private_redis(tmp_path) as redis_server:
        settings.CACHES = {
            "default": {
                "BACKEND": "kaiser_club.cache.RedisCache",  # production's
                "LOCATION": redis_server.url,
            }
        }
        with sending_to(redis_server.url, settings):
            redis_server.stop()

            # Hands go in through the API while the cache and broker are away.
            api_client.force_authenticate(organiser)
            game = pairings[1].game
            assert game is not None
            before = time.monotonic()
            for number, side in enumerate(["ns", "ew", "ns"], start=1):
                answer = api_client.post(
                    f"/api/games/{game.id}/hands/",
                    {**hand_json(side), "number": number},
                    format="json",
                )
                assert answer.status_code == 201, answer.content
            recording = time.monotonic() - before
            assert Hand.objects.filter(game=game).count() == 3
            game.refresh_from_db()
            assert game.hand_count == 3

            # A PDF asked for now is a row in PostgreSQL, not lost, and not sent.
            client.force_login(organiser)
            answer = client.post(f"/events/{event.id}/reports/", {"kind": "standings"})
            assert answer.status_code == 302
            job = ReportJob.objects.get(event=event, kind="standings")
            assert job.status == JobStatus.QUEUED and job.sent_at is None
            assert job.send_error, "the failed send should be noted on the job"
            page = client.get(f"/events/{event.id}/reports/")
            assert page.status_code == 200
            assert "Waiting for the job runner" in page.content.decode()
            # The sweep cannot send it either, and says so.
            time.sleep(2.1)  # the sweep leaves jobs younger than 2 s to their first send
            assert services.report_sweep()["unsent"] == 1

            # Redis is back: a worker starts, the sweep sends the job again, the PDF is made.
            redis_server.start()
            worker = Worker(redis_server.url, media, tmp_path / "worker.log")
            worker.start()
            try:
                counts = services.report_sweep()
                assert counts["resent"] == 1, counts
                job = wait_for(job, (JobStatus.DONE, JobStatus.FAILED), 45)
                assert job.status == JobStatus.DONE, f"{job.status}: {job.error}\n{worker.tail()}"
            finally:
                worker.stop()
    reader = PdfReader(io.BytesIO((media / job.file).read_bytes()))
    assert len(reader.pages) >= 1
    assert "Team 1" in "\n".join(page.extract_text() or "" for page in reader.pages)
    assert Game.objects.get(id=game.id).hand_count == 3
    print(
        f"\nhands recorded with Redis down: 3 in {recording:.2f} s; "
        f"test {time.monotonic() - started:.1f} s"
    )


def test_a_hung_redis_delays_a_hand_and_a_report_request_by_seconds_not_forever(
    tmp_path: Path, settings: Any, client: Any, api_client: Any
) -> None:
    """Redis alive but not answering (SIGSTOP): without socket timeouts a send waits forever;
    with REDIS_SOCKET_TIMEOUT the request ends and the job waits in PostgreSQL."""
    event = make_event(teams=4, format="swiss", verification=False)
    generate(event)
    start_round(event)
    game = Pairing.objects.filter(event=event, game__isnull=False).first().game  # type: ignore[union-attr]
    assert game is not None
    organiser = member(event.club, Role.ORGANISER)
    settings.MEDIA_ROOT = str(tmp_path / "media")
    limit = settings.REDIS_SOCKET_TIMEOUT

    with private_redis(tmp_path) as redis_server:
        settings.CACHES = {
            "default": {
                "BACKEND": "kaiser_club.cache.RedisCache",  # production's
                "LOCATION": redis_server.url,
                "OPTIONS": settings.REDIS_CACHE_OPTIONS,
            }
        }
        with sending_to(redis_server.url, settings):
            redis_server.pause()
            try:
                api_client.force_authenticate(organiser)
                before = time.monotonic()
                answer = api_client.post(
                    f"/api/games/{game.id}/hands/", {**hand_json("ns"), "number": 1}, format="json"
                )
                hand_seconds = time.monotonic() - before
                assert answer.status_code == 201, answer.content
                client.force_login(organiser)
                before = time.monotonic()
                answer = client.post(f"/events/{event.id}/reports/", {"kind": "standings"})
                report_seconds = time.monotonic() - before
                assert answer.status_code == 302
            finally:
                redis_server.resume()
    job = ReportJob.objects.get(event=event, kind="standings")
    assert job.status == JobStatus.QUEUED and job.sent_at is None and job.send_error
    assert Hand.objects.filter(game=game).count() == 1
    # Bounded by the socket timeouts (a few cache calls, one send), far from forever.
    assert hand_seconds < 10 * settings.REDIS_CACHE_OPTIONS["socket_timeout"] + 5
    assert report_seconds < 2 * limit + 5
    print(f"\nhung Redis: hand in {hand_seconds:.1f} s, report request in {report_seconds:.1f} s")
