"""A round's page (its tables and games, the tables still playing) and its actions; a game's
page (result, forfeit, adjustment, substitute, clock, roll back) and its actions.

Each action calls the service the API calls (``services.actions``), with the same arguments:
what the form says, under the same names as the API's body."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from kaiser_club.actors import Actor
from kaiser_club.page_errors import refusal_shown
from kaiser_club.people import ChooseRecord
from kaiser_club.sentences import N_
from kaiser_club.sentences import render as said_in_words
from scoring import services as scoring_services
from scoring.choices import GameStatus
from scoring.forms import HandCorrectionForm, PaperHandForm
from scoring.models import Hand
from scoring.rows_and_rules import game_rules
from scoring.score_sheet import score_sheet
from scoring.services import verification

from .. import services
from ..choices import SlotSide
from ..clock_words import has_clock
from ..forms import (
    AdjustForm,
    ByePointsForm,
    ForfeitForm,
    MinutesForm,
    RollbackForm,
    SubstituteForm,
    SwapForm,
)
from ..models import Event, Pairing, Round
from ..permissions import EventAction, may_on_event
from ..round_state import round_state
from ..selectors import pairing_in, pairings_of, round_in, rounds_of, still_playing
from ..services import actions, corrections
from ..table.board_state import preview_context
from .common import act, back, event_page

# --- a round ----------------------------------------------------------------------------------


def _round_page(
    request: HttpRequest, event: Event, round_: Round, *, status: int = 200, **bound: Any
) -> HttpResponse:
    """The round's page; ``bound`` holds a form shown again with its errors."""
    pairings = list(pairings_of(round_=round_))
    playing = [p for p in pairings if p.result == "pending" and not p.cancelled and p.game_id]
    context = {
        "event": event,
        "round": round_,
        "state": round_state(rounds_of(event=event).get(id=round_.id)),
        "pairings": pairings,
        "playing": playing,
        "clocks_waiting": [  # games drawn since the round began (round_start_waiting)
            p
            for p in playing
            if p.game is not None
            and p.game.started_at is None
            and p.game.time_limit_minutes
            and not p.played_late
        ],
        "manage": may_on_event(user=request.user, action=EventAction.MANAGE, event=event),
        "clocked": has_clock(event),
        "minutes_form": MinutesForm(initial={"minutes": 5}),
        "swap_tables_form": SwapForm(),
        "swap_teams_form": SwapForm(),
        **bound,
    }
    return render(request, "tournaments/round_detail.html", context, status=status)


@event_page()
def round_detail(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    return _round_page(request, event, round_in(event=event, number=number))


@event_page()
def round_playing(request: HttpRequest, event: Event, number: int) -> HttpResponse:
    """The tables still playing (polled by the round page)."""
    round_ = round_in(event=event, number=number)
    return render(
        request,
        "tournaments/_still_playing.html",
        {"event": event, "round": round_, "playing": still_playing(round_=round_)},
    )


RoundAction = Callable[[HttpRequest, Event, Round], HttpResponse]


def _round_act(
    request: HttpRequest,
    event: Event,
    round_: Round,
    call: Callable[..., Any],
    done: str | Callable[[Any], str],
    *,
    form: forms.BaseForm | None = None,
    form_name: str = "",
) -> HttpResponse:
    """``call`` is the round's service; it gets the actor, the round and the form's data."""
    actor = Actor.of(request.user)
    return act(
        request,
        lambda data: call(actor=actor, round_=round_, **data),
        done=done,
        back_to=back(event, "tournaments:round", number=round_.number),
        form=form,
        again=lambda status: _round_page(
            request, event, round_, status=status, **{form_name: form}
        ),
    )


def _start(request: HttpRequest, event: Event, round_: Round) -> HttpResponse:
    return _round_act(
        request,
        event,
        round_,
        actions.round_start,
        _("%(round)s started.") % {"round": said_in_words(round_.said)},
    )


def _start_waiting(request: HttpRequest, event: Event, round_: Round) -> HttpResponse:
    return _round_act(request, event, round_, actions.round_start_waiting, _("Clocks started."))


def _pause(request: HttpRequest, event: Event, round_: Round) -> HttpResponse:
    return _round_act(request, event, round_, actions.round_pause, _("Clocks paused."))


def _resume(request: HttpRequest, event: Event, round_: Round) -> HttpResponse:
    return _round_act(request, event, round_, actions.round_resume, _("Clocks resumed."))


def _add_minutes(request: HttpRequest, event: Event, round_: Round) -> HttpResponse:
    form = MinutesForm(request.POST)
    return _round_act(
        request,
        event,
        round_,
        actions.round_add_minutes,
        lambda _result: (
            ngettext(
                "%(n)s minute added to every running clock.",
                "%(n)s minutes added to every running clock.",
                form.cleaned_data["minutes"],
            )
            % {"n": form.cleaned_data["minutes"]}
        ),
        form=form,
        form_name="minutes_form",
    )


def _swap_tables(request: HttpRequest, event: Event, round_: Round) -> HttpResponse:
    form = SwapForm(request.POST)
    return _round_act(
        request,
        event,
        round_,
        actions.round_swap_tables,
        _("Tables swapped."),
        form=form,
        form_name="swap_tables_form",
    )


def _swap_teams(request: HttpRequest, event: Event, round_: Round) -> HttpResponse:
    form = SwapForm(request.POST)
    return _round_act(
        request,
        event,
        round_,
        actions.round_swap_teams,
        _("Teams swapped."),
        form=form,
        form_name="swap_teams_form",
    )


# The addresses are those of the API: /events/<id>/rounds/<number>/<action>/.
ROUND_ACTIONS: dict[str, RoundAction] = {
    "start": _start,
    "start-waiting": _start_waiting,
    "pause": _pause,
    "resume": _resume,
    "add-minutes": _add_minutes,
    "swap-tables": _swap_tables,
    "swap-teams": _swap_teams,
}


@require_POST
@event_page()
def round_action(request: HttpRequest, event: Event, number: int, action: str) -> HttpResponse:
    act_on = ROUND_ACTIONS.get(action)
    if act_on is None:
        raise Http404(N_("No such action."))
    return act_on(request, event, round_in(event=event, number=number))


# --- one game ---------------------------------------------------------------------------------


def _seated(pairing: Pairing) -> list[Any]:
    game = pairing.game
    return [game.north, game.east, game.south, game.west] if game else []


def _names(pairing: Pairing) -> tuple[str, str]:
    """The two sides by the names the page shows (a team, or a progressive pair)."""

    def name(entry: Any, team: Any) -> str:
        if entry is not None:
            return str(entry.name)
        if team is not None:
            return f"{team.player_one.name} & {team.player_two.name}"
        return "?"

    return (name(pairing.home, pairing.home_team), name(pairing.away, pairing.away_team))


def _pairing_page(
    request: HttpRequest, event: Event, pairing: Pairing, *, status: int = 200, **bound: Any
) -> HttpResponse:
    """The game's page; ``bound`` holds a form shown again with its errors."""
    manage = may_on_event(user=request.user, action=EventAction.MANAGE, event=event)
    context = {
        "event": event,
        "pairing": pairing,
        "names": _names(pairing),
        "manage": manage,
        "forfeit_form": ForfeitForm(names=_names(pairing)),
        "adjust_form": AdjustForm(
            names=_names(pairing),
            initial={"home_points": pairing.home_points, "away_points": pairing.away_points},
        ),
        "bye_form": ByePointsForm(
            initial={"points_for": pairing.home_points, "points_against": pairing.away_points}
        ),
        "substitute_form": SubstituteForm(seated=_seated(pairing)),
        "clock_form": MinutesForm(initial={"minutes": 5}),
        "rollback_form": RollbackForm(),
        "undone": services.rollback_preview(pairing=pairing)
        if pairing.match_number and "rollback" in request.GET
        else None,
        **_correction_context(request, pairing, manage=manage),
        **_paper_context(pairing),
        **bound,
    }
    return render(request, "tournaments/pairing_detail.html", context, status=status)


@event_page()
def pairing_detail(request: HttpRequest, event: Event, pairing_id: int) -> HttpResponse:
    return _pairing_page(request, event, pairing_in(event=event, pairing_id=pairing_id))


PairingAction = Callable[[HttpRequest, Event, Pairing], HttpResponse]


# --- correcting one hand: the API's parsing, the API's service -----------------------------------


def _correction_context(request: HttpRequest, pairing: Pairing, *, manage: bool) -> dict[str, Any]:
    """The game's sheet, each hand with a link to correct it for an organiser; the form of the
    hand ``?hand=n``."""
    game = pairing.game
    if game is None:
        return {"hands": []}
    hands = list(Hand.objects.filter(game_id=game.id).order_by("number"))
    context: dict[str, Any] = {
        "hands": hands,
        "sheet": score_sheet(game, hands, corrections=manage),
    }
    wanted = request.GET.get("hand", "")
    chosen = next((h for h in hands if str(h.number) == wanted), None)
    if chosen is not None:
        context["correct_form"] = HandCorrectionForm.for_hand(
            chosen, version=game.version, rules=game_rules(game)
        )
    return context


def _correct_hand(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
    """Previews the correction ("preview" in the form) or makes it, with the games API's
    service (``hand_correct_by``): the same refusals, the same history."""
    if pairing.game is None:
        raise Http404(N_("This game has no hands."))
    game = pairing.game
    form = HandCorrectionForm(request.POST, rules=game_rules(game))
    actor = Actor.of(request.user)

    def page(status: int, **more: Any) -> HttpResponse:
        return _pairing_page(request, event, pairing, status=status, correct_form=form, **more)

    if "preview" in request.POST:
        if not form.is_valid():
            return page(400)
        data = form.cleaned_data
        with refusal_shown(request, form=form) as refused:
            preview = corrections.hand_correct_preview(
                actor=actor,
                pairing=pairing,
                number=data["number"],
                entry=form.entry,
                reason=data.get("reason", ""),
                expected_version=data.get("version"),
                roll_back=bool(data.get("rollback")),
            )
        if refused:
            return page(refused.status)
        return page(200, correction=preview)
    return act(
        request,
        lambda data: scoring_services.hand_correct_by(
            actor=actor,
            game=game,
            number=data["number"],
            entry=form.entry,
            reason=data.get("reason", ""),
            expected_version=data.get("version"),
            roll_back=bool(data.get("rollback")),
        ),
        done=lambda _: gettext("Hand %(n)s corrected.") % {"n": form.cleaned_data["number"]},
        back_to=back(event, "tournaments:pairing", pairing_id=pairing.id),
        form=form,
        again=page,
    )


def _pairing_act(
    request: HttpRequest,
    event: Event,
    pairing: Pairing,
    call: Callable[..., Any],
    done: str,
    *,
    form: forms.BaseForm | None = None,
    form_name: str = "",
    **fixed: Any,
) -> HttpResponse:
    """``call`` is the game's service; it gets the actor, the pairing, the form's data and
    ``fixed`` (what the address itself says: late or not, which clock action)."""
    actor = Actor.of(request.user)
    return act(
        request,
        lambda data: call(actor=actor, pairing=pairing, **fixed, **data),
        done=done,
        back_to=back(event, "tournaments:pairing", pairing_id=pairing.id),
        form=form,
        again=lambda status: _pairing_page(
            request, event, pairing, status=status, **{form_name: form}
        ),
    )


def _forfeit(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
    """A forfeit is asked first: the page says who would win, by what score, and records it
    only once confirmed ("confirm" in the form)."""
    form = ForfeitForm(request.POST, names=_names(pairing))
    if "confirm" not in request.POST and form.is_valid():
        # Asked only if it would be recorded: the very service, rolled back.
        with refusal_shown(request, form=form) as refused, transaction.atomic():
            actions.pairing_forfeit(
                actor=Actor.of(request.user), pairing=pairing, **form.cleaned_data
            )
            transaction.set_rollback(True)
        if refused:
            return _pairing_page(request, event, pairing, status=refused.status, forfeit_form=form)
        names = _names(pairing)
        home_forfeits = form.cleaned_data["forfeiting"] == SlotSide.HOME
        return _pairing_page(
            request,
            event,
            pairing,
            forfeit_form=form,
            forfeit_asked={
                "forfeiting": names[0] if home_forfeits else names[1],
                "winner": names[1] if home_forfeits else names[0],
            },
        )
    return _pairing_act(
        request,
        event,
        pairing,
        actions.pairing_forfeit,
        _("Forfeit recorded."),
        form=form,
        form_name="forfeit_form",
    )


def _forfeit_undo(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
    return _pairing_act(
        request, event, pairing, actions.pairing_forfeit_undo, _("Forfeit taken back.")
    )


def _adjust(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
    form = AdjustForm(request.POST, names=_names(pairing))
    return _pairing_act(
        request,
        event,
        pairing,
        actions.pairing_adjust,
        _("Adjusted result recorded."),
        form=form,
        form_name="adjust_form",
    )


def _late(late: bool) -> PairingAction:
    def view(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
        return _pairing_act(
            request, event, pairing, actions.pairing_mark_late, _("Saved."), late=late
        )

    return view


def _bye_points(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
    form = ByePointsForm(request.POST)
    return _pairing_act(
        request,
        event,
        pairing,
        actions.pairing_set_bye_points,
        _("Bye points saved."),
        form=form,
        form_name="bye_form",
    )


def _substitute(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
    """A name more than one record could be is asked back with a radio button per record, as
    registration asks it; the choice comes back with the form (SubstituteForm.CHOICE)."""
    form = SubstituteForm(request.POST, seated=_seated(pairing))

    def again(status: int, **asked: Any) -> HttpResponse:
        return _pairing_page(request, event, pairing, status=status, substitute_form=form, **asked)

    if not form.is_valid():
        return again(400)
    try:
        with refusal_shown(request, form=form, passes=(ChooseRecord,)) as refused:
            services.pairing_substitute(
                actor=Actor.of(request.user), pairing=pairing, **form.cleaned_data
            )
    except ChooseRecord as exc:
        return again(409, substitute_choose=[(a, SubstituteForm.CHOICE) for a in exc.ambiguities])
    if refused:
        return again(refused.status)
    messages.success(request, _("Substitute seated for this game."))
    return back(event, "tournaments:pairing", pairing_id=pairing.id)


def _clock(action: str) -> PairingAction:
    def view(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
        return _pairing_act(
            request, event, pairing, actions.pairing_clock, _("Clock updated."), action=action
        )

    return view


def _clock_add(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
    form = MinutesForm(request.POST)
    return _pairing_act(
        request,
        event,
        pairing,
        actions.pairing_clock,
        _("Clock updated."),
        form=form,
        form_name="clock_form",
        action="add",
    )


def _rollback(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
    form = RollbackForm(request.POST)
    return _pairing_act(
        request,
        event,
        pairing,
        actions.pairing_rollback,
        _("Later games rolled back; this game's result now goes on again."),
        form=form,
        form_name="rollback_form",
    )


# --- a game entered from its paper sheet, when its table cannot: the table's own service -------


def _paper_context(pairing: Pairing) -> dict[str, Any]:
    """The next hand's form while the game is played."""
    game = pairing.game
    if game is None or game.status != GameStatus.IN_PROGRESS:
        return {}
    return {"paper_form": PaperHandForm.next_of(game, rules=game_rules(game))}


def _paper_hand(request: HttpRequest, event: Event, pairing: Pairing) -> HttpResponse:
    """Previews the next hand ("preview" in the form) or records it, as the table would
    (``hand_record_by``: the organiser's hand counts at once)."""
    if pairing.game is None:
        raise Http404(N_("This game has no hands."))
    game = pairing.game
    form = PaperHandForm(request.POST, rules=game_rules(game))

    def page(status: int, **more: Any) -> HttpResponse:
        return _pairing_page(request, event, pairing, status=status, paper_form=form, **more)

    if "preview" in request.POST:
        if not form.is_valid():
            return page(400)
        with refusal_shown(request, form=form) as refused:
            before, after = verification.hand_preview(game=game, entry=form.entry)
        if refused:
            return page(refused.status)
        return page(200, paper_preview=preview_context(before, after))
    return act(
        request,
        lambda data: scoring_services.hand_record_by(
            actor=Actor.of(request.user),
            game=game,
            entry=form.entry,
            client_id=data["client_id"],
            number=data["number"],
        ),
        done=lambda _: gettext("Hand %(n)s recorded.") % {"n": form.cleaned_data["number"]},
        back_to=back(event, "tournaments:pairing", pairing_id=pairing.id),
        form=form,
        again=page,
    )


# The page's buttons: /events/<id>/games/<pairing id>/<action>/. The API's "late" and "clock"
# take the same arguments from their body (late: true or false; action and minutes).
PAIRING_ACTIONS: dict[str, PairingAction] = {
    "forfeit": _forfeit,
    "forfeit-undo": _forfeit_undo,
    "adjust": _adjust,
    "late": _late(True),
    "not-late": _late(False),
    "bye-points": _bye_points,
    "substitute": _substitute,
    "start": _clock("start"),
    "pause": _clock("pause"),
    "resume": _clock("resume"),
    "add": _clock_add,
    "rollback": _rollback,
    "correct-hand": _correct_hand,
    "paper-hand": _paper_hand,
}


@require_POST
@event_page()
def pairing_action(
    request: HttpRequest, event: Event, pairing_id: int, action: str
) -> HttpResponse:
    act_on = PAIRING_ACTIONS.get(action)
    if act_on is None:
        raise Http404(N_("No such action."))
    return act_on(request, event, pairing_in(event=event, pairing_id=pairing_id))
