"""The organiser's reports page: ask for a PDF, watch its job, download it, rerun a failed one.

Thin views: find the event the user may manage (404 if they cannot see it, 403 if their role
is too low), call one service, redirect back. The file is served here, after that check, never
from a public media URL. Nothing on these pages talks to the broker except through
``report_send``, which never raises when Redis is down: the page says the job is waiting.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from kaiser_club.actors import Actor
from kaiser_club.errors import NotAllowed, NotFound
from kaiser_club.page_errors import refusal_shown
from kaiser_club.request_limits import whole_number_text
from scoring.models import Game

from ..choices import JobStatus
from ..models import Event, ReportJob, ReportKind, Round, Table
from ..naming import round_name
from ..permissions import EventAction
from ..selectors import event_for
from . import selectors, services

View = Callable[..., HttpResponseBase]


def organiser_event(view: View) -> View:
    """Signed in, and an organiser (or more) of the event's club: the event is passed on."""

    @login_required
    @wraps(view)
    def wrapped(request: HttpRequest, event_id: int, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            event = event_for(user=request.user, event_id=event_id, action=EventAction.MANAGE)
        except NotFound as exc:
            raise Http404(exc.message) from None
        except NotAllowed as exc:
            raise PermissionDenied(exc.message) from None
        return view(request, event, *args, **kwargs)

    return wrapped


def job_rows(jobs: list[ReportJob], event: Event | None = None) -> list[dict[str, Any]]:
    """Each job with its subject in words ("Round 2 · Table 3 · Les As against Les Rois", not
    "Game 33"): the games' names in one query for the whole list."""
    now = timezone.now()
    games: dict[int, str] = {}
    if event is not None:
        for job in jobs:
            job.event = event
        games = selectors.game_labels(
            event=event, game_ids=[j.game_id for j in jobs if j.game_id is not None]
        )
    return [
        {
            "job": job,
            "what": games.get(job.game_id or 0) or subject_label(job),
            "waiting": services.waiting_for_runner(job, now),
            "active": job.status in services.ACTIVE,
        }
        for job in jobs
    ]


def subject_label(job: ReportJob) -> str:
    name, _sep, number = job.subject.partition("-")
    if name == "round" and job.round is not None:
        return round_name(job.round, job.event)
    if name == "table":
        return f"{_('Table')} {number}"
    if name == "game":
        return f"{_('Game')} {number}"
    if name == "all":
        return _("all tables")
    return ""


def _jobs_context(event: Event) -> dict[str, Any]:
    rows = job_rows(list(selectors.jobs_of(event=event)), event)
    return {"event": event, "rows": rows, "polling": any(r["active"] for r in rows)}


@never_cache
@require_http_methods(["GET", "POST"])
@organiser_event
def reports_page(request: HttpRequest, event: Event) -> HttpResponse:
    if request.method == "POST":
        _ask(request, event)
        return redirect("reports:page", event_id=event.id)
    context = {**_jobs_context(event), **selectors.choices_of(event=event), "kinds": ReportKind}
    return render(request, "reports/organiser_page.html", context)


def _pick(request: HttpRequest, model: type[Round] | type[Table], event: Event, field: str) -> Any:
    """The event's round or table chosen in the form by id, or None when none was chosen."""
    raw = request.POST.get(field, "").strip()
    if not raw:
        return None
    number = whole_number_text(raw)
    row = model.objects.filter(event=event, id=number).first() if number is not None else None
    if row is None:
        raise NotFound(_("That is not part of this event; reload the page and choose again."))
    return row


def _ask(request: HttpRequest, event: Event) -> None:
    with refusal_shown(request) as refused:
        job = _requested(request, event)
    if refused:
        return
    messages.success(
        request,
        _("%(what)s: asked for; it appears below when ready.") % {"what": job.get_kind_display()},
    )


def _requested(request: HttpRequest, event: Event) -> ReportJob:
    """The report the form asks for, asked of the reports service."""
    round_ = _pick(request, Round, event, "round")
    table = _pick(request, Table, event, "table")
    game = None
    raw_game = request.POST.get("game", "").strip()
    if raw_game:
        # Among the event's own games only: a game of another event (another club's) is
        # answered as a game that does not exist, without its id or its event's name.
        number = whole_number_text(raw_game)
        found = Game.objects.filter(pairing__event=event, id=number) if number else None
        game = found.first() if found is not None else None
        if game is None:
            raise NotFound(_("That game is not part of this event."))
    kind = request.POST.get("kind", "")
    if kind == ReportKind.BLANK_SHEETS and game is not None:
        round_ = None  # one sheet for the game chosen, not the whole round
    job = services.report_request_by(
        actor=Actor.of(request.user),
        event=event,
        kind=kind,
        round_=round_ if kind in (ReportKind.ROUND_TABLES, ReportKind.BLANK_SHEETS) else None,
        game=game if kind in (ReportKind.SCORE_SHEET, ReportKind.BLANK_SHEETS) else None,
        table=table if kind == ReportKind.TABLE_CARDS else None,
        base_url=request.build_absolute_uri("/"),
        language=translation.get_language() or "",
    )
    return job


@never_cache
@require_GET
@organiser_event
def jobs_partial(request: HttpRequest, event: Event) -> HttpResponse:
    """The job list alone, for htmx polling while a job is under way."""
    return render(request, "reports/_jobs.html", _jobs_context(event))


@require_POST
@organiser_event
def rerun(request: HttpRequest, event: Event, job_id: int) -> HttpResponse:
    try:
        job = selectors.job_of(event=event, job_id=job_id)
    except NotFound as exc:
        raise Http404(exc.message) from None
    with refusal_shown(request):
        services.report_rerun_by(actor=Actor.of(request.user), job=job)
    if request.headers.get("HX-Request"):
        return render(request, "reports/_jobs.html", _jobs_context(event))
    return redirect("reports:page", event_id=event.id)


@never_cache
@require_GET
@organiser_event
def download(request: HttpRequest, event: Event, job_id: int) -> FileResponse:
    try:
        job = selectors.job_of(event=event, job_id=job_id)
    except NotFound as exc:
        raise Http404(exc.message) from None
    if job.status != JobStatus.DONE or not job.file:
        raise Http404(_("This report has no file yet."))
    root = services.media_root().resolve()
    path = (root / job.file).resolve()
    if root not in path.parents or not Path(path).is_file():
        raise Http404(_("The file is gone; ask for the report again."))
    return FileResponse(
        path.open("rb"), content_type="application/pdf", filename=services.download_name(job)
    )
