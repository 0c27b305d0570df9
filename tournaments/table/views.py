"""The table page and its endpoints. Thin: find the table, check the access, call one scoring
service, answer with the new board (server-rendered HTML) and the state the page's script
keeps. Errors are KaiserErrors, answered as JSON in the request's language."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from kaiser_club.actors import Actor
from kaiser_club.errors import KaiserError, NotAllowed, NotFound
from kaiser_club.json_errors import error_response, json_methods
from kaiser_club.selectors import role_in_club
from kaiser_club.sentences import N_
from scoring.errors import ClientIdReused, StaleGame
from scoring.gates import Step, rule_for
from scoring.results import game_result
from scoring.rows_and_rules import game_rules
from scoring.score_sheet import sheet_row
from scoring.services import play, verification
from tournaments.choices import EventKind, EventStatus
from tournaments.game_gate import events_written_by, writers_text
from tournaments.models import Table
from tournaments.permissions import EventAction, may_on_event
from tournaments.services.tables import normalise_code

from . import entry as read
from .access import (
    Access,
    access_for,
    code_lookups_blocked,
    count_failed_lookup,
    issue_grant,
    table_for_code,
    writer_label,
)
from .acknowledgement import game_acknowledge_by
from .board_state import (
    board_sheet,
    entry_json,
    form_choices,
    page_state,
    preview_context,
    seats,
    team_name,
)
from .selectors import TableNow, table_after_hand, table_current, table_now

View = Callable[..., HttpResponse]


# --- Reaching a table ---------------------------------------------------------------------------


@require_GET
def open_table(request: HttpRequest) -> HttpResponse:
    """``/t/``: type a table's code; a signed-in member also sees the tables they may open."""
    typed = request.GET.get("code", "")
    if typed.strip():
        cleaned = normalise_code(typed)
        if cleaned:
            return redirect("table:enter", code=cleaned)
        return render(request, "table/open.html", {"unknown": True, "typed": typed}, status=404)
    return render(request, "table/open.html", {"tables": _member_tables(request)})


def _member_tables(request: HttpRequest) -> list[Table]:
    """The tables of running events this member may open (see ``access.member_may_open``)."""
    if not request.user.is_authenticated:
        return []
    tables = Table.objects.filter(event__status=EventStatus.RUNNING)
    written = events_written_by(request.user, prefix="event__")
    if written is not None:  # None: staff, every event
        tables = tables.filter(written)
    return list(
        tables.select_related("event", "event__club").order_by("event__date", "event_id", "number")[
            :300
        ]
    )


@never_cache
@require_GET
def enter(request: HttpRequest, code: str) -> HttpResponse:
    """``/t/<code>/`` (the QR link): the code grants this device the table, then its page."""
    if code_lookups_blocked(request):
        return render(request, "table/open.html", {"blocked": True}, status=429)
    table = table_for_code(code)
    if table is None:
        count_failed_lookup(request)
        return render(request, "table/open.html", {"unknown": True, "typed": code}, status=404)
    response = redirect("table:page", table_id=table.id)
    issue_grant(response, request, table)
    return response


def _table(table_id: int) -> Table | None:
    """The table, or None: a table that is not there is refused as one the device may not open
    (403, the same sentence), so that an answer tells nothing of which tables exist."""
    return Table.objects.select_related("event", "event__club").filter(id=table_id).first()


def _allowed(request: HttpRequest, table: Table | None) -> Access | None:
    """How the request reaches the table, or None when it may not (or there is no table)."""
    if table is None:
        return None
    access = access_for(request, table)
    return access if access.allowed else None


def _in_club(request: HttpRequest, table: Table) -> bool:
    return role_in_club(user=request.user, club_id=table.event.club_id) is not None


# --- The page -----------------------------------------------------------------------------------


@never_cache
@require_GET
def page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table(table_id)
    if table is None or _allowed(request, table) is None:
        # The table's number only for a member of its club; to anyone else, any table id is
        # refused alike, whether it is another club's or none at all.
        shown = table if table is not None and _in_club(request, table) else None
        return render(request, "table/open.html", {"refused": True, "table": shown}, status=403)
    now = table_now(table=table)
    context = _board_context(request, now)
    context["manage"] = may_on_event(
        user=request.user, action=EventAction.MANAGE, event=table.event
    )
    context["config"] = {
        "state": context["state"],
        "urls": _urls(table.id),
        "text": _script_text(),
    }
    return render(request, "table/page.html", context)


def _refused_text() -> str:
    return _(
        "This device may not write this table: scan the table's QR code or type its code again."
    )


def _write_refused_text(request: HttpRequest, table: Table | None) -> str:
    """A member of the event's club hears who may write its tables, the sentence the games API
    answers them with (``tournaments.game_gate``); anyone else, that the device needs the
    table's code, and nothing of the event (nor whether there is such a table)."""
    if table is not None and _in_club(request, table):
        return writers_text(table.event)
    return _refused_text()


def _urls(table_id: int) -> dict[str, str]:
    names = ["board", "state", "preview", "hands", "confirm", "discard", "undo", "acknowledge"]
    urls = {name: reverse(f"table:{name}", args=[table_id]) for name in names}
    urls["sw"] = reverse("table:sw")
    urls["page"] = reverse("table:page", args=[table_id])
    return urls


def _script_text() -> dict[str, str]:
    """The page script's sentences, in the page's language."""
    return {
        "online": _("Online"),
        "offline": _("Offline: hands are kept on this device"),
        "server_failing": _(
            "The server is not answering: hands are kept on this device and sent when it does"
        ),
        "waiting_one": _("1 hand waiting to be sent"),
        "waiting_many": _("%(count)s hands waiting to be sent"),
        "changes_one": _("1 change waiting to be sent"),
        "changes_many": _("%(count)s changes waiting to be sent"),
        "sending": _("Sending…"),
        "queued": _("Saved on this device; it will be sent when the connection returns."),
        "queued_row": _("waiting to send"),
        "conflict": _("Hand %(number)s was not accepted by the server:"),
        "conflict_discard": _("Discard it"),
        "conflict_edit": _("Enter it again"),
        "no_preview": _("Offline: the server will check this hand when the connection returns."),
        "card_no_tricks": _(
            "%(team)s took no tricks, so it cannot have taken the %(card)s: "
            "%(other)s took all eight tricks and both cards."
        ),
        "forced_dealer": _("A forced bid is the dealer's: %(dealer)s deals this hand."),
        "same_partnership": _(
            "%(seat)s is a partner of the player who entered this hand: a player of "
            "%(team)s confirms it."
        ),
        "pending_title": _("Hand %(number)s: to be confirmed"),
        "pending_help": _(
            "A player of %(team)s checks the hand and confirms it by choosing their seat."
        ),
        "not_right": _("Not right: enter it again"),
        "undo_label": _("Undo hand %(number)s"),
        "undo_again": _("Tap again to undo hand %(number)s"),
        "ns": _("North–South"),
        "ew": _("East–West"),
        "seat0": _("North"),
        "seat1": _("East"),
        "seat2": _("South"),
        "seat3": _("West"),
        "clock_ten": _("10 minutes left"),
        "clock_five": _("5 minutes left"),
        "clock_one": _("Less than a minute left"),
        "clock_zero": _("Time: finish this hand"),
        "clock_paused": _("Clock paused"),
        "refused_device": _refused_text(),
        "error": _("Something went wrong on the server; the hand is kept and will be sent again."),
    }


def _hands_wait(request: HttpRequest, now: TableNow) -> bool:
    """Whether a hand entered on this page waits for the other partnership: the event's rule
    as the gate rules it for who is signed in (an organiser's hands count at once)."""
    if now.game is None or not request.user.is_authenticated:
        return now.event.verification
    try:
        ruling = rule_for(game=now.game, actor=Actor.of(request.user), step=Step.ENTER)
    except KaiserError:  # the device's code writes, not its user's role
        return now.event.verification
    return ruling.verify


def _board_context(request: HttpRequest, now: TableNow) -> dict[str, Any]:
    game = now.game
    event = now.event
    hands_wait = _hands_wait(request, now)
    context: dict[str, Any] = {
        "table": now.table,
        "event": event,
        "now": now,
        "club_night": event.kind == EventKind.CLUB_NIGHT,
        "verification": hands_wait,
        "state": page_state(now, verification=hands_wait),
    }
    if game is None:
        return context
    rules = game_rules(game)
    # The game's result as every surface shows it (its pairing was read with it: no query).
    result = game_result(game)
    context.update(
        {
            "game": game,
            "rules": rules,
            "seats": seats(game),
            "sheet": board_sheet(now),
            "choices": form_choices(rules),
            "ns_name": team_name("ns"),
            "ew_name": team_name("ew"),
            "raised_target": rules.raised_target,
            "target_raised": rules.raised_target is not None and game.target == rules.raised_target,
            "result": result,
            "result_said": result.sentence(team_name("ns"), team_name("ew")),
            "may_undo": now.may_undo,
        }
    )
    if now.pending is not None:
        pending = now.pending
        context["pending_row"] = sheet_row(pending)
        context["pending_entry"] = entry_json(pending)
        entered = pending.entered_by_seat
        context["pending_entered"] = entered
        context["confirm_team"] = (
            team_name("ew" if entered in (0, 2) else "ns") if entered is not None else ""
        )
        # Only the other partnership may confirm: its two seats (all four if no seat is known).
        context["confirm_seats"] = [
            s for s in context["seats"] if entered is None or s["seat"] % 2 != entered % 2
        ]
    return context


def _answer(request: HttpRequest, now: TableNow, **extra: Any) -> dict[str, Any]:
    context = _board_context(request, now)
    html = render_to_string("table/_board.html", context, request=request)
    return {"board": html, "state": context["state"], **extra}


# --- The JSON endpoints -------------------------------------------------------------------------

Endpoint = Callable[[HttpRequest, Table, Access, dict[str, Any]], dict[str, Any]]


def json_endpoint(
    method: str, refused: Callable[[HttpRequest, Table | None], str]
) -> Callable[[Endpoint], View]:
    """``method`` only; the table found and its access checked (else refused with
    ``refused``); a POST's JSON body read; every refusal answered as the API answers one."""

    def decorate(view: Endpoint) -> View:
        @wraps(view)
        @never_cache
        @json_methods(method)
        def wrapped(request: HttpRequest, table_id: int) -> HttpResponse:
            table = _table(table_id)
            access = _allowed(request, table)
            try:
                if table is None or access is None:
                    raise NotAllowed(refused(request, table))
                data = read.body(request) if method == "POST" else {}
                answer = view(request, table, access, data)
            except KaiserError as exc:
                return error_response(exc, message=_reader_text(exc))
            return JsonResponse(answer)

        return wrapped

    return decorate


table_reader = json_endpoint("GET", lambda request, table: _refused_text())
table_endpoint = json_endpoint("POST", _write_refused_text)


def no_such_endpoint(request: HttpRequest, **path: str) -> HttpResponse:
    """An address below a table page that none of its endpoints answers: JSON, as they do."""
    return error_response(NotFound(N_("There is nothing at this address of the table page.")))


@table_reader
def board(
    request: HttpRequest, table: Table, access: Access, data: dict[str, Any]
) -> dict[str, Any]:
    return _answer(request, table_now(table=table))


@table_reader
def state(
    request: HttpRequest, table: Table, access: Access, data: dict[str, Any]
) -> dict[str, Any]:
    now = table_now(table=table)
    return {"state": page_state(now, verification=table.event.verification)}


# --- Writes ------------------------------------------------------------------------------------


def _reader_text(exc: KaiserError) -> str:
    """The refusal in the reader's language. Two are worded for the players at the table (an
    entry that crossed another, a repeated id): the services' own sentences name hand numbers
    and ids the table's players did not type."""
    if isinstance(exc, StaleGame):
        return _(
            "The game moved on meanwhile: a hand was entered or corrected elsewhere. Check the "
            "score sheet, then enter this hand again if it is still missing."
        )
    if isinstance(exc, ClientIdReused):
        return _("This entry's id was already used for another hand: enter the hand again.")
    return exc.message


def _actor(request: HttpRequest, table: Table, access: Access) -> Actor:
    """The device holds the table's code, or its user a role in the event's club (or both)."""
    return Actor(
        user=request.user,
        table_id=table.id if access.by_code else None,
        label=writer_label(request, table, access),
    )


@table_endpoint
def preview(
    request: HttpRequest, table: Table, access: Access, data: dict[str, Any]
) -> dict[str, Any]:
    game_shown = read.whole_number(data, "game_id")
    before, after = verification.hand_preview(
        game=table_current(table=table).game, entry=read.hand_entry(data), game_shown=game_shown
    )
    html = render_to_string("table/_preview.html", preview_context(before, after), request=request)
    return {"preview": html}


@table_endpoint
def hands(
    request: HttpRequest, table: Table, access: Access, data: dict[str, Any]
) -> dict[str, Any]:
    client_id = read.client_id(data)
    game_shown = read.whole_number(data, "game_id")
    now = table_current(table=table)
    recorded = play.hand_record_by(
        actor=_actor(request, table, access),
        game=now.game,
        game_shown=game_shown,
        entry=read.hand_entry(data),
        client_id=client_id,
        number=read.optional_number(data, "number"),
        entered_by_seat=read.optional_seat(data, "entered_by_seat"),
    )
    return _answer(
        request,
        table_after_hand(now=now, recorded=recorded),
        created=recorded.created,
        number=recorded.hand.number,
        pending=recorded.hand.status == "pending",
    )


@table_endpoint
def confirm(
    request: HttpRequest, table: Table, access: Access, data: dict[str, Any]
) -> dict[str, Any]:
    game_shown = read.whole_number(data, "game_id")
    play.hand_confirm_by(
        actor=_actor(request, table, access),
        game=table_current(table=table).game,
        game_shown=game_shown,
        number=read.whole_number(data, "number"),
        seat=read.seat(data, "seat"),
    )
    return _answer(request, table_now(table=table))


@table_endpoint
def discard(
    request: HttpRequest, table: Table, access: Access, data: dict[str, Any]
) -> dict[str, Any]:
    game_shown = read.whole_number(data, "game_id")
    game = table_current(table=table).game
    number = read.whole_number(data, "number")
    discarded = play.hand_discard_by(
        actor=_actor(request, table, access),
        game=game,
        game_shown=game_shown,
        number=number,
        client_id=read.client_id(data),
        reason=str(data.get("reason", "")),
    )
    return _answer(request, table_now(table=table), discarded=discarded is not None)


@table_endpoint
def undo(
    request: HttpRequest, table: Table, access: Access, data: dict[str, Any]
) -> dict[str, Any]:
    game_shown = read.whole_number(data, "game_id")
    game = table_current(table=table).game
    number = read.whole_number(data, "number")
    undone = play.hand_undo_by(
        actor=_actor(request, table, access),
        game_id=None if game is None else game.id,
        game_shown=game_shown,
        number=number,
        client_id=read.client_id(data),
        reason=str(data.get("reason", "")),
    )
    return _answer(request, table_now(table=table), undone=undone is not None)


@table_endpoint
def acknowledge(
    request: HttpRequest, table: Table, access: Access, data: dict[str, Any]
) -> dict[str, Any]:
    game_acknowledge_by(
        actor=_actor(request, table, access),
        table=table,
        game_id=read.whole_number(data, "game_id"),
        team=read.team(data),
    )
    return _answer(request, table_now(table=table))


# --- The service worker --------------------------------------------------------------------------


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """Served from ``/table/`` so that its scope covers the table pages; it names the hashed
    static files it keeps, so a new release replaces them."""
    assets = [
        static("table/table.css"),
        static("table/table.js"),
        static("table/queue.js"),
        static("table/clock.js"),
    ]
    response = render(
        request,
        "table/sw.js",
        {"assets": assets, "version": hashlib.sha256("|".join(assets).encode()).hexdigest()[:12]},
        content_type="application/javascript",
    )
    response["Cache-Control"] = "no-cache"
    return response
