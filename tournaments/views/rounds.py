"""A round's page (its tables and games, the tables still playing) and its actions; a game's
page (result, forfeit, adjustment, substitute, clock, roll back)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from kaiser_club.actors import Actor

from .. import services
from ..forms import (
    AdjustForm,
    ByePointsForm,
    ForfeitForm,
    MinutesForm,
    RollbackForm,
    SubstituteForm,
    SwapForm,
)
from ..models import Entry, Event, Pairing, Round
from ..permissions import EventAction, may_on_event
from ..selectors import PAIRING_RELATED, pairings_of, still_playing
from .common import attempt, back, event_page


def _round(event: Event, number: int) -> Round:
    found = Round.objects.filter(event=event, number=number).first()
    if found is None:
        raise Http404("No such round.")
    return found


def _pairing(event: Event, pairing_id: int) -> Pairing:
    found = (
        Pairing.objects.filter(event=event, id=pairing_id)
        .select_related(*PAIRING_RELATED, "round", "game__north", "game__east")
        .select_related("game__south", "game__west")
        .first()
    )
    if found is None:
        raise Http404("No such game in this event.")
    return found


@event_page()
def round_detail(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    round_ = _round(event, number)
    pairings = list(pairings_of(round_=round_))
    playing = [p for p in pairings if p.result == "pending" and not p.cancelled and p.game_id]
    return render(
        request,
        "tournaments/round_detail.html",
        {
            "event": event,
            "round": round_,
            "pairings": pairings,
            "playing": playing,
            "manage": may_on_event(user=request.user, action=EventAction.MANAGE, event=event),
        },
    )


@event_page()
def round_playing(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """The tables still playing (polled by the round page)."""
    round_ = _round(event, number)
    return render(
        request,
        "tournaments/_still_playing.html",
        {"event": event, "round": round_, "playing": still_playing(round_=round_)},
    )


@require_POST
@event_page()
def round_action(request: HttpRequest, event: Event, number: int, action: str) -> HttpResponse:
    round_ = _round(event, number)
    if action == "start":
        attempt(request, lambda: services.round_start(round_=round_), f"{round_} started.")
    elif action == "start-waiting":
        attempt(request, lambda: services.round_start_waiting(round_=round_), "Clocks started.")
    elif action == "pause":
        attempt(request, lambda: services.round_pause(round_=round_), "Clocks paused.")
    elif action == "resume":
        attempt(request, lambda: services.round_resume(round_=round_), "Clocks resumed.")
    elif action == "add-minutes":
        form = MinutesForm(request.POST)
        if form.is_valid():
            minutes = form.cleaned_data["minutes"]
            attempt(
                request,
                lambda: services.round_add_minutes(round_=round_, minutes=minutes),
                f"{minutes} minutes added to every running clock.",
            )
    elif action in ("swap-teams", "swap-tables"):
        swap = SwapForm(request.POST)
        if swap.is_valid():
            first, second = swap.cleaned_data["first"], swap.cleaned_data["second"]
            if action == "swap-teams":
                a = Entry.objects.filter(event=event, id=first).first()
                b = Entry.objects.filter(event=event, id=second).first()
                if a and b:
                    attempt(
                        request,
                        lambda: services.round_swap_teams(
                            round_=round_, first=a, second=b, by=request.user
                        ),
                        "Teams swapped.",
                    )
            else:
                attempt(
                    request,
                    lambda: services.round_swap_tables(
                        round_=round_, first=_pairing(event, first), second=_pairing(event, second)
                    ),
                    "Tables swapped.",
                )
    else:
        raise Http404("No such action.")
    return back(event, "tournaments:round", number=number)


@event_page()
def pairing_detail(request: HttpRequest, event: Event, pairing_id: int) -> HttpResponse:
    pairing = _pairing(event, pairing_id)
    game = pairing.game
    seated = [game.north, game.east, game.south, game.west] if game else []
    return render(
        request,
        "tournaments/pairing_detail.html",
        {
            "event": event,
            "pairing": pairing,
            "manage": may_on_event(user=request.user, action=EventAction.MANAGE, event=event),
            "forfeit_form": ForfeitForm(),
            "adjust_form": AdjustForm(
                initial={
                    "home_points": pairing.home_points,
                    "away_points": pairing.away_points,
                }
            ),
            "bye_form": ByePointsForm(
                initial={
                    "points_for": pairing.home_points,
                    "points_against": pairing.away_points,
                }
            ),
            "substitute_form": SubstituteForm(seated=seated),
            "rollback_form": RollbackForm(),
            "undone": services.rollback_preview(pairing=pairing)
            if pairing.match_number and "rollback" in request.GET
            else None,
        },
    )


@require_POST
@event_page()
def pairing_action(
    request: HttpRequest, event: Event, pairing_id: int, action: str
) -> HttpResponse:
    pairing = _pairing(event, pairing_id)
    post = request.POST
    if action == "forfeit":
        form = ForfeitForm(post)
        if form.is_valid():
            attempt(
                request,
                lambda: services.pairing_forfeit(
                    pairing=pairing, by=request.user, **form.cleaned_data
                ),
                "Forfeit recorded.",
            )
    elif action == "adjust":
        adjust = AdjustForm(post)
        if adjust.is_valid():
            attempt(
                request,
                lambda: services.pairing_adjust(
                    pairing=pairing, by=request.user, **adjust.cleaned_data
                ),
                "Adjusted result recorded.",
            )
    elif action in ("late", "not-late"):
        attempt(
            request,
            lambda: services.pairing_mark_late(pairing=pairing, late=action == "late"),
            "Saved.",
        )
    elif action == "bye-points":
        bye = ByePointsForm(post)
        if bye.is_valid():
            attempt(
                request,
                lambda: services.pairing_set_bye_points(pairing=pairing, **bye.cleaned_data),
                "Bye points saved.",
            )
    elif action == "substitute":
        game = pairing.game
        seated = [game.north, game.east, game.south, game.west] if game else []
        sub = SubstituteForm(post, seated=seated)
        if sub.is_valid():
            attempt(
                request,
                lambda: services.entry_substitute(
                    pairing=pairing,
                    replaced_id=sub.cleaned_data["replaced"],
                    substitute_name=sub.cleaned_data["substitute"],
                    by=Actor.of(request.user).by,
                    reason=sub.cleaned_data["reason"],
                ),
                "Substitute seated for this game.",
            )
    elif action in ("start", "pause", "resume", "add"):
        text = post.get("minutes", "")
        minutes = int(text) if text.lstrip("-").isdigit() else 0
        attempt(
            request,
            lambda: services.pairing_clock(pairing=pairing, action=action, minutes=minutes),
            "Clock updated.",
        )
    elif action == "rollback":
        form_rb = RollbackForm(post)
        if form_rb.is_valid():
            attempt(
                request,
                lambda: services.pairing_rollback(
                    pairing=pairing, by=request.user, reason=form_rb.cleaned_data["reason"]
                ),
                "Later games rolled back; this game's result now goes on again.",
            )
    else:
        raise Http404("No such action.")
    return back(event, "tournaments:pairing", pairing_id=pairing.id)
