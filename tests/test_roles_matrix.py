"""Who may do what: every (role, endpoint) pair, anonymous included, with the status expected.

To add an endpoint, add an ``Endpoint(...)`` row to ``ENDPOINTS`` with the status for each of
the seven roles (``expect(...)`` insists on all seven). Paths are formatted with the ids of the
world the test builds: ``{club}``, ``{club_slug}``, ``{game}``, ``{team}``, ``{player}``. A row
whose write needs a body gives ``body``, a function of that world. Each pair runs in a fresh
world, so a write by one role never changes what another role sees.

A guard test checks that every route under /api/ has a row (or sits in ``NOT_YET_COVERED``,
for endpoints whose issue has not added its rows yet), so a new endpoint cannot skip this table.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from rest_framework.test import APIClient

from kaiser_club.models import Club, Membership
from kaiser_club.roles import Role
from scoring.models import Game, Team
from tests.factories import member, start_game
from tests.scoring.hands import EW, NS, N, hand_json, make_club, make_team, make_user, played
from tests.scoring.hands import record as record_hand

ROLES = ("anonymous", "outsider", "player", "scorekeeper", "organiser", "club_admin", "staff")


@dataclass
class World:
    """One club with a running tournament game (one hand recorded), a team, and a user for
    each role (None for anonymous)."""

    club: Club
    game: Game
    team: Team
    users: dict[str, User | None]

    def ids(self) -> dict[str, Any]:
        return LazyIds(
            self,
            {
                "club": self.club.id,
                "club_slug": self.club.slug,
                "game": self.game.id,
                "team": self.team.id,
                "player": self.team.player_one_id,
                # the player-role user's membership and player record
                "member": Membership.objects.get(
                    club=self.club, player__user=self.users["player"]
                ).id,
                "member_player": Membership.objects.get(
                    club=self.club, player__user=self.users["player"]
                ).player_id,
            },
        )


class LazyIds(dict[str, Any]):
    """The world's ids; the events issue's ids ({event}, {pairing}, …) are made on first use."""

    def __init__(self, world: World, ids: dict[str, Any]) -> None:
        super().__init__(ids)
        self.world = world

    def __missing__(self, key: str) -> Any:
        from tests.tournaments.roles_world import event_ids

        if "event" not in self:
            self.update(event_ids(self.world))
        if key in REPORT_KEYS:  # the reports' ids, made in the event above
            from tests.tournaments.reports.roles_world import report_ids

            self.update(report_ids(self))
        if key in SIGN_UP_KEYS:  # the world's event opened for sign-ups, one pair pending
            from tests.tournaments.registrations.roles_world import sign_up_ids

            self.update(sign_up_ids(self))
        return self[key]


Body = Callable[[World], dict[str, Any]]


def expect(
    *,
    anonymous: int,
    outsider: int,
    player: int,
    scorekeeper: int,
    organiser: int,
    club_admin: int,
    staff: int,
) -> dict[str, int]:
    return {
        "anonymous": anonymous,
        "outsider": outsider,
        "player": player,
        "scorekeeper": scorekeeper,
        "organiser": organiser,
        "club_admin": club_admin,
        "staff": staff,
    }


@dataclass(frozen=True)
class Endpoint:
    name: str
    method: str
    path: str
    expected: dict[str, int]
    body: Body | None = field(default=None, compare=False)


# --- Bodies of the writes ----------------------------------------------------------------------


def new_game(world: World) -> dict[str, Any]:
    ns, ew = make_team(club=world.club), make_team(club=world.club)
    return {"club": world.club.id, "ns_team": ns.id, "ew_team": ew.id, "first_dealer": 0}


def next_hand(world: World) -> dict[str, Any]:
    return hand_json(bidder=1, bid=7, tricks=5, five="ew", three="ns", number=2)


def corrected_first_hand(world: World) -> dict[str, Any]:
    return {**hand_json(bidder=0, bid=7, tricks=5, five="ns", three="ew"), "reason": "typo"}


def new_team(world: World) -> dict[str, Any]:
    team = make_team(club=world.club)  # two fresh players, registered again as a new team
    return {
        "name": f"New {uuid.uuid4().hex[:6]}",
        "club": world.club.id,
        "player_one_id": team.player_one_id,
        "player_two_id": team.player_two_id,
    }


# --- Shorthands for the common patterns --------------------------------------------------------

# Signed in and a member of the game's club (staff see every club).
READ_GAME = expect(
    anonymous=403,
    outsider=404,
    player=200,
    scorekeeper=200,
    organiser=200,
    club_admin=200,
    staff=200,
)
SIGNED_IN = expect(
    anonymous=403,
    outsider=200,
    player=200,
    scorekeeper=200,
    organiser=200,
    club_admin=200,
    staff=200,
)
# Organisers and up: correct, call time, forfeit, the clock, the history.
MANAGE_GAME = expect(
    anonymous=403,
    outsider=404,
    player=403,
    scorekeeper=403,
    organiser=200,
    club_admin=200,
    staff=200,
)
ANYONE = expect(
    anonymous=200,
    outsider=200,
    player=200,
    scorekeeper=200,
    organiser=200,
    club_admin=200,
    staff=200,
)
PAGE_SIGNED_IN = expect(
    anonymous=302,
    outsider=200,
    player=200,
    scorekeeper=200,
    organiser=200,
    club_admin=200,
    staff=200,
)

ENDPOINTS: list[Endpoint] = [
    # --- The API: games (scoring) ---
    Endpoint("api root", "get", "/api/", SIGNED_IN),
    Endpoint("games list", "get", "/api/games/", SIGNED_IN),
    Endpoint("game detail", "get", "/api/games/{game}/", READ_GAME),
    Endpoint(
        "game create",
        "post",
        "/api/games/",
        expect(
            anonymous=403,
            outsider=400,  # a club not theirs: answered as an id that does not exist
            player=403,
            scorekeeper=403,
            organiser=201,
            club_admin=201,
            staff=201,
        ),
        body=new_game,
    ),
    Endpoint(
        "hand record",
        "post",
        "/api/games/{game}/hands/",
        expect(
            anonymous=403,
            outsider=404,
            player=403,
            scorekeeper=201,
            organiser=201,
            club_admin=201,
            staff=201,
        ),
        body=next_hand,
    ),
    Endpoint(
        "hand undo",
        "post",
        "/api/games/{game}/undo/",
        expect(
            anonymous=403,
            outsider=404,
            player=403,
            scorekeeper=200,
            organiser=200,
            club_admin=200,
            staff=200,
        ),
    ),
    Endpoint(
        "hand correct", "put", "/api/games/{game}/hands/1/", MANAGE_GAME, corrected_first_hand
    ),
    Endpoint("call time", "post", "/api/games/{game}/call-time/", MANAGE_GAME),
    Endpoint(
        "forfeit", "post", "/api/games/{game}/forfeit/", MANAGE_GAME, lambda w: {"team": "ew"}
    ),
    Endpoint("clock pause", "post", "/api/games/{game}/pause/", MANAGE_GAME),
    Endpoint("clock resume", "post", "/api/games/{game}/resume/", MANAGE_GAME),
    Endpoint(
        "add minutes",
        "post",
        "/api/games/{game}/add-minutes/",
        MANAGE_GAME,
        lambda w: {"minutes": 5},
    ),
    Endpoint("game history", "get", "/api/games/{game}/history/", MANAGE_GAME),
    # --- The API: teams, clubs, presets, schema ---
    Endpoint("teams list", "get", "/api/teams/", SIGNED_IN),
    Endpoint("team detail", "get", "/api/teams/{team}/", READ_GAME),
    Endpoint(
        "team create",
        "post",
        "/api/teams/",
        expect(
            anonymous=403,
            outsider=400,  # a club not theirs: answered as an id that does not exist
            player=403,
            scorekeeper=403,
            organiser=201,
            club_admin=201,
            staff=201,
        ),
        body=new_team,
    ),
    Endpoint("clubs list", "get", "/api/clubs/", SIGNED_IN),
    Endpoint("club detail", "get", "/api/clubs/{club}/", READ_GAME),
    Endpoint("presets", "get", "/api/presets/", ANYONE),
    Endpoint("schema", "get", "/api/schema/", ANYONE),
    Endpoint("docs", "get", "/api/docs/", ANYONE),
    # --- HTML pages ---
    Endpoint("home", "get", "/", ANYONE),
    Endpoint("health check", "get", "/healthz", ANYONE),
    Endpoint("sign in", "get", "/accounts/login/", ANYONE),
    Endpoint("games page", "get", "/games/", PAGE_SIGNED_IN),
    Endpoint(
        "game page",
        "get",
        "/games/{game}/",
        expect(
            anonymous=302,
            outsider=404,
            player=200,
            scorekeeper=200,
            organiser=200,
            club_admin=200,
            staff=200,
        ),
    ),
    Endpoint(
        "admin",
        "get",
        "/admin/",
        expect(
            anonymous=302,
            outsider=302,
            player=302,
            scorekeeper=302,
            organiser=302,
            club_admin=302,
            staff=200,
        ),
    ),
]

# --- Clubs between tournaments: members, invitations, CSV, merging, player pages ---
# Club pages: not a member is 404 (as for a club that does not exist); a member whose role is
# too low is 403. Player pages: a private player's page is for their clubs' members and staff.
MEMBER_PAGE = expect(
    anonymous=302,
    outsider=404,
    player=200,
    scorekeeper=200,
    organiser=200,
    club_admin=200,
    staff=200,
)


def club_admin_page(ok: int) -> dict[str, int]:
    return expect(
        anonymous=302,
        outsider=404,
        player=403,
        scorekeeper=403,
        organiser=403,
        club_admin=ok,
        staff=ok,
    )


def club_admin_api(ok: int) -> dict[str, int]:
    return expect(
        anonymous=403,
        outsider=404,
        player=403,
        scorekeeper=403,
        organiser=403,
        club_admin=ok,
        staff=ok,
    )


ENDPOINTS += [
    Endpoint(
        "members list api",
        "get",
        "/api/clubs/{club}/members/",
        expect(
            anonymous=403,
            outsider=404,
            player=200,
            scorekeeper=200,
            organiser=200,
            club_admin=200,
            staff=200,
        ),
    ),
    Endpoint(
        "member add api",
        "post",
        "/api/clubs/{club}/members/",
        club_admin_api(201),
        lambda w: {"name": f"New {uuid.uuid4().hex[:6]}", "role": "player"},
    ),
    Endpoint(
        "member role api",
        "patch",
        "/api/clubs/{club}/members/{member}/",
        club_admin_api(200),
        lambda w: {"role": "scorekeeper"},
    ),
    Endpoint(
        "member remove api", "delete", "/api/clubs/{club}/members/{member}/", club_admin_api(204)
    ),
    Endpoint(
        "player stats api",
        "get",
        "/api/players/{member_player}/stats/",
        expect(
            anonymous=403,
            outsider=404,
            player=200,
            scorekeeper=200,
            organiser=200,
            club_admin=200,
            staff=200,
        ),
    ),
    Endpoint("clubs page", "get", "/clubs/", PAGE_SIGNED_IN),
    Endpoint("club members page", "get", "/clubs/{club_slug}/", MEMBER_PAGE),
    Endpoint("member add page", "get", "/clubs/{club_slug}/members/add/", club_admin_page(200)),
    Endpoint(
        "member add",
        "post",
        "/clubs/{club_slug}/members/add/",
        club_admin_page(200),  # the matrix posts JSON, not a form: the form comes back
    ),
    Endpoint(
        "member role",
        "post",
        "/clubs/{club_slug}/members/{member}/role/",
        club_admin_page(302),
    ),
    Endpoint(
        "member remove page",
        "get",
        "/clubs/{club_slug}/members/{member}/remove/",
        club_admin_page(200),
    ),
    Endpoint(
        "member remove", "post", "/clubs/{club_slug}/members/{member}/remove/", club_admin_page(302)
    ),
    Endpoint(
        "member invite",
        "post",
        "/clubs/{club_slug}/members/{member}/invite/",
        club_admin_page(302),  # this member already has an account: refused, back to the list
    ),
    Endpoint(
        "members import page", "get", "/clubs/{club_slug}/members/import/", club_admin_page(200)
    ),
    Endpoint(
        "the club's past page", "get", "/clubs/{club_slug}/members/past/", club_admin_page(200)
    ),
    Endpoint("members import", "post", "/clubs/{club_slug}/members/import/", club_admin_page(200)),
    Endpoint(
        "members export", "get", "/clubs/{club_slug}/members/export.csv", club_admin_page(200)
    ),
    Endpoint(
        "members merge page", "get", "/clubs/{club_slug}/members/merge/", club_admin_page(200)
    ),
    Endpoint("members merge", "post", "/clubs/{club_slug}/members/merge/", club_admin_page(400)),
    Endpoint(
        "invitation (unknown link)",
        "get",
        "/invitations/not-a-token/",
        expect(
            anonymous=404,
            outsider=404,
            player=404,
            scorekeeper=404,
            organiser=404,
            club_admin=404,
            staff=404,
        ),
    ),
    Endpoint(
        "page privacy",
        "post",
        "/account/privacy/",
        expect(  # only a user with a player record has a page; outsider and staff have none
            anonymous=302,
            outsider=404,
            player=302,
            scorekeeper=302,
            organiser=302,
            club_admin=302,
            staff=404,
        ),
    ),
    Endpoint("member's player page", "get", "/players/{member_player}/", MEMBER_PAGE),
    Endpoint("club ratings page", "get", "/players/ratings/{club_slug}/", MEMBER_PAGE),
    Endpoint(
        "non-member's player page",
        "get",
        "/players/{player}/",  # a team's player who is nobody's member, page not public:
        expect(  # a visitor the club seated, whose page its club admins may open
            anonymous=302,
            outsider=404,
            player=404,
            scorekeeper=404,
            organiser=404,
            club_admin=200,
            staff=200,
        ),
    ),
    Endpoint(
        "partnership page",
        "get",
        "/players/{member_player}/partners/{player}/",  # needs both pages: the partner's is
        expect(  # not visible to the club's members but its club admins (see the row above)
            anonymous=302,
            outsider=404,
            player=404,
            scorekeeper=404,
            organiser=404,
            club_admin=200,
            staff=200,
        ),
    ),
]

# --- Events: tournaments and club nights -------------------------------------------
# {event} is a Swiss event of the world's club with four teams and round 1 generated (not
# started); {pairing} is its first game (one hand recorded), {entry} a team, {table} table 1,
# {season} a season of the club, {job} the generation job that made round 1.
EVENT_KEYS: tuple[str, ...] = ("event", "pairing", "entry", "table", "season", "job", "round")
READ_EVENT = READ_GAME
MANAGE_EVENT = MANAGE_GAME


def manage_event(ok: int) -> dict[str, int]:
    return expect(
        anonymous=403,
        outsider=404,
        player=403,
        scorekeeper=403,
        organiser=ok,
        club_admin=ok,
        staff=ok,
    )


def organisers_create(ok: int) -> dict[str, int]:
    return expect(
        anonymous=403,
        outsider=400,  # the club named is not theirs: answered as an id that does not exist
        player=403,
        scorekeeper=403,
        organiser=ok,
        club_admin=ok,
        staff=ok,
    )


PAGE_READ_EVENT = MEMBER_PAGE


def page_manage_event(ok: int) -> dict[str, int]:
    return expect(
        anonymous=302,
        outsider=404,
        player=403,
        scorekeeper=403,
        organiser=ok,
        club_admin=ok,
        staff=ok,
    )


def _new_event(world: World) -> dict[str, Any]:
    return {"club": world.club.id, "name": "Spring open", "date": "2026-04-04", "rounds": 3}


def _new_entry(world: World) -> dict[str, Any]:
    team = make_team(club=world.club)
    return {"player_one": team.player_one_id, "player_two": team.player_two_id, "name": "New"}


def _correct_first_hand(world: World) -> dict[str, Any]:
    return {**hand_json(bidder=0, bid=7, tricks=6, five="ns", three="ew"), "reason": "typo"}


E = "/api/events/{event}/"
ENDPOINTS += [
    Endpoint("events list api", "get", "/api/events/", SIGNED_IN),
    Endpoint("event create api", "post", "/api/events/", organisers_create(201), _new_event),
    Endpoint("event detail api", "get", E, READ_EVENT),
    Endpoint("event settings api", "patch", E, MANAGE_EVENT, lambda w: {"venue": "Legion 45"}),
    Endpoint(  # a game of the event has a hand: refused with a sentence (the role check passed)
        "event rules api",
        "patch",
        E + "rules/",
        manage_event(400),
        lambda w: {"changes": {"min_bid": 6}},
    ),
    Endpoint("event standings api", "get", E + "standings/", READ_EVENT),
    Endpoint("event generate api", "post", E + "generate/", manage_event(202)),
    Endpoint("event job api", "get", E + "jobs/{job}/", READ_EVENT),
    Endpoint("event entries api", "get", E + "entries/", READ_EVENT),
    Endpoint("event entry add api", "post", E + "entries/", manage_event(201), _new_entry),
    Endpoint(
        "event entries import api",
        "post",
        E + "entries/import/",
        MANAGE_EVENT,
        lambda w: {"csv": "player_one,player_two\nAl Roe,Bea Sky\n", "dry_run": True},
    ),
    Endpoint(
        "event entry update api",
        "patch",
        E + "entries/{entry}/",
        MANAGE_EVENT,
        lambda w: {"rating": 1500},
    ),
    Endpoint("event entry check-in api", "post", E + "entries/{entry}/check-in/", MANAGE_EVENT),
    Endpoint("event entry withdraw api", "post", E + "entries/{entry}/withdraw/", MANAGE_EVENT),
    # the entry has not withdrawn: an organiser is refused with a sentence (400), not the door
    Endpoint(
        "event entry reinstate api", "post", E + "entries/{entry}/reinstate/", manage_event(400)
    ),
    Endpoint("event rounds api", "get", E + "rounds/", READ_EVENT),
    Endpoint("event round api", "get", E + "rounds/{round}/", READ_EVENT),
    Endpoint("event round start api", "post", E + "rounds/{round}/start/", MANAGE_EVENT),
    Endpoint("event bracket api", "get", E + "bracket/", READ_EVENT),
    Endpoint("event pairing api", "get", E + "pairings/{pairing}/", READ_EVENT),
    Endpoint(
        "event pairing forfeit api",
        "post",
        E + "pairings/{pairing}/forfeit/",
        MANAGE_EVENT,
        lambda w: {"forfeiting": "away"},
    ),
    Endpoint(  # a game with no forfeit: the organiser is answered that there is none
        "event pairing forfeit undo api",
        "post",
        E + "pairings/{pairing}/forfeit-undo/",
        manage_event(400),
    ),
    Endpoint(
        "event pairing rollback preview api",
        "get",
        E + "pairings/{pairing}/rollback/",
        MANAGE_EVENT,
    ),
    Endpoint(
        "event pairing rollback api",
        "post",
        E + "pairings/{pairing}/rollback/",
        manage_event(400),  # a Swiss game has no later bracket games: refused, with a sentence
        lambda w: {"confirm": True},
    ),
    Endpoint(
        "event pairing correct api",
        "put",
        E + "pairings/{pairing}/hands/1/",
        MANAGE_EVENT,
        _correct_first_hand,
    ),
    Endpoint("event tables api", "get", E + "tables/", READ_EVENT),
    Endpoint("event table add api", "post", E + "tables/", manage_event(201)),
    Endpoint("event table renew api", "post", E + "tables/{table}/renew/", MANAGE_EVENT),
    Endpoint("event table qr api", "get", E + "tables/{table}/qr.svg", MANAGE_EVENT),
    Endpoint("seasons list api", "get", "/api/seasons/", SIGNED_IN),
    Endpoint(
        "season create api",
        "post",
        "/api/seasons/",
        organisers_create(201),
        lambda w: {"club": w.club.id, "name": "2027"},
    ),
    Endpoint("season detail api", "get", "/api/seasons/{season}/", READ_EVENT),
    Endpoint("season leaderboard api", "get", "/api/seasons/{season}/leaderboard/", READ_EVENT),
    # --- pages ---
    Endpoint("events page", "get", "/events/", PAGE_SIGNED_IN),
    Endpoint(
        "event create page",
        "get",
        "/events/new/",
        expect(  # not an organiser anywhere: back to the list with a message
            anonymous=302,
            outsider=302,
            player=302,
            scorekeeper=302,
            organiser=200,
            club_admin=200,
            staff=200,
        ),
    ),
    Endpoint("seasons page", "get", "/events/seasons/", PAGE_SIGNED_IN),
    Endpoint("season page", "get", "/events/seasons/{season}/", PAGE_READ_EVENT),
    Endpoint("event page", "get", "/events/{event}/", PAGE_READ_EVENT),
    Endpoint("event settings page", "get", "/events/{event}/settings/", page_manage_event(200)),
    Endpoint("event generate", "post", "/events/{event}/generate/", page_manage_event(302)),
    Endpoint("event job panel", "get", "/events/{event}/jobs/{job}/", PAGE_READ_EVENT),
    Endpoint("event bracket page", "get", "/events/{event}/bracket/", PAGE_READ_EVENT),
    Endpoint("event entries page", "get", "/events/{event}/entries/", PAGE_READ_EVENT),
    Endpoint(
        "event entry check-in",
        "post",
        "/events/{event}/entries/{entry}/check-in/",
        page_manage_event(302),
    ),
    Endpoint(
        "event entry change page",
        "get",
        "/events/{event}/entries/{entry}/edit/",
        page_manage_event(200),
    ),
    # The entry has played: its seed and players are fixed, an empty form only clears its
    # rating, and the organiser goes back to the entries.
    Endpoint(
        "event entry change",
        "post",
        "/events/{event}/entries/{entry}/edit/",
        page_manage_event(302),
    ),
    Endpoint("event round page", "get", "/events/{event}/rounds/{round}/", PAGE_READ_EVENT),
    Endpoint(
        "event round playing", "get", "/events/{event}/rounds/{round}/playing/", PAGE_READ_EVENT
    ),
    Endpoint(
        "event round start", "post", "/events/{event}/rounds/{round}/start/", page_manage_event(302)
    ),
    Endpoint("event game page", "get", "/events/{event}/games/{pairing}/", PAGE_READ_EVENT),
    Endpoint(
        "event game late",
        "post",
        "/events/{event}/games/{pairing}/late/",
        page_manage_event(302),
    ),
    Endpoint("event tables page", "get", "/events/{event}/tables/", page_manage_event(200)),
    # An empty form comes back to the organiser with its errors (200).
    Endpoint("event entry add", "post", "/events/{event}/entries/add/", page_manage_event(200)),
    Endpoint(
        "event entries import",
        "post",
        "/events/{event}/entries/import/",
        page_manage_event(200),
    ),
    Endpoint(
        "event check in everyone",
        "post",
        "/events/{event}/entries/check-in-all/",
        page_manage_event(302),
    ),
    Endpoint("event table add", "post", "/events/{event}/tables/add/", page_manage_event(302)),
    Endpoint(
        "event table revoke",
        "post",
        "/events/{event}/tables/{table}/revoke/",
        page_manage_event(302),
    ),
]

# --- Each round and game action, one view per operation ("one owner per action") -------------
# Bodies name rows of {event}: round 1 is generated but not started; table 1's game has a hand.


def _event_of(world: World) -> Any:
    from tournaments.models import Event

    return Event.objects.filter(club=world.club).latest("id")


def _round_games(world: World) -> list[Any]:
    from tournaments.models import Pairing

    event = _event_of(world)
    return list(Pairing.objects.filter(event=event, round__number=1).order_by("table__number"))


def _swap_tables(world: World) -> dict[str, Any]:
    first, second = _round_games(world)[:2]
    return {"first": first.id, "second": second.id}


def _swap_teams(world: World) -> dict[str, Any]:
    untouched = _round_games(world)[1]  # table 2: no hand yet, so its game can be made again
    return {"first": untouched.home_id, "second": untouched.away_id}


def _substitute(world: World) -> dict[str, Any]:
    game = _round_games(world)[0].game
    return {"replaced": game.north_id, "substitute_name": f"Sub {uuid.uuid4().hex[:6]}"}


R1 = E + "rounds/{round}/"
G = E + "pairings/{pairing}/"
ENDPOINTS += [
    Endpoint(  # round 1 has not started: refused with a sentence (the role check passed)
        "event round start-waiting api", "post", R1 + "start-waiting/", manage_event(400)
    ),
    Endpoint("event round pause api", "post", R1 + "pause/", MANAGE_EVENT),
    Endpoint("event round resume api", "post", R1 + "resume/", MANAGE_EVENT),
    Endpoint(
        "event round add-minutes api",
        "post",
        R1 + "add-minutes/",
        MANAGE_EVENT,
        lambda w: {"minutes": 5},
    ),
    Endpoint(
        "event round swap-tables api", "post", R1 + "swap-tables/", MANAGE_EVENT, _swap_tables
    ),
    Endpoint("event round swap-teams api", "post", R1 + "swap-teams/", MANAGE_EVENT, _swap_teams),
    Endpoint(  # the game has a hand and is not over: refused with a sentence
        "event pairing adjust api",
        "post",
        G + "adjust/",
        manage_event(400),
        lambda w: {"winner": "home", "home_points": 52, "away_points": 0, "reason": "typo"},
    ),
    Endpoint("event pairing late api", "post", G + "late/", MANAGE_EVENT, lambda w: {"late": True}),
    Endpoint(  # not a bye: refused with a sentence
        "event pairing bye-points api",
        "post",
        G + "bye-points/",
        manage_event(400),
        lambda w: {"points_for": 40, "points_against": 20},
    ),
    Endpoint("event pairing substitute api", "post", G + "substitute/", MANAGE_EVENT, _substitute),
    Endpoint(
        "event pairing clock api", "post", G + "clock/", MANAGE_EVENT, lambda w: {"action": "start"}
    ),
]

# --- PDF reports: the organiser's page, its job list, the download, a rerun. ---------
# {report} is a done standings report of {event} with a file; {failed_report} a failed one.
REPORT_KEYS = ("report", "failed_report")
EVENT_KEYS += REPORT_KEYS
R = "/events/{event}/reports/"
ENDPOINTS += [
    Endpoint("reports page", "get", R, page_manage_event(200)),
    Endpoint("reports ask", "post", R, page_manage_event(302)),  # no kind: a message, back
    Endpoint("reports jobs", "get", R + "jobs", page_manage_event(200)),
    Endpoint("report download", "get", R + "{report}/pdf", page_manage_event(200)),
    Endpoint("report rerun", "post", R + "{failed_report}/rerun", page_manage_event(302)),
]

# --- The table page -----------------------------------------------------------------
# {table} is table 1 of the Swiss event above, a tournament: no device here holds its code, so
# of the signed-in only the club's organisers and up open it (at a club night a scorekeeper
# would too; tests/table/test_access.py has the code's own rows). Writes pass the access check
# and then meet the game: its round is started for the hand, it has no pending hand to
# confirm, and it is not over to be agreed to.
TABLE_OPEN = expect(
    anonymous=403,
    outsider=403,
    player=403,
    scorekeeper=403,
    organiser=200,
    club_admin=200,
    staff=200,
)


def table_write(ok: int) -> dict[str, int]:
    return {**TABLE_OPEN, "organiser": ok, "club_admin": ok, "staff": ok}


def _table_game(world: World) -> Any:
    from tournaments.models import Round, Table
    from tournaments.table.selectors import table_now

    table = Table.objects.select_related("event").get(event__club=world.club, number=1)
    Round.objects.filter(event=table.event, number=1).update(status="started")
    game = table_now(table=table).game
    assert game is not None
    return game


def _table_hand(world: World) -> dict[str, Any]:
    game = _table_game(world)
    return {
        "game_id": game.id,
        "number": game.hand_count + 1,
        "client_id": str(uuid.uuid4()),
        "entered_by_seat": 0,  # the event verifies: the hand waits for East or West
        "entry": {
            k: v for k, v in hand_json(bidder=1, five="ew", three="ns").items() if k != "client_id"
        },
    }


def _table_undo(world: World) -> dict[str, Any]:
    game = _table_game(world)
    last = game.hands.order_by("-number").first()
    return {"game_id": game.id, "number": last.number, "client_id": str(last.client_id)}


def _table_other(world: World) -> dict[str, Any]:
    game = _table_game(world)
    return {
        "game_id": game.id,
        "number": 2,
        "seat": 1,
        "team": "ns",
        "client_id": str(uuid.uuid4()),
    }


T = "/table/{table}/"
ENDPOINTS += [
    Endpoint("table open page", "get", "/t/", ANYONE),
    Endpoint("table unknown code", "get", "/t/NOSUCHCODE/", dict.fromkeys(ROLES, 404)),
    Endpoint("table service worker", "get", "/table/sw.js", ANYONE),
    Endpoint("table page", "get", T, TABLE_OPEN),
    Endpoint("table state", "get", T + "state", TABLE_OPEN),
    Endpoint("table board", "get", T + "board", TABLE_OPEN),
    Endpoint("table preview", "post", T + "preview", TABLE_OPEN, _table_hand),
    Endpoint("table hand", "post", T + "hands", TABLE_OPEN, _table_hand),
    Endpoint("table undo", "post", T + "undo", TABLE_OPEN, _table_undo),
    Endpoint("table confirm", "post", T + "confirm", table_write(404), _table_other),
    Endpoint("table discard", "post", T + "discard", TABLE_OPEN, _table_other),  # gone: done
    Endpoint("table acknowledge", "post", T + "acknowledge", table_write(400), _table_other),
    Endpoint("table no such endpoint", "post", T + "nothing", dict.fromkeys(ROLES, 404)),
]

# Routes under /api/ whose issue has not added its rows yet. Remove a route from here when its
# rows are in ENDPOINTS; the guard below fails on any other route without a row.
NOT_YET_COVERED: set[str] = set()


# --- Public pages: no sign-in for anyone while the event's public pages are on. ----
# {player} (a team's player in the world, not public) has no public page: 404 for everyone,
# signed in or not; {season} has no public club night, so no public leaderboard.
NOT_FOUND = expect(
    anonymous=404,
    outsider=404,
    player=404,
    scorekeeper=404,
    organiser=404,
    club_admin=404,
    staff=404,
)
P = "/e/{event}/"
ENDPOINTS += [
    Endpoint("public index of events", "get", "/e/", ANYONE),
    Endpoint("public event page", "get", P, ANYONE),
    Endpoint("public standings", "get", P + "standings/", ANYONE),
    Endpoint("public standings csv", "get", P + "standings.csv", ANYONE),
    Endpoint("public bracket", "get", P + "bracket/", ANYONE),
    Endpoint("public round tables", "get", P + "rounds/{round}/", ANYONE),
    Endpoint("public score sheet", "get", P + "games/{pairing}/", ANYONE),
    Endpoint("public live scores", "get", P + "live/", ANYONE),
    Endpoint("public team page", "get", P + "teams/{entry}/", ANYONE),
    Endpoint("public page of a private player", "get", P + "players/{player}/", NOT_FOUND),
    Endpoint("public projector", "get", P + "projector/", ANYONE),
    Endpoint("public season leaderboard (none)", "get", "/e/seasons/{season}/", NOT_FOUND),
]


# --- Sign-ups by players --------------------------------------------------------------
# {open_event} is {event} opened for sign-ups on the organiser's approval; {registration} a
# pending sign-up of it, {secret} the private link of its first player. Anyone signs up and
# opens a private page by its link; the organisers decide.
SIGN_UP_KEYS = ("open_event", "registration", "secret")
EVENT_KEYS += SIGN_UP_KEYS
S = "/e/{open_event}/"


def _sign_up(world: World) -> dict[str, Any]:
    return {
        "players": [{"name": "Cy Sign", "email": "cy@x.org"}, {"name": "Di", "email": "di@x.org"}]
    }


ENDPOINTS += [
    Endpoint(
        "event sign-up api",
        "post",
        "/api/events/{open_event}/registrations/",
        expect(**dict.fromkeys(ROLES, 201)),
        _sign_up,
    ),
    Endpoint(
        "event sign-ups api", "get", "/api/events/{open_event}/registrations/", manage_event(200)
    ),
    Endpoint(
        "event sign-up approve api",
        "post",
        "/api/events/{open_event}/registrations/{registration}/approve/",
        manage_event(200),
    ),
    Endpoint("public sign-up page", "get", S + "register/", ANYONE),
    # An empty form comes back with its errors.
    Endpoint(
        "public sign-up sent empty", "post", S + "register/", expect(**dict.fromkeys(ROLES, 400))
    ),
    Endpoint(
        "my own page (none)",
        "get",
        S + "me/",
        expect(**{**dict.fromkeys(ROLES, 404), "anonymous": 302}),
    ),
    Endpoint("own page by its link", "get", S + "me/{secret}/", ANYONE),
    Endpoint(
        "own sign-up withdrawn",
        "post",
        S + "me/{secret}/withdraw/",
        expect(**dict.fromkeys(ROLES, 302)),
    ),
    Endpoint("own e-mails stopped", "post", S + "me/{secret}/stop-emails/", ANYONE),
    Endpoint(
        "own push, no subscription",
        "post",
        S + "me/{secret}/push/",
        expect(**dict.fromkeys(ROLES, 400)),
    ),
    Endpoint(
        "organisers sign-ups page", "get", "/events/{open_event}/sign-ups/", page_manage_event(200)
    ),
    Endpoint(
        "organisers sign-up approve",
        "post",
        "/events/{open_event}/sign-ups/{registration}/approve/",
        page_manage_event(302),
    ),
]


# --- Event export and import as JSON ------------------------------------------------
def _event_file(world: World) -> dict[str, Any]:
    """An export of a small event of the world's club, to import as a copy."""
    import datetime as dt

    from tournaments.services import event_create
    from tournaments.transfer import event_export

    event = event_create(club=world.club, name="To copy", date=dt.date(2026, 5, 1), rounds=3)
    return event_export(event=event)


# Anyone but an organiser of the file's club is refused before anything is read further.
IMPORT_EVENT = expect(
    anonymous=403,
    outsider=403,
    player=403,
    scorekeeper=403,
    organiser=201,
    club_admin=201,
    staff=201,
)
ENDPOINTS += [
    Endpoint("event export api", "get", E + "export/", MANAGE_EVENT),
    Endpoint("event import api", "post", "/api/events/import/", IMPORT_EVENT, _event_file),
    Endpoint("event export page", "get", "/events/{event}/export.json", page_manage_event(200)),
    Endpoint("event import page", "get", "/events/import/", PAGE_SIGNED_IN),
    Endpoint(  # no file: refused with a sentence on the page, for anyone signed in
        "event import upload without a file",
        "post",
        "/events/import/",
        expect(
            anonymous=302,
            outsider=400,
            player=400,
            scorekeeper=400,
            organiser=400,
            club_admin=400,
            staff=400,
        ),
    ),
]


@pytest.fixture
def world(db: None) -> World:
    club = make_club()
    game = start_game(club=club, preset_name="tournament")
    record_hand(game, played(N, 7, 6, NS, EW))
    users: dict[str, User | None] = {
        "anonymous": None,
        "outsider": make_user(),
        "staff": make_user(is_staff=True),
    }
    for role in (Role.PLAYER, Role.SCOREKEEPER, Role.ORGANISER, Role.CLUB_ADMIN):
        users[role.value] = member(club, role)
    return World(club=club, game=game, team=make_team(club=club), users=users)


def cases() -> Iterator[Any]:
    for endpoint in ENDPOINTS:
        for role in ROLES:
            yield pytest.param(endpoint, role, id=f"{endpoint.name}-{role}")


@pytest.mark.parametrize(("endpoint", "role"), list(cases()))
def test_role_endpoint(world: World, endpoint: Endpoint, role: str) -> None:
    client = APIClient()
    user = world.users[role]
    if user is not None:
        client.force_login(user)
    path = endpoint.path.format_map(world.ids())
    call = getattr(client, endpoint.method)
    if endpoint.body is None:
        answer = call(path) if endpoint.method == "get" else call(path, {}, format="json")
    else:
        answer = call(path, endpoint.body(world), format="json")
    expected = endpoint.expected[role]
    assert answer.status_code == expected, (
        f"{role} {endpoint.method.upper()} {path}: {answer.status_code}, expected {expected}: "
        f"{answer.content[:300]!r}"
    )


def test_every_row_names_every_role_once() -> None:
    names = [e.name for e in ENDPOINTS]
    assert len(names) == len(set(names))
    for endpoint in ENDPOINTS:
        assert tuple(endpoint.expected) == ROLES, endpoint.name


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[str]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


# Routes outside the matrix, each for a reason: Django's own sign-out and language switch (no
# data, CSRF-checked POSTs), and Django's admin (staff only, Django's own checks).
OUTSIDE_THE_MATRIX = {"accounts/logout/", "i18n/setlang/"}


def test_every_page_route_has_rows() -> None:
    """Every URL of the site, not only the API, is in the matrix or named above with a reason."""
    covered = {_covered_route(endpoint.path) for endpoint in ENDPOINTS}
    pages = {
        route.replace("^", "")
        for route in _routes(get_resolver().url_patterns)
        if not route.startswith(("api/", "admin/")) and "format" not in route
    }
    missing = pages - covered - OUTSIDE_THE_MATRIX
    assert not missing, f"Page routes without rows in the roles matrix: {sorted(missing)}"


def _covered_route(path: str) -> str:
    filled = path.format(
        club=1,
        club_slug="x",
        game=1,
        team=1,
        player=1,
        member=1,
        member_player=1,
        **dict.fromkeys(EVENT_KEYS, 1),
    )
    return resolve(filled).route.replace("^", "")


def test_every_api_route_has_rows() -> None:
    def plain(route: str) -> str:  # resolve() drops the regex routes' "^"
        return route.replace("^", "")

    covered = set()
    for endpoint in ENDPOINTS:
        path = endpoint.path.format(
            club=1,
            club_slug="x",
            game=1,
            team=1,
            player=1,
            member=1,
            member_player=1,
            **dict.fromkeys(EVENT_KEYS, 1),
        )
        covered.add(plain(resolve(path).route))
    api_routes = {
        plain(route)
        for route in _routes(get_resolver().url_patterns)
        if route.startswith("api/") and "format" not in route
    }
    missing = api_routes - covered - {plain(route) for route in NOT_YET_COVERED}
    assert not missing, f"API routes without rows in the roles matrix: {sorted(missing)}"
