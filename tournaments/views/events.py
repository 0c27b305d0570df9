"""Events: the list, a new event, its page (rounds, generation, standings), its settings and
rule set, and its bracket."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRefresh

from kaiser_club.actors import Actor
from kaiser_club.models import Club
from kaiser_club.roles import Role
from kaiser_club.selectors import club_ids_with_role

from .. import services
from ..choices import EventStatus, Format
from ..forms import EventForm, EventSettingsForm, RulesForm
from ..models import Event, GenerationJob, Season
from ..naming import first_stage_title, remember_rounds, round_name
from ..pairing.pools import pool_name
from ..permissions import EventAction, may_on_event
from ..selectors import bracket_of, entries_of, events_visible_to, latest_job, rounds_of
from ..services import actions
from ..standings import event_tables
from .common import attempt, back, event_page


def _organiser_clubs(request: HttpRequest) -> list[Club]:
    ids = club_ids_with_role(user=request.user, at_least=Role.ORGANISER)
    qs = Club.objects.all() if ids is None else Club.objects.filter(id__in=ids)
    return list(qs.order_by("name"))


@login_required
def event_list(request: HttpRequest) -> HttpResponse:
    events = events_visible_to(user=request.user).order_by("-date", "-id")[:200]
    return render(
        request,
        "tournaments/event_list.html",
        {"events": events, "can_create": bool(_organiser_clubs(request))},
    )


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    clubs = _organiser_clubs(request)
    if not clubs:
        messages.error(request, _("Only a club's organisers can create its events."))
        return redirect("tournaments:events")
    seasons = Season.objects.filter(club__in=clubs)
    form = EventForm(request.POST or None, clubs=clubs, seasons=seasons)
    if request.method == "POST" and form.is_valid():
        club = next(c for c in clubs if c.id == form.cleaned_data["club"])
        event = attempt(
            request,
            lambda: actions.event_create_by(
                actor=Actor.of(request.user),
                club=club,
                name=form.cleaned_data["name"],
                date=form.cleaned_data["date"],
                kind=form.cleaned_data["kind"],
                format=form.cleaned_data["format"],
                preset_name=form.cleaned_data["preset"] or None,
                **form.settings(),
            ),
        )
        if isinstance(event, Event):
            return back(event)
    return render(request, "tournaments/event_form.html", {"form": form, "creating": True})


@event_page()
def event_detail(request: HttpRequest, event: Event) -> HttpResponse:
    manage = may_on_event(user=request.user, action=EventAction.MANAGE, event=event)
    tables = event_tables(event=event)
    standings = tables.placings
    stages = []
    if event.format == Format.POOLS:
        stages = [
            (_("Pool %(name)s") % {"name": pool_name(number - 1)}, rows)
            for number, rows in sorted(tables.pools.items())
        ]
    elif tables.kind == "staged":
        stages = [(first_stage_title(event), tables.first_stage)]
    finished = event.status == EventStatus.FINISHED
    rounds = list(rounds_of(event=event))
    remember_rounds(event, rounds)
    return render(
        request,
        "tournaments/event_detail.html",
        {
            "event": event,
            "manage": manage,
            "rounds": rounds,
            "job": None if finished else latest_job(event=event),
            "finished": finished,
            "stages": stages,
            "entry_count": entries_of(event=event).exclude(status="withdrawn").count(),
            "standings": standings,
        },
    )


@event_page(EventAction.MANAGE)
def event_settings(request: HttpRequest, event: Event) -> HttpResponse:
    seasons = Season.objects.filter(club=event.club)
    initial = {
        field: getattr(event, field)
        for field in EventSettingsForm.base_fields
        if field not in ("club", "kind", "preset") and hasattr(event, field)
    }
    initial["tiebreaks"] = list(event.tiebreaks)
    form = EventSettingsForm(
        request.POST if "settings" in request.POST else None, seasons=seasons, initial=initial
    )
    rules = RulesForm(request.POST if "rules" in request.POST else None, rules=event.rules)
    if request.method == "POST":
        if (
            "settings" in request.POST
            and form.is_valid()
            and attempt(
                request,
                lambda: services.event_update(
                    actor=Actor.of(request.user), event=event, **form.settings()
                ),
                _("Settings saved."),
            )
        ):
            return back(event, "tournaments:event-settings")
        if (
            "rules" in request.POST
            and rules.is_valid()
            and attempt(
                request,
                lambda: services.event_change_rules(
                    actor=Actor.of(request.user), event=event, changes=rules.changes()
                ),
                _("Rule set saved."),
            )
        ):
            return back(event, "tournaments:event-settings")
    return render(
        request,
        "tournaments/event_settings.html",
        {"event": event, "form": form, "rules": rules},
    )


@require_POST
@event_page(EventAction.MANAGE)
def event_generate(request: HttpRequest, event: Event) -> HttpResponse:
    job = attempt(
        request, lambda: actions.generation_request_by(actor=Actor.of(request.user), event=event)
    )
    if request.htmx:  # type: ignore[attr-defined]
        return _job_panel(request, event, latest_job(event=event), refused=job is None)
    if isinstance(job, GenerationJob):
        messages.info(request, _("Generation queued."))
    return back(event)


@event_page()
def event_job(request: HttpRequest, event: Event, job_id: int) -> HttpResponse:
    job = get_object_or_404(GenerationJob, event=event, id=job_id)
    return _job_panel(request, event, job)


def _job_panel(
    request: HttpRequest, event: Event, job: GenerationJob | None, *, refused: bool = False
) -> HttpResponse:
    """The job panel while the job waits or runs. Once it has finished, or the request was
    refused, htmx reloads the whole page: its rounds and its message change too."""
    if request.htmx and (refused or (job is not None and job.finished)):  # type: ignore[attr-defined]
        return HttpResponseClientRefresh()
    return render(request, "tournaments/_job.html", {"event": event, "job": job})


@event_page()
def event_bracket(request: HttpRequest, event: Event) -> HttpResponse:
    matches = list(bracket_of(event=event))
    rounds: dict[str, list[object]] = {}
    for match in matches:
        rounds.setdefault(round_name(match.round, event), []).append(match)
    return render(request, "tournaments/bracket.html", {"event": event, "rounds": rounds})
