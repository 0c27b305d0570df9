"""Public pages of an event: no sign-in, unless the organiser turned them off (then 404).

Every page is a full page the first time and, every 3 seconds, its live part again through
htmx (``?part=1``). The part carries an ETag made from the version of what it shows (the
event's live counter; the standings' results counter; one query); a browser that already has
it gets 304 with nothing else read, so an idle hall of phones costs one small query each per
poll, and a confirmed hand shows on the next one. A part is the same for every reader of one
language, so a shared cache in front may keep it for a moment (``kaiser_club/http_cache.py``);
so is a full page read by someone not signed in (rendered with nothing of its reader in it:
``shared_page``). HEAD is answered as GET.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import django_tables2 as tables
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response
from django.utils.http import quote_etag, urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from kaiser_club.http_cache import shareable, shared_if_no_reader, shared_reader
from scoring.score_sheet import score_sheet

from ..choices import Tiebreak
from ..models import Event
from ..naming import first_stage_title, remember_rounds
from ..pairing.pools import pool_name
from ..standings import event_tables, event_versions, season_table, season_version
from ..standings.versions import Versions
from . import selectors
from .bracket import draw
from .stored_pages import mark_storable
from .tables import PlacingsTable, StandingsTable, csv_response
from .wording import GameLine, game_line, now_playing, placing_label, player_name

POLL_SECONDS = 3
# Rendered parts are kept under their ETag (which names the event's version): a part is
# rendered once per change, whoever asks first, and served from the cache to the rest of the
# hall. Keys are versioned; the timeout only clears old versions. The one stale answer: while
# a request renders a new version, the others get the latest rendering (see _render_part).
PART_CACHE_SECONDS = 600
RENDER_LOCK_SECONDS = 30  # a rendering that died leaves its lock no longer than this
PROJECTOR_TABLES_PER_PANEL = 12
PROJECTOR_ROWS_PER_PANEL = 10
LEADERS = 5  # the home page's box: the top five places (and every team sharing one)
BRACKET_PLACES = 4  # under the bracket: the places it has decided so far, down to 4th

Builder = Callable[[Versions], dict[str, Any]]


def _event(event_id: int) -> Event:
    event = selectors.public_event(event_id)
    if event is None:
        raise Http404(_("There is no public page for this event."))
    return event


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=10).hexdigest()


def _etag(request: HttpRequest, version: str) -> str:
    return quote_etag(_digest(f"{version}|{get_language()}|{request.get_full_path()}"))


def _part_name(request: HttpRequest) -> str:
    """Which part this is, the same for the page and for its part, whatever the order of
    the query's fields."""
    query = request.GET.copy()
    query.pop("part", None)
    fields = urlencode(sorted(query.lists()), doseq=True)
    return f"{get_language()}|{request.path}?{fields}"


def _part_etag(request: HttpRequest, version: str) -> str:
    return quote_etag(_digest(f"{version}|{_part_name(request)}"))


def _poll_url(request: HttpRequest) -> str:
    query = request.GET.copy()
    query["part"] = "1"
    return f"{request.path}?{query.urlencode()}"


def _without_part(request: HttpRequest) -> None:
    """The part is rendered as the page would be: links (table sorting) must not keep
    ``part``, or a click would open the bare part."""
    query: QueryDict = request.GET.copy()
    query.pop("part", None)
    request.GET = query  # type: ignore[assignment]


def _headers(request: HttpRequest, response: HttpResponse, *, part: bool = False) -> HttpResponse:
    """A live part is the same for every reader of one language: a shared cache may keep it.
    So is a full page, unless its reader is signed in or has a message waiting."""
    if part:
        shareable(response)
    else:
        shared_if_no_reader(request, response)
    return response


def _reader_context(request: HttpRequest) -> dict[str, Any]:
    """Whether a full page may show nothing of its reader: then base.html reads no session,
    token or message, and the page is the same for every reader of its language."""
    return {"shared_page": shared_reader(request)}


def _page_etag(response: HttpResponse) -> HttpResponse:
    """A full page's strong ETag, from its bytes (the same rendering, the same tag). An
    event's page is answered 304 by ``stored_pages`` (``_whole_page`` for the others)."""
    response["ETag"] = quote_etag(hashlib.blake2b(response.content, digest_size=10).hexdigest())
    return response


def _whole_page(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A full page with its ETag, or 304 when the browser (or a cache) holds those bytes."""
    _page_etag(response)
    answer = get_conditional_response(request, etag=response["ETag"], response=response)
    return answer if answer is not None else response


def live_page(
    request: HttpRequest,
    event: Event,
    template: str,
    build: Builder,
    *,
    page: str = "public/page.html",
    results_only: bool = False,
) -> HttpResponse:
    """A page whose ``template`` part refreshes itself. ``build`` makes the part's context.

    The part is rendered once per version of what it shows (``results_only``: what the
    results counter covers, not every hand) and kept under its ETag; the full page wraps the
    kept part, so a hall of phones opening the standings reads one version query, not the
    standings."""
    versions = event_versions(event)
    part = request.GET.get("part") == "1"
    etag = _part_etag(request, versions.results if results_only else versions.live)
    if part:
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            return _headers(request, not_modified, part=True)
    _without_part(request)
    part_html = cache.get(_part_key(etag))
    current = True  # what is served is this version (not the latest rendering of another)
    if part_html is None:
        served, part_html = _render_part(request, event, template, build, versions, etag)
        if part and served != etag:  # the latest rendering: perhaps the one this phone has
            not_modified = get_conditional_response(request, etag=served)
            if not_modified is not None:
                return _headers(request, not_modified, part=True)
        current = served == etag
        etag = served
    if part:
        response = HttpResponse(part_html)
        response["ETag"] = etag
        return _stored_if(current, _headers(request, response, part=True))
    context = {
        "event": event,
        "part_html": mark_safe(part_html),  # rendered by our own template, escaped there
        "poll_url": _poll_url(request),
        "poll_seconds": POLL_SECONDS,
        **_reader_context(request),
    }
    response = _page_etag(render(request, page, context))
    return _stored_if(current, _headers(request, response))


def _stored_if(current: bool, response: HttpResponse) -> HttpResponse:
    """Offers the answer to ``stored.StoredPagesMiddleware`` when it shows the version read."""
    return mark_storable(response) if current else response


def _render_part(
    request: HttpRequest,
    event: Event,
    template: str,
    build: Builder,
    versions: Versions,
    etag: str,
) -> tuple[str, str]:
    """(ETag, HTML) of the part: rendered here, unless another request is rendering this
    version right now; then the latest rendering is served (one hand behind for one poll)
    rather than every phone in the hall building the same standings at once."""
    latest_key = f"kaiser:public:latest:{_digest(_part_name(request))}"
    lock_key = f"{_part_key(etag)}:rendering"
    locked = cache.add(lock_key, 1, RENDER_LOCK_SECONDS)
    if not locked:
        latest = cache.get(latest_key)
        if latest is not None:
            return latest
    try:
        html = render_to_string(template, {"event": event, **build(versions)}, request)
        cache.set_many({_part_key(etag): html, latest_key: (etag, html)}, PART_CACHE_SECONDS)
    finally:
        if locked:
            cache.delete(lock_key)
    return etag, html


def _part_key(etag: str) -> str:
    return f"kaiser:public:part:{etag.strip(chr(34))}"


def _lines(pairings: list[Any]) -> list[GameLine]:
    return [game_line(p) for p in pairings]


def _standings_tables(
    request: HttpRequest, event: Event, versions: Versions
) -> tuple[Any, list[tuple[str, Any]]]:
    """The event's standings and the tables that show them (label, table)."""
    standings = event_tables(event=event, version=versions.results)
    playing = now_playing(selectors.now_playing_rows(event))
    sections: list[tuple[str, Any]] = []
    common: dict[str, Any] = {"event_id": event.id, "now_playing": playing}
    if standings.kind in ("teams", "players"):
        table = StandingsTable(
            standings.rows,
            order_by_metrics=standings.order_by,
            players=standings.kind == "players",
            **common,
        )
        sections.append(("", table))
    for number, rows in standings.pools.items():
        table = StandingsTable(
            rows, order_by_metrics=standings.order_by, prefix=f"p{number}-", **common
        )
        sections.append((_("Pool %(name)s") % {"name": pool_name(number - 1)}, table))
    if standings.kind == "staged":
        table = StandingsTable(
            standings.first_stage, order_by_metrics=standings.order_by, prefix="s-", **common
        )
        sections.append((first_stage_title(event), table))
    if standings.kind == "placings" or standings.knockout:
        sections.append((_("Final placings"), PlacingsTable(standings.placings, **common)))
    return standings, sections


def _configure(request: HttpRequest, table: Any) -> Any:
    tables.RequestConfig(request, paginate=False).configure(table)
    return table


def _order_names(names: list[str]) -> list[str]:
    labels = dict(Tiebreak.choices)
    return [str(labels.get(name, name)) for name in names]


@require_safe
def event_home(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)

    def build(versions: Versions) -> dict[str, Any]:
        rounds = selectors.rounds_of(event)
        current = selectors.current_round(rounds)
        playing = _lines(selectors.live_pairings(event))
        standings = event_tables(event=event, version=versions.results)
        return {
            "rounds": rounds,
            "current": current,
            "playing": playing,
            "clock": selectors.round_clock([line.pairing for line in playing]),
            "leaders": standings.top(LEADERS),
            "standings_kind": standings.kind,
            "entries": selectors.entries_of(event) if not rounds else [],
        }

    return live_page(request, event, "public/_home.html", build)


@require_safe
def standings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)

    def build(versions: Versions) -> dict[str, Any]:
        found, sections = _standings_tables(request, event, versions)
        return {
            "sections": [(label, _configure(request, table)) for label, table in sections],
            "order_names": _order_names(found.order_by),
            "kind": found.kind,
        }

    return live_page(request, event, "public/_standings.html", build, results_only=True)


@require_safe
def standings_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)
    _, sections = _standings_tables(request, event, event_versions(event))
    for _label, table in sections:
        _configure(request, table)
    return _headers(request, csv_response(f"standings-{event.id}.csv", sections))


@require_safe
def bracket(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)

    def build(versions: Versions) -> dict[str, Any]:
        rows = selectors.bracket_rows(event)
        remember_rounds(event, {p.round for p in rows if p.round_id})
        drawing = draw(rows, event)
        placed: list[Any] = []
        if drawing.boxes:
            placed = event_tables(event=event, version=versions.results).top(BRACKET_PLACES)
        return {"drawing": drawing, "placed": placed}

    return live_page(request, event, "public/_bracket.html", build)


@require_safe
def round_tables(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = _event(event_id)

    def build(versions: Versions) -> dict[str, Any]:
        rounds = selectors.rounds_of(event)
        chosen = next((r for r in rounds if r.number == number), None)
        if chosen is None:
            raise Http404(_("This event has no round %(n)s.") % {"n": number})
        lines = _lines(selectors.pairings_of_round(chosen))
        return {
            "rounds": rounds,
            "round": chosen,
            "lines": lines,
            "clock": selectors.round_clock([line.pairing for line in lines]),
        }

    return live_page(request, event, "public/_round.html", build)


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """Every event whose pages are public: how a player finds the standings without a link."""
    context = {"events": selectors.public_events(), **_reader_context(request)}
    return _headers(request, _whole_page(request, render(request, "public/index.html", context)))


@require_safe
def game_sheet(request: HttpRequest, event_id: int, pairing_id: int) -> HttpResponse:
    event = _event(event_id)

    def build(versions: Versions) -> dict[str, Any]:
        pairing = selectors.pairing_with_hands(event, pairing_id)
        if pairing is None:
            raise Http404(_("This event has no such game."))
        game = pairing.game
        sheet = score_sheet(game, getattr(game, "sheet", [])) if game is not None else None
        seats = []
        if game is not None:
            seats = [
                (_("North"), player_name(game.north)),
                (_("East"), player_name(game.east)),
                (_("South"), player_name(game.south)),
                (_("West"), player_name(game.west)),
            ]
        return {"line": game_line(pairing), "game": game, "sheet": sheet, "seats": seats}

    return live_page(request, event, "public/_game.html", build)


@require_safe
def live(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)

    def build(versions: Versions) -> dict[str, Any]:
        lines = _lines(selectors.live_pairings(event))
        return {"lines": lines, "clock": selectors.round_clock([x.pairing for x in lines])}

    return live_page(request, event, "public/_live.html", build)


@require_safe
def team(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    event = _event(event_id)

    def build(versions: Versions) -> dict[str, Any]:
        entry = selectors.entry_of(event, entry_id)
        if entry is None:
            raise Http404(_("This event has no such team."))
        standings = event_tables(event=event, version=versions.results)
        row = next((r for r in standings.placings if r.id == entry.id), None)
        players = []
        if entry.team is not None:
            players = [player_name(entry.team.player_one), player_name(entry.team.player_two)]
        elif entry.player is not None:
            players = [player_name(entry.player)]
        return {
            "entry": entry,
            "row": row,
            "placing": placing_label(row.placing) if row is not None else "",
            "players": players,
            "lines": _lines(selectors.pairings_of_entry(entry)),
        }

    return live_page(request, event, "public/_team.html", build)


@require_safe
def player(request: HttpRequest, event_id: int, player_id: int) -> HttpResponse:
    event = _event(event_id)

    def build(versions: Versions) -> dict[str, Any]:
        found = selectors.public_player(player_id)
        if found is None:
            raise Http404(_("This player's page is not public."))
        lines = _lines(selectors.pairings_of_player(event, found))
        standings = event_tables(event=event, version=versions.results)
        row = next((r for r in standings.rows if r.id == found.id), None)
        return {
            "player": found,
            "lines": lines,
            "row": row if standings.kind == "players" else None,
        }

    return live_page(request, event, "public/_player.html", build)


@require_safe
def projector(request: HttpRequest, event_id: int) -> HttpResponse:
    event = _event(event_id)

    def build(versions: Versions) -> dict[str, Any]:
        rounds = selectors.rounds_of(event)
        current = selectors.current_round(rounds)
        lines = _lines(selectors.pairings_of_round(current)) if current else []
        standings = event_tables(event=event, version=versions.results)
        rows = standings.placings
        return {
            "current": current,
            "clock": selectors.round_clock([line.pairing for line in lines]),
            "table_panels": _chunks(lines, PROJECTOR_TABLES_PER_PANEL),
            "standing_panels": _chunks(rows, PROJECTOR_ROWS_PER_PANEL),
            "standings_kind": standings.kind,
        }

    return live_page(request, event, "public/_projector.html", build, page="public/projector.html")


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


@require_safe
def season(request: HttpRequest, season_id: int) -> HttpResponse:
    found = selectors.public_season(season_id)
    if found is None:
        raise Http404(_("There is no public leaderboard for this season."))
    version = season_version(found)
    part = request.GET.get("part") == "1"
    etag = None
    if part:
        etag = _etag(request, version)
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            return _headers(request, not_modified, part=True)
        _without_part(request)
    rows = season_table(season=found, version=version)
    table = StandingsTable(
        rows,
        event_id=0,
        order_by_metrics=found.tiebreaks,
        now_playing=now_playing([]),  # no games in a leaderboard
        players=True,
    )
    table.exclude = ("now", "seed", "buchholz")
    context = {
        "season": found,
        "table": _configure(request, table),
        "events": selectors.season_events(found),
        "order_names": _order_names(found.tiebreaks),
        "part_template": "public/_season.html",
        "poll_url": _poll_url(request) if not part else "",
        "poll_seconds": POLL_SECONDS,
        **_reader_context(request),
    }
    response = render(request, "public/_season.html" if part else "public/season.html", context)
    if etag is not None:
        response["ETag"] = etag
    else:
        response = _whole_page(request, response)
    return _headers(request, response, part=part)
