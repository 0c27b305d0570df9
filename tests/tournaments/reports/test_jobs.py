"""The job around each PDF: a row first, claimed once, written atomically, replaced by a newer
one, rerun after a failure, re-sent by the sweep, and never lost when the broker is down."""

from __future__ import annotations

import subprocess
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import TestCase
from django.utils import timezone
from kombu.exceptions import OperationalError

from kaiser_club.errors import Conflict, InvalidInput
from tests.tournaments.helpers import make_event
from tournaments.choices import JobStatus
from tournaments.models import ReportJob
from tournaments.reports import render, services
from tournaments.reports.tasks import render_report_task

from .helpers import ask, pdf_text, swiss_after_round_one

pytestmark = pytest.mark.django_db


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the PDFs actually rendered (by job id)."""
    made: list[int] = []
    real = render.html_for

    def counting(job: ReportJob) -> str:
        made.append(job.id)
        return real(job)

    monkeypatch.setattr(render, "html_for", counting)
    return made


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Records the messages handed to the broker instead of running them."""
    messages: list[int] = []

    def fake_send(args: tuple[int], **kwargs: Any) -> None:
        messages.append(args[0])

    monkeypatch.setattr(render_report_task, "apply_async", fake_send)
    return messages


@pytest.fixture
def broker_down(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """Not eager, and every send fails as kombu does when Redis refuses the connection."""
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(render_report_task, "apply_async", refuse)


def test_a_request_is_a_row_first_and_the_task_runs_on_commit(sent: list[int]) -> None:
    event = make_event(teams=2)
    with TestCase.captureOnCommitCallbacks(execute=False) as callbacks:
        job = services.report_request(event=event, kind="standings")
    assert job.status == JobStatus.QUEUED and sent == []
    assert len(callbacks) == 1
    callbacks[0]()
    assert sent == [job.id]
    job.refresh_from_db()
    assert job.sent_at is not None and job.send_error == ""


def test_a_done_job_has_its_file_under_media_root(media: Path, renders: list[int]) -> None:
    event, _ = swiss_after_round_one(2)
    job = ask(event, "standings")
    assert job.status == JobStatus.DONE
    assert job.attempts == 1
    assert job.file == f"reports/event-{event.id}/standings.pdf"
    assert (media / job.file).read_bytes().startswith(b"%PDF")
    assert job.pages == 1 and job.render_ms is not None
    assert renders == [job.id]
    assert not list((media / job.file).parent.glob("*.part"))


def test_asking_again_while_queued_returns_the_same_job(sent: list[int]) -> None:
    event = make_event(teams=2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        first = services.report_request(event=event, kind="standings")
    with TestCase.captureOnCommitCallbacks(execute=True):
        second = services.report_request(event=event, kind="standings")
    assert second.id == first.id
    assert ReportJob.objects.count() == 1


def test_a_request_missing_its_subject_is_refused_with_a_sentence() -> None:
    event = make_event(teams=2)
    with pytest.raises(InvalidInput, match="Choose the round"):
        services.report_request(event=event, kind="round_tables")
    with pytest.raises(InvalidInput, match="no bracket"):
        services.report_request(event=event, kind="bracket")
    with pytest.raises(InvalidInput, match="no report called"):
        services.report_request(event=event, kind="menu")
    other = make_event(teams=2)
    from tests.tournaments.helpers import generate

    generate(other)
    with pytest.raises(InvalidInput, match="not a round of"):
        services.report_request(event=event, kind="round_tables", round_=other.round_set.get())
    assert ReportJob.objects.count() == 0


def test_delivering_the_task_twice_renders_once(renders: list[int], sent: list[int]) -> None:
    event, _ = swiss_after_round_one(2)
    job = ask(event, "standings")  # sent (recorded), not run
    render_report_task.run(job.id)
    render_report_task.run(job.id)  # the broker delivers it again
    job.refresh_from_db()
    assert job.status == JobStatus.DONE and job.attempts == 1
    assert renders == [job.id]


def test_a_job_held_by_a_live_worker_is_left_alone(renders: list[int], sent: list[int]) -> None:
    event, _ = swiss_after_round_one(2)
    job = ask(event, "standings")
    ReportJob.objects.filter(id=job.id).update(
        status=JobStatus.RUNNING,
        claimed_by="another-host:1234:abcd",
        lease_until=timezone.now() + timedelta(minutes=5),
        attempts=1,
    )
    services.report_run(job_id=job.id)
    job.refresh_from_db()
    assert job.status == JobStatus.RUNNING and renders == []


def test_a_job_whose_worker_process_died_is_taken_over_at_once(
    renders: list[int], sent: list[int]
) -> None:
    """A redelivered message (reject_on_worker_lost) finds the job held by a process of this
    host that no longer exists: it takes the job without waiting for the lease to expire."""
    import socket

    event, _ = swiss_after_round_one(2)
    job = ask(event, "standings")
    gone = subprocess.Popen(["true"])
    gone.wait()
    ReportJob.objects.filter(id=job.id).update(
        status=JobStatus.RUNNING,
        claimed_by=f"{socket.gethostname()}:{gone.pid}:dead",
        lease_until=timezone.now() + timedelta(minutes=5),
        attempts=1,
    )
    services.report_run(job_id=job.id)
    job.refresh_from_db()
    assert job.status == JobStatus.DONE and job.attempts == 2
    assert renders == [job.id]


@pytest.mark.django_db(transaction=True)
def test_a_long_render_keeps_extending_its_lease(
    monkeypatch: pytest.MonkeyPatch, settings: Any, sent: list[int]
) -> None:
    """While a worker renders, its lease moves on (a beat every quarter of the timeout), so
    the sweep never takes a long PDF from a live worker."""
    import time

    settings.REPORT_RUNNING_TIMEOUT = 0.4  # a beat every 0.1 s
    event, _ = swiss_after_round_one(2)
    job = services.report_request(event=event, kind="standings")
    real = render.html_for
    leases: list[Any] = []

    def slow(job: ReportJob) -> str:
        # Renders until the lease has moved twice (a busy machine may delay a beat; the
        # generous end only stops a broken heartbeat from hanging the test).
        give_up = time.monotonic() + 30
        while len(set(leases)) < 3 and time.monotonic() < give_up:
            time.sleep(0.05)
            leases.append(ReportJob.objects.get(id=job.id).lease_until)
        return real(job)

    monkeypatch.setattr(render, "html_for", slow)
    services.report_run(job_id=job.id)
    job.refresh_from_db()
    assert job.status == JobStatus.DONE
    assert len(set(leases)) >= 3, leases  # extended while it ran


def test_a_failed_job_shows_its_error_and_a_rerun_finishes_it(
    monkeypatch: pytest.MonkeyPatch, media: Path
) -> None:
    event, _ = swiss_after_round_one(2)
    real = render.pdf_from_html

    def broken(html: str) -> render.Pdf:
        raise RuntimeError("the printer caught fire")

    monkeypatch.setattr(render, "pdf_from_html", broken)
    job = ask(event, "standings")
    assert job.status == JobStatus.FAILED
    assert job.error == "The PDF could not be made (RuntimeError: the printer caught fire)."
    assert not (media / services.file_name(job)).exists()

    monkeypatch.setattr(render, "pdf_from_html", real)
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.report_rerun(job=job)
    job.refresh_from_db()
    assert job.status == JobStatus.DONE and job.error == "" and job.attempts == 1
    assert event.name in pdf_text(job)


def test_rerun_is_refused_for_a_done_job() -> None:
    event, _ = swiss_after_round_one(2)
    job = ask(event, "standings")
    with pytest.raises(Conflict, match="Ask for a new one"):
        services.report_rerun(job=job)


def test_rerunning_a_failed_job_asked_for_again_meanwhile_gives_the_new_job(
    sent: list[int],
) -> None:
    """One job at a time makes a report: the failed one stays failed, the one under way is it."""
    event = make_event(teams=2)
    failed = services.report_request(event=event, kind="standings")
    ReportJob.objects.filter(id=failed.id).update(status=JobStatus.FAILED, error="Broken.")
    again = services.report_request(event=event, kind="standings")
    assert again.id != failed.id
    assert services.report_rerun(job=failed).id == again.id
    assert ReportJob.objects.get(id=failed.id).status == JobStatus.FAILED
    assert ReportJob.objects.filter(status__in=services.ACTIVE).count() == 1


def test_a_newer_report_replaces_the_older_file(monkeypatch: pytest.MonkeyPatch) -> None:
    event, _ = swiss_after_round_one(2)
    old = ask(event, "standings")
    old_bytes = (services.media_root() / old.file).read_bytes()
    event.name = "Renamed Open"
    event.save(update_fields=["name"])
    new = ask(event, "standings")
    old.refresh_from_db()
    assert new.id != old.id and new.file == old.file
    assert old.replaced and not new.replaced
    assert "Renamed Open" in pdf_text(new)
    assert (services.media_root() / new.file).read_bytes() != old_bytes


def test_a_failed_write_leaves_the_previous_file_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    event, _ = swiss_after_round_one(2)
    old = ask(event, "standings")
    before = (services.media_root() / old.file).read_bytes()

    def fail_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(services.os, "fsync", fail_fsync)
    new = ask(event, "standings")
    assert new.status == JobStatus.FAILED and "No space left" in new.error
    folder = services.media_root() / old.file
    assert folder.read_bytes() == before
    assert not list(folder.parent.glob("*.part"))


def test_with_the_broker_down_the_job_waits_in_postgresql(broker_down: None) -> None:
    event, _ = swiss_after_round_one(2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        job = services.report_request(event=event, kind="standings")
    job.refresh_from_db()
    assert job.status == JobStatus.QUEUED and job.sent_at is None
    assert "Connection refused" in job.send_error
    assert services.waiting_for_runner(job)


def test_asking_again_for_a_waiting_job_sends_it_again(
    monkeypatch: pytest.MonkeyPatch, settings: Any, broker_down: None
) -> None:
    event, _ = swiss_after_round_one(2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        job = services.report_request(event=event, kind="standings")
    monkeypatch.undo()  # Redis is back
    settings.CELERY_TASK_ALWAYS_EAGER = True
    with TestCase.captureOnCommitCallbacks(execute=True):
        again = services.report_request(event=event, kind="standings")
    assert again.id == job.id
    job.refresh_from_db()
    assert job.status == JobStatus.DONE and job.send_error == ""


def test_the_sweep_sends_the_waiting_job_when_the_broker_is_back(
    monkeypatch: pytest.MonkeyPatch, settings: Any, broker_down: None
) -> None:
    event, _ = swiss_after_round_one(2)
    with TestCase.captureOnCommitCallbacks(execute=True):
        job = services.report_request(event=event, kind="standings")
    later = timezone.now() + timedelta(seconds=10)
    assert services.report_sweep(now=later) == {
        "resent": 0,
        "taken_back": 0,
        "failed": 0,
        "unsent": 1,
    }
    monkeypatch.undo()  # Redis is back (and tests run the task eagerly again)
    settings.CELERY_TASK_ALWAYS_EAGER = True
    assert services.report_sweep(now=later)["resent"] == 1
    job.refresh_from_db()
    assert job.status == JobStatus.DONE


def test_the_sweep_resends_only_stale_queued_jobs(sent: list[int]) -> None:
    event = make_event(teams=2)
    now = timezone.now()
    stale = ReportJob.objects.create(
        event=event, kind="standings", sent_at=now - timedelta(minutes=5)
    )
    fresh = ReportJob.objects.create(event=event, kind="bracket", sent_at=now)
    never = ReportJob.objects.create(event=event, kind="table_cards", subject="all")
    ReportJob.objects.filter(id__in=[stale.id, fresh.id, never.id]).update(
        created_at=now - timedelta(minutes=10)
    )
    counts = services.report_sweep(now=now)
    assert counts["resent"] == 2
    assert sorted(sent) == sorted([stale.id, never.id])
    stale.refresh_from_db()
    assert stale.sent_at is not None and stale.sent_at >= now


def test_the_sweep_takes_back_a_job_whose_worker_died(sent: list[int], renders: list[int]) -> None:
    event, _ = swiss_after_round_one(2)
    now = timezone.now()
    job = ReportJob.objects.create(
        event=event,
        kind="standings",
        status=JobStatus.RUNNING,
        attempts=1,
        claimed_by="gone-host:99:x",
        started_at=now - timedelta(minutes=10),
        lease_until=now - timedelta(minutes=5),
        sent_at=now - timedelta(minutes=10),
    )
    counts = services.report_sweep(now=now)
    assert counts == {"resent": 1, "taken_back": 1, "failed": 0, "unsent": 0}
    assert sent == [job.id]
    job.refresh_from_db()
    assert job.status == JobStatus.QUEUED and job.claimed_by == ""
    render_report_task.run(job.id)  # the re-sent message arrives
    job.refresh_from_db()
    assert job.status == JobStatus.DONE and job.attempts == 2
    assert renders == [job.id]


def test_the_sweep_fails_a_job_that_keeps_killing_its_worker(sent: list[int]) -> None:
    event = make_event(teams=2)
    now = timezone.now()
    job = ReportJob.objects.create(
        event=event,
        kind="standings",
        status=JobStatus.RUNNING,
        attempts=3,
        lease_until=now - timedelta(seconds=1),
    )
    assert services.report_sweep(now=now)["failed"] == 1
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED
    assert job.error.startswith("The PDF was started 3 times")
    assert sent == []


def test_a_job_whose_report_cannot_be_made_fails_with_a_sentence() -> None:
    event = make_event(teams=2)  # Swiss: no bracket (a job row made by hand, past the checks)
    made = ReportJob.objects.create(event=event, kind="bracket")
    services.report_run(job_id=made.id)
    made.refresh_from_db()
    assert made.status == JobStatus.FAILED
    assert made.error == "This event has no bracket yet: generate it first."
