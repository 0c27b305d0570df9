"""Asking for a PDF, making it, and keeping the jobs moving.

A request is first a ``ReportJob`` row; the Celery message that follows (sent when the
transaction commits) only carries its id. Everything here is safe to repeat:

- ``report_send`` hands a job to the broker; when the broker is down the job simply stays
  queued (``sent_at`` empty, ``send_error`` set) and the page says it waits for the job runner.
- ``report_run`` claims the job with a conditional UPDATE (queued, or running with an expired
  lease, or running for a worker process on this host that no longer exists), renders it, writes
  the file to a temporary name and renames it over the subject's file, then marks the job done
  only if it still holds the claim. A second delivery of the same message finds the job taken or
  finished and does nothing.
- ``report_sweep`` (beat) re-sends queued jobs nobody started and takes back running jobs whose
  lease expired (a worker that died), failing them after ``REPORT_MAX_ATTEMPTS`` tries.
"""

from __future__ import annotations

import logging
import os
import socket
import tempfile
import threading
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, connections, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.text import slugify

from kaiser_club import broker
from kaiser_club.actors import Actor
from kaiser_club.errors import Conflict, InvalidInput, KaiserError
from kaiser_club.refusals import role_refused
from kaiser_club.sentences import N_, Said
from scoring.models import Game

from ..choices import JobStatus
from ..models import Event, Pairing, ReportJob, ReportKind, Round, Table
from ..permissions import EventAction
from ..services.locks import lock_event
from . import render

log = logging.getLogger(__name__)

ACTIVE = (JobStatus.QUEUED, JobStatus.RUNNING)


def running_timeout() -> timedelta:
    """How long a claimed job may run before the sweep takes it back (its worker died)."""
    return timedelta(seconds=getattr(settings, "REPORT_RUNNING_TIMEOUT", 120))


def stale_after() -> timedelta:
    """How long a queued job may wait unstarted before the sweep sends it again."""
    return timedelta(seconds=getattr(settings, "REPORT_RESEND_AFTER", 60))


def max_attempts() -> int:
    return int(getattr(settings, "REPORT_MAX_ATTEMPTS", 3))


def media_root() -> Path:
    return Path(settings.MEDIA_ROOT)


# --- Asking -------------------------------------------------------------------------------


def subject_for(
    *,
    event: Event,
    kind: ReportKind,
    round_: Round | None = None,
    game: Game | None = None,
    table: Table | None = None,
) -> str:
    """What the report is of, as a short key: one file per (event, kind, subject). Refuses a
    request that lacks what its kind needs, or names something of another event."""
    if round_ is not None and round_.event_id != event.id:
        raise InvalidInput(
            N_("%(round_)s is not a round of %(name)s.", round_=round_.said, name=event.name)
        )
    if table is not None and table.event_id != event.id:
        raise InvalidInput(
            N_("Table %(number)s is not a table of %(name)s.", number=table.number, name=event.name)
        )
    if game is not None and not Pairing.objects.filter(event=event, game=game).exists():
        raise InvalidInput(
            N_("Game %(id)s is not a game of %(name)s.", id=game.id, name=event.name)
        )
    if kind in (ReportKind.STANDINGS, ReportKind.BRACKET):
        if kind is ReportKind.BRACKET and not (
            event.is_bracket
            or Pairing.objects.filter(event=event, match_number__isnull=False).exists()
        ):
            raise InvalidInput(
                N_("%(name)s has no bracket: it is not an elimination event.", name=event.name)
            )
        return ""
    if kind is ReportKind.ROUND_TABLES:
        if round_ is None:
            raise InvalidInput(N_("Choose the round whose tables to print."))
        return f"round-{round_.number}"
    if kind is ReportKind.SCORE_SHEET:
        if game is None:
            raise InvalidInput(N_("Choose the game whose score sheet to print."))
        return f"game-{game.id}"
    if kind is ReportKind.BLANK_SHEETS:
        if game is not None:
            return f"game-{game.id}"
        if round_ is not None:
            return f"round-{round_.number}"
        raise InvalidInput(N_("Choose a game (or a whole round) to print blank score sheets for."))
    return f"table-{table.number}" if table is not None else "all"


@transaction.atomic
def report_request(
    *,
    event: Event,
    kind: ReportKind | str,
    round_: Round | None = None,
    game: Game | None = None,
    table: Table | None = None,
    by: User | None = None,
    base_url: str = "",
    language: str = "",
) -> ReportJob:
    """Asks for a PDF: a job row now, the Celery task once this transaction commits. The same
    report already queued or running is returned rather than asked for twice (the event's lock
    orders requests; the database's one-active-job-per-report constraint holds without it)."""
    try:
        kind = ReportKind(kind)
    except ValueError:
        raise InvalidInput(N_("There is no report called %(kind)r.", kind=kind)) from None
    subject = subject_for(event=event, kind=kind, round_=round_, game=game, table=table)
    lock_event(event.id)  # one request at a time
    waiting = _active_job(event_id=event.id, kind=kind, subject=subject)
    if waiting is not None:
        return _waiting_job(waiting)
    try:
        with transaction.atomic():
            job = ReportJob.objects.create(
                event=event,
                kind=kind,
                subject=subject,
                round=round_,
                game=game,
                table=table,
                requested_by=by if getattr(by, "is_authenticated", False) else None,
                base_url=base_url or getattr(settings, "REPORTS_BASE_URL", ""),
                language=language,
            )
    except IntegrityError:  # reportjob_one_active_per_subject: the same report was asked first
        return _first_job(event_id=event.id, kind=kind, subject=subject)
    transaction.on_commit(lambda: report_send(job_id=job.id))
    return job


def _active_job(*, event_id: int, kind: str, subject: str) -> ReportJob | None:
    """The job of this report that is queued or running: there is at most one."""
    return ReportJob.objects.filter(
        event_id=event_id, kind=kind, subject=subject, status__in=ACTIVE
    ).first()


def _waiting_job(waiting: ReportJob) -> ReportJob:
    """The job already under way, sent again if it was asked for while the broker was away."""
    if waiting_for_runner(waiting):
        transaction.on_commit(lambda: report_send(job_id=waiting.id))
    return waiting


def _first_job(*, event_id: int, kind: str, subject: str) -> ReportJob:
    """The job whose insert (or requeue) got in first, for a writer the constraint refused."""
    first = _active_job(event_id=event_id, kind=kind, subject=subject)
    if first is None:  # it was made and finished in the meantime
        raise Conflict(N_("The same report was asked for at the same moment; reload the page."))
    return _waiting_job(first)


@transaction.atomic
def report_rerun(*, job: ReportJob, by: User | None = None) -> ReportJob:
    """Runs a failed job again (and sends a queued one again, in case its message was lost).
    If the same report has been asked for again since it failed, that job is the one: it is
    returned and this one stays failed, so one job at a time makes a report."""
    lock_event(job.event_id)  # the event before the job, as report_request orders them
    job = ReportJob.objects.select_for_update().get(id=job.id)
    if job.status == JobStatus.RUNNING:
        raise Conflict(N_("This report is being made right now; wait for it to finish."))
    if job.status == JobStatus.DONE:
        raise Conflict(N_("This report is done. Ask for a new one to print the latest results."))
    if job.status == JobStatus.FAILED:
        waiting = _active_job(event_id=job.event_id, kind=job.kind, subject=job.subject)
        if waiting is not None:
            return _waiting_job(waiting)
        job.status, job.error, job.error_said, job.attempts = JobStatus.QUEUED, "", None, 0
        job.started_at = job.finished_at = job.lease_until = None
        job.claimed_by = ""
        try:
            with transaction.atomic():
                job.save(
                    update_fields=[
                        "status",
                        "error",
                        "error_said",
                        "attempts",
                        "started_at",
                        "finished_at",
                        "lease_until",
                        "claimed_by",
                    ]
                )
        except IntegrityError:  # reportjob_one_active_per_subject: a new request was first
            return _first_job(event_id=job.event_id, kind=job.kind, subject=job.subject)
    transaction.on_commit(lambda: report_send(job_id=job.id))
    return job


def report_send(*, job_id: int, ask_anyway: bool = False) -> bool:
    """Hands the job to the broker. False (and the job stays queued, for the sweep) when the
    broker cannot be reached: asking for a report never fails because Redis is down. Within
    a few seconds of a failed send a request does not ask the broker again; the sweep does
    (``ask_anyway``)."""
    try:  # eager mode (no broker) lets the task's errors through: a bug, not an outage
        broker.send("reports.render", job_id, ask_anyway=ask_anyway)
    except broker.Unreachable as exc:  # warned once per outage (kaiser_club/outages.py)
        log.info("Report job %s not sent: %s", job_id, exc)
        ReportJob.objects.filter(id=job_id).update(send_error=str(exc)[:300])
        return False
    ReportJob.objects.filter(id=job_id).update(sent_at=timezone.now(), send_error="")
    return True


def waiting_for_runner(job: ReportJob, now: Any = None) -> bool:
    """True when a queued job is not being picked up: never reached the broker, or sent a while
    ago and still not started (no worker, or the broker lost it). The sweep will send it again."""
    if job.status != JobStatus.QUEUED:
        return False
    now = now or timezone.now()
    if job.sent_at is None:
        return bool(job.send_error) or now - job.created_at > timedelta(seconds=5)
    return now - job.sent_at > timedelta(seconds=15)


# --- Running ------------------------------------------------------------------------------


def _worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _process_gone(claimed_by: str) -> bool:
    """Whether the claim belongs to a process of this host that no longer runs (a killed
    worker child); claims of other hosts wait for their lease to expire."""
    host, _, rest = claimed_by.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def claim(job_id: int) -> ReportJob | None:
    """Takes the job for this process, or None if someone else has it or it is finished."""
    now = timezone.now()
    token = _worker_id()
    taken = {
        "status": JobStatus.RUNNING,
        "claimed_by": token,
        "started_at": now,
        "lease_until": now + running_timeout(),
        "attempts": F("attempts") + 1,
        "error": "",
        "error_said": None,
    }
    claimable = Q(status=JobStatus.QUEUED) | Q(
        status=JobStatus.RUNNING, lease_until__lt=now, attempts__lt=max_attempts()
    )
    if not ReportJob.objects.filter(claimable, id=job_id).update(**taken):
        current = ReportJob.objects.filter(id=job_id).values("status", "claimed_by").first()
        if (
            current is None
            or current["status"] != JobStatus.RUNNING
            or not _process_gone(current["claimed_by"])
        ):
            return None
        held = ReportJob.objects.filter(
            id=job_id, status=JobStatus.RUNNING, claimed_by=current["claimed_by"]
        )
        if not held.update(**taken):
            return None
    return ReportJob.objects.select_related("event", "round", "table").get(id=job_id)


def file_name(job: ReportJob) -> str:
    """The subject's file, relative to MEDIA_ROOT: a newer report of the same kind and
    subject replaces it."""
    tail = f"-{job.subject}" if job.subject else ""
    return f"reports/event-{job.event_id}/{job.kind}{tail}.pdf"


def download_name(job: ReportJob) -> str:
    tail = f"-{job.subject}" if job.subject else ""
    return f"{slugify(job.event.name) or 'event'}-{job.kind.replace('_', '-')}{tail}.pdf"


def write_atomically(relative: str, content: bytes) -> Path:
    """Writes ``content`` to a temporary file beside ``relative`` and renames it into place, so
    a reader sees the old file or the new one, never half of one."""
    target = media_root() / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(content)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return target


class LeaseKeeper(threading.Thread):
    """Extends a running job's lease every quarter of the timeout while this process renders
    it, so a long PDF (256 blank sheets) is never taken back from a live worker, and a dead
    worker's job is taken back one timeout after its last beat."""

    def __init__(self, job_id: int, token: str) -> None:
        super().__init__(name=f"report-lease-{job_id}", daemon=True)
        self.job_id, self.token = job_id, token
        self.done = threading.Event()

    def run(self) -> None:
        every = running_timeout().total_seconds() / 4
        try:
            while not self.done.wait(every):
                try:
                    ReportJob.objects.filter(
                        id=self.job_id, status=JobStatus.RUNNING, claimed_by=self.token
                    ).update(lease_until=timezone.now() + running_timeout())
                except Exception:  # the database away for a moment: the next beat tries again
                    log.warning("Could not extend the lease of report job %s", self.job_id)
                    connections.close_all()
        finally:
            connections.close_all()  # this thread's own connection

    def __enter__(self) -> LeaseKeeper:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.done.set()
        self.join(timeout=10)


def report_run(*, job_id: int) -> ReportJob | None:
    """Makes the job's PDF once. Returns the job as it ends, or None if there is no such job."""
    job = claim(job_id)
    if job is None:
        return ReportJob.objects.filter(id=job_id).first()
    token = job.claimed_by
    try:
        with LeaseKeeper(job.id, token):
            html = render.html_for(job)
            pdf = render.pdf_from_html(html)
            relative = file_name(job)
            write_atomically(relative, pdf.content)
    except KaiserError as exc:
        return _fail(job, token, exc.text)
    except Exception as exc:
        log.exception("Report job %s failed", job_id)
        return _fail(
            job,
            token,
            N_(
                "The PDF could not be made (%(kind)s: %(exc)s).",
                kind=type(exc).__name__,
                exc=str(exc),
            ),
        )
    finished = ReportJob.objects.filter(id=job.id, status=JobStatus.RUNNING, claimed_by=token)
    done = finished.update(
        status=JobStatus.DONE,
        file=relative,
        pages=pdf.pages,
        render_ms=pdf.milliseconds,
        finished_at=timezone.now(),
        lease_until=None,
        error="",
        error_said=None,
        replaced=False,
    )
    if done:
        ReportJob.objects.filter(
            event_id=job.event_id,
            kind=job.kind,
            subject=job.subject,
            status=JobStatus.DONE,
            id__lt=job.id,
        ).update(replaced=True)
    job.refresh_from_db()
    return job


def _fail(job: ReportJob, token: str, message: Said) -> ReportJob:
    """The job failed; why is kept as a sentence, read in the reader's language (not the
    worker's)."""
    ReportJob.objects.filter(id=job.id, status=JobStatus.RUNNING, claimed_by=token).update(
        status=JobStatus.FAILED,
        **job.failed_because(message),
        finished_at=timezone.now(),
        lease_until=None,
    )
    job.refresh_from_db()
    return job


# --- The sweep ----------------------------------------------------------------------------


def report_sweep(*, now: Any = None) -> dict[str, int]:
    """Beat: sends again the queued jobs nobody started, takes back running jobs whose lease
    expired (their worker died) and fails those tried too often. Stops sending at the first
    broker error (the next sweep tries again). Returns counts, for the log and the tests."""
    now = now or timezone.now()
    counts = {"resent": 0, "taken_back": 0, "failed": 0, "unsent": 0}
    with transaction.atomic():
        expired = list(
            ReportJob.objects.select_for_update(skip_locked=True).filter(
                status=JobStatus.RUNNING, lease_until__lt=now
            )
        )
        for job in expired:
            if job.attempts >= max_attempts():
                job.status, job.finished_at = JobStatus.FAILED, now
                why = job.failed_because(
                    N_(
                        "The PDF was started %(attempts)s times and its worker stopped "
                        "each time before it finished. Press Rerun to try again.",
                        attempts=job.attempts,
                    )
                )
                job.error, job.error_said = why["error"], why["error_said"]
                counts["failed"] += 1
            else:
                job.status, job.sent_at = JobStatus.QUEUED, None
                counts["taken_back"] += 1
            job.lease_until, job.claimed_by = None, ""
        ReportJob.objects.bulk_update(
            expired,
            [
                "status",
                "finished_at",
                "error",
                "error_said",
                "sent_at",
                "lease_until",
                "claimed_by",
            ],
        )
    taken_back = [job.id for job in expired if job.status == JobStatus.QUEUED]
    never_sent = Q(sent_at__isnull=True, created_at__lt=now - timedelta(seconds=2))
    stale = ReportJob.objects.filter(status=JobStatus.QUEUED).filter(
        never_sent | Q(sent_at__lt=now - stale_after())
    )
    to_send = taken_back + [
        job_id
        for job_id in stale.order_by("created_at").values_list("id", flat=True)[:500]
        if job_id not in taken_back
    ]
    for index, job_id in enumerate(to_send):
        if not report_send(job_id=job_id, ask_anyway=True):
            counts["unsent"] = len(to_send) - index
            break
        counts["resent"] += 1
    return counts


def _may_print(actor: Actor, event: Event) -> None:
    if not actor.has_role(club_id=event.club_id, at_least=EventAction.MANAGE.value):
        raise role_refused(event.club)


def report_request_by(*, actor: Actor, event: Event, **asked: Any) -> ReportJob:
    """A PDF of an event its club's organisers run (staff anywhere)."""
    _may_print(actor, event)
    return report_request(event=event, by=actor.by, **asked)


def report_rerun_by(*, actor: Actor, job: ReportJob) -> ReportJob:
    _may_print(actor, job.event)
    return report_rerun(job=job, by=actor.by)
