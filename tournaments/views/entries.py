"""Registration page: the entries, a team typed in, a CSV import with a preview, check-in,
withdrawal."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from kaiser_club.actors import Actor
from kaiser_club.page_errors import refusal_shown
from kaiser_club.people import Choice, ChooseRecord, parse_choice
from kaiser_club.sentences import N_

from .. import services
from ..choices import EntryStatus
from ..forms import CsvForm, PlayerEntryForm, TeamEntryForm, entry_edit_form
from ..models import Entry, Event
from ..permissions import EventAction, may_on_event
from ..selectors import entries_of, entry_ratings
from ..services import csv_import
from .common import attempt, back, event_page


def _page(request: HttpRequest, event: Event, status: int = 200, **extra: Any) -> HttpResponse:
    entries = list(entries_of(event=event).order_by("status", "seed", "name", "id"))
    ratings = entry_ratings(entries)
    form_class = PlayerEntryForm if event.individual else TeamEntryForm
    context = {
        "event": event,
        "entries": [(entry, ratings.get(entry.id)) for entry in entries],
        "to_check_in": any(entry.status == EntryStatus.REGISTERED for entry in entries),
        "manage": may_on_event(user=request.user, action=EventAction.MANAGE, event=event),
        "form": form_class(),
        "csv_form": CsvForm(),
        **extra,
    }
    return render(request, "tournaments/entries.html", context, status=status)


@event_page()
def entry_list(request: HttpRequest, event: Event) -> HttpResponse:
    return _page(request, event)


CHOICE_SUFFIX = "_record"  # the page's radio buttons: player_one_record = an id, or "new"


def _records_chosen(request: HttpRequest, *, individual: bool) -> dict[str, Choice]:
    """The records the organiser chose for names that could be several people (the page
    asked with radio buttons), by the entry's player fields."""
    fields = ["player"] if individual else ["player_one", "player_two"]
    return {
        f: choice
        for f in fields
        if (choice := parse_choice(request.POST.get(f"{f}{CHOICE_SUFFIX}"))) is not None
    }


def _asked(refusal: ChooseRecord) -> list[tuple[Any, str]]:
    """Each name the page asks about again, with the radio buttons' field name."""
    return [(a, f"{a.field}{CHOICE_SUFFIX}") for a in refusal.ambiguities]


@require_POST
@event_page()
def entry_add(request: HttpRequest, event: Event) -> HttpResponse:
    form_class = PlayerEntryForm if event.individual else TeamEntryForm
    form = form_class(request.POST)
    if not form.is_valid():
        return _page(request, event, form=form)
    data = form.cleaned_data
    try:
        with refusal_shown(request, passes=(ChooseRecord,)) as refused:
            choices = _records_chosen(request, individual=event.individual)
            if event.individual:
                done = services.entry_register_player_by_name(
                    actor=Actor.of(request.user),
                    event=event,
                    player=data["player"],
                    seed=data["seed"],
                    rating=data["rating"],
                    choices=choices,
                )
            else:
                done = services.entry_register_team_by_names(
                    actor=Actor.of(request.user),
                    event=event,
                    player_one=data["player_one"],
                    player_two=data["player_two"],
                    name=data["name"],
                    seed=data["seed"],
                    rating=data["rating"],
                    choices=choices,
                )
    except ChooseRecord as exc:
        choose = _asked(exc)
        return _page(request, event, form=form, choose=choose, status=409)
    if refused:
        return _page(request, event, form=form_class(request.POST))
    # The names as matched, not as typed.
    messages.success(request, _("%(name)s is entered.") % {"name": done.name})
    return back(event, "tournaments:entries")


def _entry_of(event: Event, entry_id: int) -> Entry:
    entry = (
        Entry.objects.filter(event=event, id=entry_id)
        .select_related("player", "team__player_one", "team__player_two")
        .first()
    )
    if entry is None:
        raise Http404(N_("No such entry in this event."))
    return entry


def _entry_initial(entry: Entry) -> dict[str, Any]:
    initial: dict[str, Any] = {"seed": entry.seed, "rating": entry.rating, "name": entry.name}
    if entry.team_id is not None and entry.team is not None:
        initial["player_one"] = entry.team.player_one.name
        initial["player_two"] = entry.team.player_two.name
    elif entry.player is not None:
        initial["player"] = entry.player.name
    return initial


@event_page(EventAction.MANAGE)
def entry_edit(request: HttpRequest, event: Event, entry_id: int) -> HttpResponse:
    """An entry changed after registration: what its state still allows (the seed until the
    first round exists, the players until one of its games has been played)."""
    entry = _entry_of(event, entry_id)
    fixed = services.entry_fixed(entry)
    posted = request.method == "POST"
    form = entry_edit_form(
        individual=entry.team_id is None,
        initial=_entry_initial(entry),
        seed_fixed=fixed.seed,
        players_fixed=fixed.players,
        data=request.POST if posted else None,
    )

    def page(status: int = 200, **extra: Any) -> HttpResponse:
        context = {"event": event, "entry": entry, "form": form, "fixed": fixed, **extra}
        return render(request, "tournaments/entry_edit.html", context, status=status)

    if not posted:
        return page()
    if not form.is_valid():
        return page(400)
    data = form.cleaned_data
    choices = _records_chosen(request, individual=entry.team_id is None)
    try:
        with refusal_shown(request, form=form, passes=(ChooseRecord,)) as refused:
            done = services.entry_update_by_names(
                actor=Actor.of(request.user),
                entry=entry,
                seed=data["seed"],
                rating=data["rating"],
                name=data.get("name", ""),
                player_one=data.get("player_one", ""),
                player_two=data.get("player_two", ""),
                player=data.get("player", ""),
                choices=choices,
            )
    except ChooseRecord as exc:
        choose = _asked(exc)
        return page(409, choose=choose)
    if refused:
        return page(refused.status)
    messages.success(request, _("%(name)s is changed.") % {"name": done.name})
    return back(event, "tournaments:entries")


@require_POST
@event_page()
def entry_import(request: HttpRequest, event: Event) -> HttpResponse:
    """First a preview (every row and its problems), then the import on confirmation."""
    form = CsvForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, event, csv_form=form)
    text = form.text()

    def checked_parse() -> services.ImportResult:
        csv_import.check_size(text)  # before anything is read into the database
        return services.entries_preview(actor=Actor.of(request.user), event=event, text=text)

    preview = attempt(request, checked_parse)
    if not preview:
        return _page(request, event, csv_form=form)
    if form.cleaned_data.get("confirm") and preview.ok:
        result = attempt(
            request,
            lambda: services.entries_import(actor=Actor.of(request.user), event=event, text=text),
        )
        if result:
            n = len(result.created)
            messages.success(
                request, ngettext("%(n)s entry imported.", "%(n)s entries imported.", n) % {"n": n}
            )
            return back(event, "tournaments:entries")
    confirm = CsvForm(initial={"csv": text, "confirm": True})
    return _page(request, event, preview=preview, csv_form=confirm)


@require_POST
@event_page()
def entry_action(request: HttpRequest, event: Event, entry_id: int, action: str) -> HttpResponse:
    entry = _entry_of(event, entry_id)
    if action == "check-in":
        attempt(
            request,
            lambda: services.entry_check_in(actor=Actor.of(request.user), entry=entry),
            _("%(name)s is checked in.") % {"name": entry.name},
        )
    elif action == "undo-check-in":
        attempt(
            request,
            lambda: services.entry_check_in(
                actor=Actor.of(request.user), entry=entry, checked_in=False
            ),
        )
    elif action == "withdraw" and request.POST.get("confirm") != "1":
        # A withdrawal forfeits the entry's unfinished games: the page asks first.
        return _page(request, event, confirm_withdraw=entry)
    elif action == "withdraw":
        forfeited = attempt(
            request,
            lambda: services.entry_withdraw(
                actor=Actor.of(request.user), entry=entry, reason=request.POST.get("reason", "")
            ),
        )
        if isinstance(forfeited, list):
            messages.success(
                request,
                ngettext(
                    "%(name)s has withdrawn; %(n)s unfinished game forfeited. "
                    "Reinstate undoes the withdrawal (the forfeit stands).",
                    "%(name)s has withdrawn; %(n)s unfinished games forfeited. "
                    "Reinstate undoes the withdrawal (the forfeits stand).",
                    len(forfeited),
                )
                % {"name": entry.name, "n": len(forfeited)},
            )
    elif action == "reinstate":
        attempt(
            request,
            lambda: services.entry_reinstate(actor=Actor.of(request.user), entry=entry),
            _("%(name)s is back: paired again from the next round.") % {"name": entry.name},
        )
    else:
        raise Http404(N_("No such action."))
    return back(event, "tournaments:entries")


@require_POST
@event_page()
def entries_check_in_all(request: HttpRequest, event: Event) -> HttpResponse:
    count = attempt(
        request, lambda: services.entry_check_in_all(actor=Actor.of(request.user), event=event)
    )
    if count is not None:
        n = 0 if count is True else int(count)
        messages.success(
            request,
            ngettext("%(n)s entry checked in.", "%(n)s entries checked in.", n) % {"n": n},
        )
    return back(event, "tournaments:entries")
