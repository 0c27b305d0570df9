"""Two clubs everywhere: a write made from club A never reaches club B.

Club A's organiser (or club admin, where the route needs that role) sends every write route of
the site (the API, the organiser's pages, the table page's endpoints) a body or an address that
names club B's things: players, teams, games, entries, pairings, tables, seasons, events, report
jobs, members. Each row says the answer expected (a 4xx, with its sentence where the answer
shows one) and the database is compared before and after, every row of every model a write
could touch (tests/two_clubs.py): nothing may change.

One action goes on by design without club B's things: the event import makes its own
records where a file names what the importer does not organise (a player matched by email only
among their clubs' members, a team of another club made in the event's club), and says so in a
note. Its rows (``through``) expect the success and the note, and check that no row of club B
changes and that no new row names one.

Pages keep their way of refusing: a form that does not accept a value comes back with the
field's error (200, or 400 where the page says so), and a service's refusal is a message on the
page the organiser is sent back to (302). Where a row has ``ok``, the same request naming club
A's own things instead (every ``b_…`` id replaced by its ``a_…`` twin) is answered with that
status and no error message: the refusal comes from club B's thing, not from a bad request.

A row that another branch has still to make refuse is marked xfail(strict=True) with the
branch named (none now).

A guard fails when a write route (POST, PUT, PATCH or DELETE under /api/, a page that takes a
POST, a table endpoint) has no row here and is not in ``EXEMPT`` with its reason.
"""

from __future__ import annotations

import copy
import inspect
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from django.contrib.messages import get_messages
from django.contrib.messages.constants import ERROR
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.utils.html import escape
from rest_framework.test import APIClient

from kaiser_club.request_limits import ID_IN_PATH
from tests.two_clubs import TwoClubs, changes, owned_by, reaching, snapshot, two_clubs
from tournaments.models import Substitution, Table

Ids = dict[str, Any]
Body = Callable[[Ids], dict[str, Any]]
WRITES = ("post", "put", "patch", "delete")


@dataclass(frozen=True)
class Row:
    name: str
    door: str  # "api" (JSON), "page" (a form post) or "table" (the table page's JSON)
    method: str
    path: str  # formatted with the two clubs' ids (tests/two_clubs.py, Side.ids)
    status: int
    says: str | None = None  # the sentence of the answer (JSON detail, the page, its message)
    body: Body | None = None
    actor: str = "organiser"  # of club A: "organiser", "club_admin", or "tablet" (A's table 1)
    ok: int | None = None  # the status when the request names club A's own things
    # The action goes on without club B's things (the event import makes its own records):
    # ``status`` is its success, ``says`` a note of its answer, and the check is that no row of
    # club B changes and no new row names one.
    through: bool = False
    xfail: str = ""  # the reason, when the refusal is another branch's to make


# --- Bodies ------------------------------------------------------------------------------------


def _hand(ids: Ids) -> dict[str, Any]:
    return {
        "bidder": 1,
        "bid": 7,
        "contract": "trump",
        "trump": "clubs",
        "bidding_team_tricks": 5,
        "five_hearts": "ew",
        "three_spades": "ns",
        "client_id": "6c1b2f4e-0f47-4f7e-9a53-1c5e0e8b9d01",
    }


def _table_hand(game_key: str) -> Body:
    def body(ids: Ids) -> dict[str, Any]:
        entry = {k: v for k, v in _hand(ids).items() if k != "client_id"}
        return {
            "game_id": ids[game_key],
            "client_id": "0b7e2d59-5b8e-4a34-8f8b-1d0f3f6f7c11",
            "entered_by_seat": 0,
            "entry": entry,
        }

    return body


def _table_other(game_key: str) -> Body:
    return lambda ids: {
        "game_id": ids[game_key],
        "number": 1,
        "seat": 1,
        "team": "ns",
        "client_id": "0b7e2d59-5b8e-4a34-8f8b-1d0f3f6f7c11",
    }


def _event_file(ids: Ids, *, club: str = "a", email_of: str = "", team_in_b: bool = False) -> Any:
    """An export of club A's event, to import as a copy: as it is, or moved to another club,
    or with a player's email changed to ``email_of``, or with a team registered in club B."""
    from tournaments.models import Event
    from tournaments.transfer import event_export

    data = copy.deepcopy(event_export(event=Event.objects.get(id=ids["a_event"])))
    data["event"]["name"] = "A copy"
    slug = ids[f"{club}_slug"]
    if slug != data["event"]["club"]:
        data["clubs"].append({"slug": slug, "name": ids[f"{club}_club_name"]})
        data["event"]["club"] = slug
    if email_of:
        data["players"][0]["email"] = email_of
    if team_in_b:
        data["clubs"].append({"slug": ids["b_slug"], "name": ids["b_club_name"]})
        data["teams"][0]["club"] = ids["b_slug"]
    return data


def _upload(data: Any) -> dict[str, Any]:
    return {"file": SimpleUploadedFile("event.json", json.dumps(data).encode(), "text/json")}


def _event_form(ids: Ids, **extra: Any) -> dict[str, Any]:
    return {
        "kind": "tournament",
        "name": "Spring Open",
        "date": "2027-04-03",
        "format": "swiss",
        "rounds": 3,
        "seeding": "manual",
        "tiebreaks": "wins, point_difference",
        "forfeit_winner_score": 52,
        "forfeit_loser_score": 0,
        "grand_final_reset": "on",
        "verification": "on",
        "public_pages": "on",
        **extra,
    }


def _settings_form(ids: Ids, **extra: Any) -> dict[str, Any]:
    form = _event_form(ids, settings="1", name="Fall Swiss (renamed)", date="2026-10-03")
    form.pop("kind")
    return {**form, **extra}


def _new_event(ids: Ids, **extra: Any) -> dict[str, Any]:
    return {"name": "Spring Open", "date": "2027-04-03", "rounds": 3, **extra}


def _sign_up(ids: Ids) -> dict[str, Any]:
    return {
        "players": [
            {"name": "Cy Newcomer", "email": "cy.newcomer@example.org"},
            {"name": "Di Newcomer", "email": "di.newcomer@example.org"},
        ]
    }


def _sign_up_form(ids: Ids) -> dict[str, Any]:
    """The sign-up page's form, as a person sends it: its stamp older than the fastest a person
    types (tournaments/registration_limits.py)."""
    from tournaments.registration_limits import FASTEST_SECONDS, form_stamp

    with mock.patch("time.time", return_value=time.time() - FASTEST_SECONDS - 5):
        stamp = form_stamp()
    return {
        "player_1_name": "Cy Newcomer",
        "player_1_email": "cy.newcomer@example.org",
        "player_2_name": "Di Newcomer",
        "player_2_email": "di.newcomer@example.org",
        "stamp": stamp,
    }


def _push_subscription(ids: Ids) -> dict[str, Any]:
    return {
        "endpoint": "https://push.example.org/send/1",
        "keys": {
            "p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA",
            "auth": "tBHItJI5svbpez7KI4CCXg",
        },
    }


# The organiser's word on a sign-up, its body, and the answer for club A's own pending one.
_SIGN_UP_ACTIONS: list[tuple[str, Body | None, int | None]] = [
    ("approve", None, 200),
    ("refuse", lambda i: {"reason": "Full"}, 200),
    ("promote", None, 200),
    ("move", lambda i: {"place": 1}, None),  # A's sign-up is pending, not waiting
]


# --- The rows ----------------------------------------------------------------------------------

NO_GAME = "There is no game {b_game} that you can see."
NO_PAIRING_GAME = "There is no game {b_pairing_game} that you can see."
NO_EVENT = "There is no event {b_event} that you can see."
NOT_KNOWN = (
    "Player {b_player} is not a member or a known visitor of {a_club_name}: choose one of its "
    "players, or type a visitor in by name."
)
# An id in an API body is looked for among the user's clubs' rows only (kaiser_club/api/
# visible.py): club B's is answered as an id that does not exist, naming nothing of club B.
NO_PLAYER = (
    "There is no player {b_player} that your clubs know: choose one of their members, former "
    "members or visitors."
)
NO_CLUB = "There is no club {b_club} that you are a member of."
NO_TEAM = "There is no team {b_team} that you can see."
NO_SEASON = "There is no season {b_season} that you can see."
IMPORTED_TEAM = (
    "Team 1: club '{b_club_name}' is not one you organise; the team becomes a team of "
    "{a_club_name}."
)
NOT_A_CHOICE = "Select a valid choice. That choice is not one of the available choices."
DEVICE = "This device may not write this table: scan the table's QR code or type its code again."
MOVED_ON = (
    "This table has moved on to another game since this was entered. Check the score sheet of "
    "the game it was for with the organiser."
)
NO_SIGN_UP = "There is no sign-up for event {b_event}."
NO_SIGN_UP_PAGE = "There is no sign-up for this event."
NO_LINK = "This link is not valid (any more): ask the organiser for a new one."
G = "/api/games/"
AE = "/api/events/{a_event}/"
BE = "/api/events/{b_event}/"
PE = "/events/{a_event}/"
PB = "/events/{b_event}/"
OWN_B = "/e/{a_event}/me/{b_secret}/"  # club B's registrant's private link, under A's event

ROWS: list[Row] = [
    # --- The API: teams and games (scoring) ---
    Row(
        "team of club B's players",
        "api",
        "post",
        "/api/teams/",
        400,
        NO_PLAYER,
        lambda i: {
            "club": i["a_club"],
            "name": "Raiders",
            "player_one_id": i["b_player"],
            "player_two_id": i["b_player2"],
        },
        ok=201,
    ),
    Row(
        "team registered in club B",
        "api",
        "post",
        "/api/teams/",
        400,
        NO_CLUB,
        lambda i: {
            "club": i["b_club"],
            "name": "Raiders",
            "player_one_id": i["b_player"],
            "player_two_id": i["b_player2"],
        },
        ok=201,
    ),
    Row(
        "game with club B's team",
        "api",
        "post",
        G,
        400,
        NO_TEAM,
        lambda i: {
            "club": i["a_club"],
            "ns_team": i["b_team"],
            "ew_team": i["a_team2"],
            "first_dealer": 0,
        },
        ok=201,
    ),
    Row(
        "game started in club B",
        "api",
        "post",
        G,
        400,
        NO_CLUB,
        lambda i: {
            "club": i["b_club"],
            "ns_team": i["b_team"],
            "ew_team": i["b_team2"],
            "first_dealer": 0,
        },
        ok=201,
    ),
    Row(
        "game seating club B's player",
        "api",
        "post",
        G,
        400,
        NO_PLAYER,
        lambda i: {
            "club": i["a_club"],
            "ns_team": i["a_team"],
            "ew_team": i["a_team2"],
            "first_dealer": 0,
            "north": i["b_player"],
            "south": i["a_player2"],
            "east": i["a_player3"],
            "west": i["a_player4"],
        },
        ok=201,
    ),
    Row("hand at club B's game", "api", "post", G + "{b_game}/hands/", 404, NO_GAME, _hand, ok=201),
    Row("undo at club B's game", "api", "post", G + "{b_game}/undo/", 404, NO_GAME, ok=200),
    Row(
        "correction at club B's game",
        "api",
        "put",
        G + "{b_game}/hands/1/",
        404,
        NO_GAME,
        lambda i: {**_hand(i), "reason": "typo"},
        ok=200,
    ),
    Row("time called at club B's game", "api", "post", G + "{b_game}/call-time/", 404, NO_GAME),
    Row(
        "forfeit of club B's game",
        "api",
        "post",
        G + "{b_game}/forfeit/",
        404,
        NO_GAME,
        lambda i: {"team": "ew"},
        ok=200,
    ),
    Row(
        "clock of club B's game paused",
        "api",
        "post",
        G + "{b_pairing_game}/pause/",
        404,
        NO_PAIRING_GAME,
        ok=200,
    ),
    Row(
        "clock of club B's game resumed",
        "api",
        "post",
        G + "{b_pairing_game}/resume/",
        404,
        NO_PAIRING_GAME,
    ),
    Row(
        "minutes added to club B's game",
        "api",
        "post",
        G + "{b_pairing_game}/add-minutes/",
        404,
        NO_PAIRING_GAME,
        lambda i: {"minutes": 5},
        ok=200,
    ),
    # --- The API: members ---
    Row(
        "member added to club B",
        "api",
        "post",
        "/api/clubs/{b_club}/members/",
        404,
        "There is no club {b_club} that you are a member of.",
        lambda i: {"name": "Newcomer", "role": "player"},
        actor="club_admin",
        ok=201,
    ),
    Row(
        "club B's member's role changed through club A",
        "api",
        "patch",
        "/api/clubs/{a_club}/members/{b_member}/",
        404,
        "{a_club_name} has no member {b_member}.",
        lambda i: {"role": "organiser"},
        actor="club_admin",
        ok=200,
    ),
    Row(
        "club B's member removed through club A",
        "api",
        "delete",
        "/api/clubs/{a_club}/members/{b_member}/",
        404,
        "{a_club_name} has no member {b_member}.",
        actor="club_admin",
        ok=204,
    ),
    Row(
        "club B's member's role changed in club B",
        "api",
        "patch",
        "/api/clubs/{b_club}/members/{b_member}/",
        404,
        "There is no club {b_club} that you are a member of.",
        lambda i: {"role": "organiser"},
        actor="club_admin",
        ok=200,
    ),
    # --- The API: events, seasons, import ---
    Row(
        "event created in club B",
        "api",
        "post",
        "/api/events/",
        400,
        NO_CLUB,
        lambda i: _new_event(i, club=i["b_club"]),
        ok=201,
    ),
    Row(
        "event in club B's season",
        "api",
        "post",
        "/api/events/",
        400,
        NO_SEASON,
        lambda i: _new_event(i, club=i["a_club"], season=i["b_season"]),
        ok=201,
    ),
    Row(
        "event moved into club B's season",
        "api",
        "patch",
        AE,
        400,
        NO_SEASON,
        lambda i: {"season": i["b_season"]},
        ok=200,
    ),
    Row(
        "club B's event's settings",
        "api",
        "patch",
        BE,
        404,
        NO_EVENT,
        lambda i: {"venue": "Legion 45"},
        ok=200,
    ),
    Row(
        "club B's event's rules",
        "api",
        "patch",
        BE + "rules/",
        404,
        NO_EVENT,
        lambda i: {"changes": {"min_bid": 6}},
    ),
    Row("club B's event generated", "api", "post", BE + "generate/", 404, NO_EVENT, ok=202),
    Row(
        "season added to club B",
        "api",
        "post",
        "/api/seasons/",
        400,
        NO_CLUB,
        lambda i: {"club": i["b_club"], "name": "2027"},
        ok=201,
    ),
    Row(
        "import of an event of club B",
        "api",
        "post",
        "/api/events/import/",
        403,
        "The event's club, {b_club_name} ({b_slug}), is not a club you organise: only its "
        "organisers may import its events, and only staff an event of a club that is not on "
        "this server (the club is then created with the event).",
        lambda i: _event_file(i, club="b"),
        ok=201,
    ),
    Row(
        "import of club A's event that names club B's member (by email)",
        "api",
        "post",
        "/api/events/import/",
        201,
        None,  # the people list calls them new records; no row of club B is reached
        lambda i: _event_file(i, email_of=i["b_email"]),
        through=True,
    ),
    Row(
        "import of club A's event with a team of club B",
        "api",
        "post",
        "/api/events/import/",
        201,
        IMPORTED_TEAM,
        lambda i: _event_file(i, team_in_b=True),
        through=True,
    ),
    # --- The API: entries ---
    Row(
        "entry of club B's players",
        "api",
        "post",
        AE + "entries/",
        400,
        NO_PLAYER,
        lambda i: {"player_one": i["b_player"], "player_two": i["b_player2"]},
        ok=201,
    ),
    Row(
        "entry in club B's event",
        "api",
        "post",
        BE + "entries/",
        404,
        NO_EVENT,
        lambda i: {"player_one": i["b_spare"], "player_two": i["b_player2"]},
        ok=201,
    ),
    Row(
        "entries imported into club B's event",
        "api",
        "post",
        BE + "entries/import/",
        404,
        NO_EVENT,
        lambda i: {"csv": "player_one,player_two\nNew One,New Two\n"},
        ok=201,
    ),
    Row(
        "club B's entry changed through club A's event",
        "api",
        "patch",
        AE + "entries/{b_entry}/",
        404,
        "{a_event_name} has no entry {b_entry}.",
        lambda i: {"rating": 1500},
        ok=200,
    ),
    Row(
        "club A's entry given club B's player",
        "api",
        "patch",
        AE + "entries/{a_entry}/",
        400,
        NO_PLAYER.replace("{b_player}", "{b_spare}"),
        lambda i: {"player_one": i["b_spare"]},
        ok=200,
    ),
    Row(
        "club B's entry checked in through club A's event",
        "api",
        "post",
        AE + "entries/{b_entry}/check-in/",
        404,
        "{a_event_name} has no entry {b_entry}.",
        ok=200,
    ),
    Row(
        "club B's entry withdrawn through club A's event",
        "api",
        "post",
        AE + "entries/{b_entry}/withdraw/",
        404,
        "{a_event_name} has no entry {b_entry}.",
        ok=200,
    ),
    Row(
        "club B's entry reinstated through club A's event",
        "api",
        "post",
        AE + "entries/{b_entry}/reinstate/",
        404,
        "{a_event_name} has no entry {b_entry}.",
        ok=400,  # club A's own entry has not withdrawn
    ),
    # --- The API: rounds, pairings, tables ---
    Row(
        "club B's round started",
        "api",
        "post",
        BE + "rounds/1/start/",
        404,
        NO_EVENT,
        ok=200,
    ),
    *[
        Row(
            f"club B's round: {action}",
            "api",
            "post",
            BE + f"rounds/1/{action}/",
            404,
            NO_EVENT,
            body,
        )
        for action, body in (
            ("start-waiting", None),
            ("pause", None),
            ("resume", None),
            ("add-minutes", lambda i: {"minutes": 5}),
        )
    ],
    Row(
        "club B's entries swapped in club A's round",
        "api",
        "post",
        AE + "rounds/1/swap-teams/",
        400,  # the address is A's: the body names what the event does not hold
        "{a_event_name} has no entry {b_entry}.",
        lambda i: {"first": i["b_entry"], "second": i["b_entry2"]},
        ok=200,
    ),
    Row(
        "club B's games swapped in club A's round",
        "api",
        "post",
        AE + "rounds/1/swap-tables/",
        400,
        "{a_event_name} has no game {b_pairing}.",
        lambda i: {"first": i["b_pairing"], "second": i["b_pairing2"]},
        ok=200,
    ),
    Row(
        "club B's game forfeited through club A's event",
        "api",
        "post",
        AE + "pairings/{b_pairing}/forfeit/",
        404,
        "{a_event_name} has no game {b_pairing}.",
        lambda i: {"forfeiting": "away"},
        ok=200,
    ),
    Row(
        "club B's game's forfeit taken back through club A's event",
        "api",
        "post",
        AE + "pairings/{b_pairing}/forfeit-undo/",
        404,
        "{a_event_name} has no game {b_pairing}.",
        ok=400,  # club A's own game has no forfeit to take back
    ),
    *[
        Row(
            f"club B's game through club A's event: {action}",
            "api",
            "post",
            AE + f"pairings/{{b_pairing}}/{action}/",
            404,
            "{a_event_name} has no game {b_pairing}.",
            body,
            ok=ok,
        )
        for action, body, ok in (
            (
                "adjust",
                lambda i: {"winner": "home", "home_points": 52, "away_points": 0, "reason": "x"},
                None,  # A's game is still being played
            ),
            ("late", lambda i: {"late": True}, 200),
            ("bye-points", lambda i: {"points_for": 52, "points_against": 0}, None),
            ("clock", lambda i: {"action": "add", "minutes": 5}, None),
        )
    ],
    Row(
        "club B's player seated as a substitute at club A's game",
        "api",
        "post",
        AE + "pairings/{a_pairing}/substitute/",
        400,
        NOT_KNOWN,
        lambda i: {"replaced": i["a_pairing_north"], "substitute": i["b_player"]},
    ),
    Row(
        "club B's player replaced at club A's game",
        "api",
        "post",
        AE + "pairings/{a_pairing}/substitute/",
        400,
        "Player {b_player} does not sit at this game.",
        lambda i: {"replaced": i["b_player"], "substitute": i["a_spare"]},
    ),
    Row(
        "club B's game rolled back through club A's event",
        "api",
        "post",
        AE + "pairings/{b_pairing}/rollback/",
        404,
        "{a_event_name} has no game {b_pairing}.",
        lambda i: {"confirm": True},
    ),
    Row(
        "club B's hand corrected through club A's event",
        "api",
        "put",
        AE + "pairings/{b_pairing}/hands/1/",
        404,
        "{a_event_name} has no game {b_pairing}.",
        lambda i: {**_hand(i), "reason": "typo"},
        ok=200,
    ),
    Row("table added to club B's event", "api", "post", BE + "tables/", 404, NO_EVENT, ok=201),
    Row(
        "club B's table renewed through club A's event",
        "api",
        "post",
        AE + "tables/{b_table}/renew/",
        404,
        "{a_event_name} has no table {b_table}.",
        ok=200,
    ),
    # --- Pages: events, seasons, import ---
    Row(
        "event page: created in club B",
        "page",
        "post",
        "/events/new/",
        200,
        "Select a valid choice. {b_club} is not one of the available choices.",
        lambda i: _event_form(i, club=i["b_club"]),
        ok=302,
    ),
    Row(
        "event page: in club B's season",
        "page",
        "post",
        "/events/new/",
        200,
        NOT_A_CHOICE,
        lambda i: _event_form(i, club=i["a_club"], season=i["b_season"]),
        ok=302,
    ),
    Row(
        "event settings page: club B's season",
        "page",
        "post",
        PE + "settings/",
        200,
        NOT_A_CHOICE,
        lambda i: _settings_form(i, season=i["b_season"]),
        ok=302,
    ),
    Row(
        "event settings page: club B's event",
        "page",
        "post",
        PB + "settings/",
        404,
        body=lambda i: _settings_form(i),
        ok=302,
    ),
    Row("generate page: club B's event", "page", "post", PB + "generate/", 404, ok=302),
    Row(
        "season page: added to club B",
        "page",
        "post",
        "/events/seasons/",
        200,
        "Select a valid choice. {b_club} is not one of the available choices.",
        lambda i: {"club": i["b_club"], "name": "2027"},
        ok=302,
    ),
    Row(
        "import page: an event of club B",
        "page",
        "post",
        "/events/import/",
        403,
        body=lambda i: _upload(_event_file(i, club="b")),
        ok=302,
    ),
    Row(
        "import page: club A's event naming club B's member (by email)",
        "page",
        "post",
        "/events/import/",
        302,
        None,  # the people list calls them new records; no row of club B is reached
        lambda i: _upload(_event_file(i, email_of=i["b_email"])),
        through=True,
    ),
    # --- Pages: entries ---
    Row(
        "entry page: club B's event",
        "page",
        "post",
        PB + "entries/add/",
        404,
        body=lambda i: {"player_one": "New One", "player_two": "New Two"},
        ok=302,
    ),
    Row(
        "entries import page: club B's event",
        "page",
        "post",
        PB + "entries/import/",
        404,
        body=lambda i: {"csv": "player_one,player_two\nNew One,New Two\n", "confirm": "on"},
        ok=302,
    ),
    Row(
        "check in everyone: club B's event",
        "page",
        "post",
        PB + "entries/check-in-all/",
        404,
        ok=302,
    ),
    Row(
        "entry page: club B's entry checked in",
        "page",
        "post",
        PE + "entries/{b_entry}/check-in/",
        404,
        ok=302,
    ),
    Row(
        "entry page: club B's entry changed",
        "page",
        "post",
        PE + "entries/{b_entry}/edit/",
        404,
        body=lambda i: {"player_one": "New One", "player_two": "New Two", "rating": "1500"},
        ok=302,
    ),
    Row(
        "entry page: club B's entry withdrawn",
        "page",
        "post",
        PE + "entries/{b_entry}/withdraw/",
        404,
        body=lambda i: {"confirm": "1"},  # the confirmed withdrawal, past the question
        ok=302,
    ),
    # --- Pages: rounds, games, tables ---
    Row("round page: club B's round started", "page", "post", PB + "rounds/1/start/", 404, ok=302),
    Row(
        "round page: club B's entries swapped",
        "page",
        "post",
        PE + "rounds/1/swap-teams/",
        400,
        "{a_event_name} has no entry {b_entry}.",
        lambda i: {"first": i["b_entry"], "second": i["b_entry2"]},
        ok=302,
    ),
    Row(
        "round page: club B's games swapped",
        "page",
        "post",
        PE + "rounds/1/swap-tables/",
        400,
        "{a_event_name} has no game {b_pairing}.",
        lambda i: {"first": i["b_pairing"], "second": i["b_pairing2"]},
        ok=302,
    ),
    Row(
        "game page: club B's game forfeited",
        "page",
        "post",
        PE + "games/{b_pairing}/forfeit/",
        404,
        body=lambda i: {"forfeiting": "away", "confirm": "1"},
        ok=302,
    ),
    Row("tables page: club B's event", "page", "post", PB + "tables/add/", 404, ok=302),
    Row(
        "tables page: club B's table revoked",
        "page",
        "post",
        PE + "tables/{b_table}/revoke/",
        404,
        ok=302,
    ),
    # --- Pages: reports ---
    Row(
        "reports page: club B's game's score sheet",
        "page",
        "post",
        PE + "reports/",
        302,
        "That game is not part of this event.",
        lambda i: {"kind": "score_sheet", "game": i["b_pairing_game"]},
        ok=302,
    ),
    Row(
        "reports page: club B's round",
        "page",
        "post",
        PE + "reports/",
        302,
        "That is not part of this event; reload the page and choose again.",
        lambda i: {"kind": "round_tables", "round": i["b_round"]},
        ok=302,
    ),
    Row(
        "reports page: club B's table",
        "page",
        "post",
        PE + "reports/",
        302,
        "That is not part of this event; reload the page and choose again.",
        lambda i: {"kind": "table_cards", "table": i["b_table"]},
        ok=302,
    ),
    Row(
        "reports page: club B's event",
        "page",
        "post",
        PB + "reports/",
        404,
        body=lambda i: {"kind": "standings"},
        ok=302,
    ),
    Row(
        "reports page: club B's report rerun",
        "page",
        "post",
        PE + "reports/{b_report}/rerun",
        404,
        ok=302,
    ),
    # --- Pages: club members ---
    Row(
        "members page: added to club B",
        "page",
        "post",
        "/clubs/{b_slug}/members/add/",
        404,
        body=lambda i: {"new-name": "Newcomer", "new-role": "player"},
        actor="club_admin",
        ok=302,
    ),
    Row(
        "members page: club B's player added to club A",
        "page",
        "post",
        "/clubs/{a_slug}/members/add/",
        200,
        NOT_A_CHOICE,  # the form offers the members of the admin's other club (C), not B's
        lambda i: {"existing-player": i["b_player"], "existing-role": "player"},
        actor="club_admin",
    ),
    Row(
        "members import page: club B",
        "page",
        "post",
        "/clubs/{b_slug}/members/import/",
        404,
        body=lambda i: {"confirm": "1", "text": "name,email,role\nNewcomer,,player\n"},
        actor="club_admin",
        ok=302,
    ),
    Row(
        "members merge page: club B's player merged into club A's",
        "page",
        "post",
        "/clubs/{a_slug}/members/merge/",
        400,
        NOT_A_CHOICE,
        lambda i: {"keep": i["a_player"], "duplicate": i["b_player"], "confirmed": "on"},
        actor="club_admin",
    ),
    Row(
        "members page: club B's member's role changed through club A",
        "page",
        "post",
        "/clubs/{a_slug}/members/{b_member}/role/",
        404,
        body=lambda i: {"role": "organiser"},
        actor="club_admin",
        ok=302,
    ),
    Row(
        "members page: club B's member removed through club A",
        "page",
        "post",
        "/clubs/{a_slug}/members/{b_member}/remove/",
        404,
        actor="club_admin",
        ok=302,
    ),
    Row(
        "members page: club B's member invited through club A",
        "page",
        "post",
        "/clubs/{a_slug}/members/{b_member}/invite/",
        404,
        actor="club_admin",
        ok=200,
    ),
    Row(
        "members page: club B's member's role changed in club B",
        "page",
        "post",
        "/clubs/{b_slug}/members/{b_member}/role/",
        404,
        body=lambda i: {"role": "organiser"},
        actor="club_admin",
        ok=302,
    ),
    # --- The table page's endpoints ---
    *[
        Row(
            f"table page: club B's table, {what}",
            "table",
            "post",
            "/table/{b_table}/" + what,
            403,
            DEVICE,
            body("b_pairing_game"),
            ok=ok,
        )
        for what, body, ok in (
            ("preview", _table_hand, 200),
            ("hands", _table_hand, None),  # A's round waits for its start
            ("confirm", _table_other, None),
            ("discard", _table_other, None),
            ("undo", _table_other, None),
            ("acknowledge", _table_other, None),
        )
    ],
    Row(
        "table page: club B's table, by club A's tablet",
        "table",
        "post",
        "/table/{b_table}/hands",
        403,
        DEVICE,
        _table_hand("b_pairing_game"),
        actor="tablet",
    ),
    *[
        Row(
            f"table page: club B's game at club A's table, {what}",
            "table",
            "post",
            "/table/{a_table}/" + what,
            409,
            MOVED_ON,
            body("b_pairing_game"),
            ok=ok,
        )
        for what, body, ok in (
            ("preview", _table_hand, 200),
            ("hands", _table_hand, None),
            ("confirm", _table_other, None),
            ("discard", _table_other, None),
            ("undo", _table_other, None),
        )
    ],
    Row(
        "table page: club B's game acknowledged at club A's table",
        "table",
        "post",
        "/table/{a_table}/acknowledge",
        403,
        "That game was not played at this table.",
        _table_other("b_pairing_game"),
    ),
    # --- Sign-ups: the players' doors (no account needed) ---
    # An event open for sign-ups takes anyone's, club A's organiser's too: that is what it is
    # for. Club B's event took a pair's sign-up, then closed its sign-ups: it is answered as an
    # event that does not exist, where club A's, open on approval, takes the pair.
    Row(
        "sign-up for club B's event (API)",
        "api",
        "post",
        BE + "registrations/",
        404,
        NO_SIGN_UP,
        _sign_up,
        ok=201,
    ),
    Row(
        "sign-up page: club B's event",
        "page",
        "post",
        "/e/{b_event}/register/",
        404,
        NO_SIGN_UP_PAGE,
        _sign_up_form,
        ok=201,
    ),
    # A registrant's private link is the permission to its page; club B's registrant's secret
    # under club A's event is a link that does not exist (the page, the withdrawal, the
    # e-mails' stop and the browser's push subscription alike).
    Row(
        "own page: club B's registrant's link withdrawn under club A's event",
        "page",
        "post",
        OWN_B + "withdraw/",
        404,
        NO_LINK,
        ok=302,
    ),
    Row(
        "own page: club B's registrant's e-mails stopped under club A's event",
        "page",
        "post",
        OWN_B + "stop-emails/",
        404,
        NO_LINK,
        ok=200,
    ),
    Row(
        "own page: club B's registrant's push subscription under club A's event",
        "table",  # the page's script sends the browser's subscription as JSON
        "post",
        OWN_B + "push/",
        404,
        body=_push_subscription,
        ok=201,
    ),
    # --- Sign-ups: the organiser's API and page ---
    *[
        Row(
            f"club B's sign-up through club A's event: {action}",
            "api",
            "post",
            AE + f"registrations/{{b_registration}}/{action}/",
            404,
            "{a_event_name} has no sign-up {b_registration}.",
            body,
            ok=ok,
        )
        for action, body, ok in _SIGN_UP_ACTIONS
    ],
    Row(
        "club B's sign-up approved in club B's event",
        "api",
        "post",
        BE + "registrations/{b_registration}/approve/",
        404,
        NO_EVENT,
        ok=200,
    ),
    *[
        Row(
            f"sign-ups page: club B's sign-up through club A's event: {action}",
            "page",
            "post",
            PE + f"sign-ups/{{b_registration}}/{action}/",
            404,
            "This event has no such sign-up.",
            body,
            ok=302 if ok else None,
        )
        for action, body, ok in _SIGN_UP_ACTIONS
    ],
    Row(
        "sign-ups page: club B's sign-up approved in club B's event",
        "page",
        "post",
        PB + "sign-ups/{b_registration}/approve/",
        404,
        ok=302,
    ),
    Row(
        "sign-ups page: club B's registrant's link renewed through club A's sign-up",
        "page",
        "post",
        PE + "sign-ups/{a_registration}/renew-link/",
        404,
        "This sign-up has no such player.",
        lambda i: {"registrant": i["b_registrant"]},
        ok=302,
    ),
]

# Write routes with no row, each for its reason.
EXEMPT: dict[tuple[str, str], str] = {
    ("accounts/login/", "post"): "Django's sign-in: a username and a password, no club's things",
    ("accounts/login/", "put"): "Django's sign-in (a form view's PUT is its POST)",
    ("accounts/logout/", "post"): "Django's sign-out: names nothing",
    ("i18n/setlang/", "post"): "Django's language switch: a cookie, no data",
    ("account/privacy/", "post"): "the signed-in player's own page setting: names nothing",
    ("invitations/<str:token>/", "post"): (
        "the link's secret token is the permission, and joining the club that made it is what "
        "it is for; it names no ids"
    ),
}


# --- Running a row ---------------------------------------------------------------------------


class MirrorIds(dict[str, Any]):
    """The ids with every ``b_…`` replaced by its ``a_…`` twin: the same request for club A."""

    def __missing__(self, key: str) -> Any:
        raise KeyError(key)

    @classmethod
    def of(cls, ids: Ids) -> MirrorIds:
        return cls({k: ids["a_" + k[2:]] if k.startswith("b_") else v for k, v in ids.items()})


def client_for(world: TwoClubs, row: Row) -> Client:
    client: Client = APIClient() if row.door == "api" else Client()
    if row.actor == "tablet":
        code = Table.objects.get(id=world.a.table.id).code
        assert client.get(f"/t/{code}/").status_code == 302
    else:
        client.force_login(world.users[row.actor])
    return client


def send(client: Client, row: Row, ids: Ids) -> Any:
    path = row.path.format_map(ids)
    body = row.body(ids) if row.body else {}
    call = getattr(client, row.method)
    if row.door == "api":
        return call(path, body, format="json")
    if row.door == "table":
        return call(path, json.dumps(body), content_type="application/json")
    return call(path, body)


def error_messages(answer: Any) -> list[str]:
    return [m.message for m in get_messages(answer.wsgi_request) if m.level == ERROR]


def shows(answer: Any, row: Row, sentence: str) -> bool:
    if row.door in ("api", "table"):
        body = answer.json()
        if row.through:
            return sentence in body.get("notes", [])
        fields = [v for v in body.values() if isinstance(v, list)]  # DRF's field errors
        return bool(body.get("detail") == sentence or any(sentence in v for v in fields))
    if answer.status_code == 302:
        if row.through:
            return sentence in [m.message for m in get_messages(answer.wsgi_request)]
        return sentence in error_messages(answer)
    return escape(sentence) in answer.content.decode()


def cases() -> Iterator[Any]:
    for row in ROWS:
        marks = [pytest.mark.xfail(strict=True, reason=row.xfail)] if row.xfail else []
        yield pytest.param(row, id=row.name, marks=marks)


@pytest.fixture
def world(db: None) -> TwoClubs:
    return two_clubs()


@pytest.mark.parametrize("row", list(cases()))
def test_a_write_naming_club_bs_things_is_refused_and_writes_nothing(
    world: TwoClubs, row: Row
) -> None:
    ids = world.ids()
    client = client_for(world, row)
    owned = owned_by(world.b)
    before = snapshot()
    answer = send(client, row, ids)
    after = snapshot()
    where = f"{row.method.upper()} {row.path.format_map(ids)}"
    assert answer.status_code == row.status, (
        f"{where}: {answer.status_code}, expected {row.status}: {answer.content[:400]!r}"
    )
    if row.through:
        reached = reaching(owned, before, after)
        assert not reached, f"{where} reached club B:\n" + "\n".join(reached)
    else:
        changed = changes(before, after)
        assert not changed, f"{where} wrote:\n" + "\n".join(changed)
    if row.says is not None:
        sentence = row.says.format_map(ids)
        assert shows(answer, row, sentence), (
            f"{where}: expected {sentence!r} in {answer.content[:600]!r} "
            f"(messages {error_messages(answer) if row.door == 'page' else '-'})"
        )


@pytest.mark.parametrize("row", [pytest.param(r, id=r.name) for r in ROWS if r.ok is not None])
def test_the_same_request_naming_club_as_own_things_goes_through(world: TwoClubs, row: Row) -> None:
    """The refusal above comes from club B's thing: naming A's own, the request is answered."""
    ids = MirrorIds.of(world.ids())
    answer = send(client_for(world, row), row, ids)
    where = f"{row.method.upper()} {row.path.format_map(ids)}"
    assert answer.status_code == row.ok, (
        f"{where}: {answer.status_code}, expected {row.ok}: {answer.content[:400]!r}"
    )
    if row.door == "page":
        assert not error_messages(answer), f"{where}: {error_messages(answer)}"


def test_the_check_of_club_bs_rows_sees_a_new_row_naming_one(world: TwoClubs) -> None:
    """``reaching`` (the ``through`` rows' check) is not blind: a new team of club A with club
    B's member, and a change to club B's team, are both reported."""
    from scoring.models import Team

    owned = owned_by(world.b)
    before = snapshot()
    Team.objects.create(
        club=world.a.club, player_one=world.b.players[0], player_two=world.a.players[0]
    )
    Team.objects.filter(id=world.b.team.id).update(name="Renamed")
    found = reaching(owned, before, snapshot())
    assert any(f"names the other club's Player {world.b.players[0].id}" in f for f in found)
    assert f"Team {world.b.team.id} (the other club's) changed or went" in found


def test_a_substitute_typed_by_name_is_a_visitor_never_club_bs_member(world: TwoClubs) -> None:
    """The game page takes the substitute's name. Typing the name of club B's member seats a
    visitor of club A by that name (as the CSV import makes one), never B's record."""
    ids = world.ids()
    client = Client()
    client.force_login(world.users["organiser"])
    answer = client.post(
        f"/events/{ids['a_event']}/games/{ids['a_pairing']}/substitute/",
        {"replaced": ids["a_pairing_north"], "substitute_name": ids["b_player_name"]},
    )
    assert answer.status_code == 302 and not error_messages(answer), error_messages(answer)
    seated = Substitution.objects.get(game_id=ids["a_pairing_game"]).substitute
    assert seated.name == ids["b_player_name"]
    assert seated.id != ids["b_player"], "club B's member was seated at club A's game"
    assert seated.host_club_id == ids["a_club"]


# --- The guard: every write route has a row ----------------------------------------------------


def _patterns(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.callback


def _method_list(view: Any) -> set[str] | None:
    """The methods a function view's ``require_http_methods`` (or require_POST, require_GET)
    lets through, found through its decorators' ``__wrapped__`` and closures."""
    seen: set[int] = set()
    stack = [view]
    while stack:
        fn = stack.pop()
        if id(fn) in seen:
            continue
        seen.add(id(fn))
        closure = getattr(fn, "__closure__", None) or ()
        names = getattr(getattr(fn, "__code__", None), "co_freevars", ())
        for name, cell in zip(names, closure, strict=False):
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if name == "request_method_list":
                return {m.lower() for m in value}
            if inspect.isfunction(value):
                stack.append(value)
        if getattr(fn, "__wrapped__", None) is not None:
            stack.append(fn.__wrapped__)
    return None


def _innermost(view: Any) -> Any:
    while getattr(view, "__wrapped__", None) is not None:
        view = view.__wrapped__
    return view


def write_methods(callback: Any) -> set[str]:
    """The writing methods a route's view answers."""
    actions = getattr(callback, "actions", None)
    if actions:  # a DRF viewset's route
        return {m for m in actions if m in WRITES}
    cls = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
    if cls is not None:  # a DRF APIView, or a Django class-based view
        return {m for m in WRITES if hasattr(cls, m)}
    listed = getattr(callback, "allowed_methods", None) or _method_list(callback)
    if listed is not None:
        return listed & set(WRITES)
    # No method decorator: every method reaches the view; it writes if it reads a POST.
    source = inspect.getsource(_innermost(callback))
    reads_post = any(s in source for s in ("request.POST", "request.FILES", "request.method"))
    return {"post"} if reads_post else set()


def write_routes() -> set[tuple[str, str]]:
    return {
        (route.replace("^", ""), method)
        for route, callback in _patterns(get_resolver().url_patterns)
        if not route.startswith("admin/") and "format" not in route
        for method in write_methods(callback)
    }


class AnyId(dict[str, Any]):
    def __missing__(self, key: str) -> Any:
        return 1


def covered_routes() -> set[tuple[str, str]]:
    return {
        (resolve(row.path.format_map(AnyId())).route.replace("^", ""), row.method) for row in ROWS
    }


def test_every_write_route_has_a_cross_club_row() -> None:
    missing = write_routes() - covered_routes() - set(EXEMPT)
    assert not missing, (
        "Write routes without a row in tests/test_cross_club.py (or a reason in EXEMPT): "
        + ", ".join(f"{method.upper()} {route}" for route, method in sorted(missing))
    )


def test_the_guard_sees_the_writes_it_should() -> None:
    """A few routes of each kind, so that the guard cannot pass by finding nothing."""
    routes = write_routes()
    for expected in (
        (f"api/games/(?P<pk>{ID_IN_PATH})/hands/$", "post"),
        ("api/events/<int:pk>/entries/<int:entry_id>/", "patch"),
        ("api/clubs/<int:club_id>/members/<int:membership_id>/", "delete"),
        ("events/new/", "post"),  # no method decorator: it reads request.POST
        ("events/<int:event_id>/settings/", "post"),
        ("table/<int:table_id>/hands", "post"),  # require_POST under functools.wraps
        ("clubs/<slug:slug>/members/merge/", "post"),
    ):
        assert expected in routes, expected
    for reading in (
        ("events/<int:event_id>/", "post"),
        ("games/<int:game_id>/", "post"),
        ("e/<int:event_id>/standings/", "post"),
        ("api/events/<int:pk>/standings/", "post"),
    ):
        assert reading not in routes, reading


def test_every_exempt_route_exists_and_rows_are_named_once() -> None:
    routes = write_routes()
    assert set(EXEMPT) <= routes, sorted(set(EXEMPT) - routes)
    names = [row.name for row in ROWS]
    assert len(names) == len(set(names))
