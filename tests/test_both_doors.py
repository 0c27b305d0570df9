"""Both doors, one table: an action answers the same whichever way it comes in.

Each case names the action, the actor, the objects and the one outcome expected; it runs once
through each of its doors, each time in a fresh world: the games API, the table page's
endpoints (a tablet holding the table's code, or a signed-in member), the organiser's pages,
the CSV import. Every door must give that outcome:

- ``Allowed(…)``: a 2xx (a page: back to where it came from, 302, with no error message), and
  the write the case describes (a hand counted or waiting for confirmation, a hand taken back,
  the entry made with the right player records);
- ``Refused(status, sentence)``: that status (a page: the sentence as its error message) with
  that exact sentence, and nothing written: every row of every model the action could touch is
  the same before and after (tests/two_clubs.py, ``snapshot``);
- ``Repeated(…)``: a 2xx and nothing written (a retry of what was done already), and the state
  the case describes.

A door that does not give the case's outcome today, in code another branch is changing, is
marked xfail(strict=True) with the branch named.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.messages import get_messages
from django.contrib.messages.constants import ERROR
from django.test import Client
from django.utils.html import escape
from rest_framework.test import APIClient

from kaiser_club.actors import Actor
from kaiser_club.models import Club, Membership, Player
from kaiser_club.roles import Role
from scoring import services as scoring
from scoring.api.serializers import HandEntrySerializer
from scoring.models import Game, GameChange, Hand, Team
from scoring.rules import Seat, Side
from scoring.services import play, verification
from tests.factories import member
from tests.scoring.hands import EW, NS, E, N, make_club, played
from tests.table.helpers import Setup, add_table, make_event, opened
from tests.tournaments.helpers import winning_hand
from tests.two_clubs import changes, snapshot
from tournaments import services as events
from tournaments.choices import EventKind
from tournaments.models import Entry, Event, Pairing, Round

NIGHT, TOURNAMENT = EventKind.CLUB_NIGHT, EventKind.TOURNAMENT
ON, OFF = True, False
STARTED, NOT_STARTED = True, False

# The sentences (formatted with the scene's names and ids).
NOT_STARTED_TEXT = "The round has not started: hands can be entered once the organiser starts it."
WRITERS_AT_A_TOURNAMENT = (
    "At {event} hands are entered at the game's table (its code opens it) or by an organiser "
    "of {club}."
)
WRITERS_AT_A_CLUB_NIGHT = (
    "At {event} hands are entered at the game's table (its code opens it) or by a scorekeeper "
    "of {club}."
)
UNDO_NOT_LAST = (
    "Only the hand just entered can be undone, once, until the next one is entered. An "
    "organiser corrects earlier hands."
)
CARRIED_FORWARD = (
    "This game is over and its result has been carried forward: only the organiser can change "
    "it now."
)
REOPEN_REASON = (
    "Say why this finished game is reopened: the reason is kept in its history, and its result "
    "leaves the ratings and standings until it ends again."
)
MOVED_ON = (
    "This table has moved on to another game since this was entered. Check the score sheet of "
    "the game it was for with the organiser."
)
SAME_PARTNERSHIP = (
    "South is a partner of the player who entered this hand: a player of East–West confirms it."
)
# An id in an API body is looked for among the user's clubs' rows only (kaiser_club/api/
# visible.py): club B's is answered as an id that does not exist, naming nothing of club B.
NO_PLAYER = (
    "There is no player {b_player} that your clubs know: choose one of their members, former "
    "members or visitors."
)


# --- The scenes --------------------------------------------------------------------------------


@dataclass
class Scene:
    """What a case acts on: a club (A) and its users, and what the case needs of the rest."""

    club: Club
    users: dict[str, User]
    table: Setup | None = None  # an event's table with its game (tests/table/helpers.py)
    event: Event | None = None
    players: dict[str, Player] = field(default_factory=dict)  # "a1", "b1", "none1", …
    teams: dict[str, Team] = field(default_factory=dict)
    client_ids: dict[int, uuid.UUID] = field(default_factory=dict)  # the hands' ids, by number
    other_game: Game | None = None  # a game of another table of the event

    @property
    def setup(self) -> Setup:
        assert self.table is not None
        return self.table

    @property
    def game(self) -> Game:
        return Game.objects.get(id=self.setup.game.id)

    def text(self) -> dict[str, Any]:
        """What the sentences name: {club}, {event}, {b_player} (club B's first member),
        {b_team}, {a_team_name}, …"""
        event = self.event or (self.table.event if self.table else None)
        values: dict[str, Any] = {"club": self.club.name, "event": event.name if event else ""}
        if "b1" in self.players:
            values["b_player"] = self.players["b1"].id
        for key, team in self.teams.items():
            values[f"{key}_team"] = team.id
            values[f"{key}_team_name"] = team.name
        return values


def _users(club: Club) -> dict[str, User]:
    return {
        role.value: member(club, role) for role in (Role.PLAYER, Role.SCOREKEEPER, Role.ORGANISER)
    }


def hand_scene(kind: str, verification: bool, started: bool) -> Callable[[], Scene]:
    """Table 1 of an event with a fresh game, its round started or waiting for its start."""

    def build() -> Scene:
        club = make_club(name="Regina Kaiser Club")
        event = make_event(club=club, kind=kind, verification=verification)
        return Scene(club=club, users=_users(club), table=add_table(event, started=started))

    return build


def _enter(scene: Scene, user: User, number: int) -> Hand:
    """A hand entered at the scene's game by ``user`` (under the event's rules)."""
    entry = played(N, 7, 6, NS, EW) if number % 2 else played(E, 7, 6, EW, NS)
    scene.client_ids[number] = uuid.uuid4()
    recorded = scoring.hand_record_by(
        actor=Actor.of(user), game=scene.game, entry=entry, client_id=scene.client_ids[number]
    )
    return recorded.hand


def undo_scene(*, taken_back: bool) -> Callable[[], Scene]:
    """A club night's game (no verification) where the scorekeeper entered hands 1 and 2 and,
    when ``taken_back``, has already undone hand 2."""

    def build() -> Scene:
        scene = hand_scene(NIGHT, OFF, STARTED)()
        scorekeeper = scene.users["scorekeeper"]
        _enter(scene, scorekeeper, 1)
        _enter(scene, scorekeeper, 2)
        if taken_back:
            scoring.hand_undo_by(actor=Actor.of(scorekeeper), game_id=scene.game.id, number=2)
        return scene

    return build


def finished_scene(kind: str) -> Callable[[], Scene]:
    """A game won in three hands at table 1 of round 1, and round 2 drawn (its game at the same
    table not begun): the table still shows the finished game, whose result is carried forward
    into round 2."""

    def build() -> Scene:
        scene = hand_scene(kind, OFF, STARTED)()
        for _ in range(3):
            scoring.hand_record(
                game_id=scene.game.id, entry=winning_hand(Side.NS), client_id=uuid.uuid4()
            )
        assert scene.game.status == "finished"
        add_table(scene.setup.event, round_number=2, started=False, table=scene.setup.table)
        return scene

    return build


def entered_scene(verification: bool) -> Callable[[], Scene]:
    """A club night's game at table 1 where the table's tablet entered the doors' hand (hand
    1, by North: pending with ``verification``) with the id the scene keeps."""

    def build() -> Scene:
        scene = hand_scene(NIGHT, verification, STARTED)()
        incoming = HandEntrySerializer(data=_hand_entry())
        assert incoming.is_valid(), incoming.errors
        scene.client_ids[1] = uuid.uuid4()
        scoring.hand_record_by(
            actor=Actor(user=AnonymousUser(), table_id=scene.setup.table.id),
            game=scene.game,
            entry=incoming.to_entry(),
            client_id=scene.client_ids[1],
            entered_by_seat=Seat.NORTH,
        )
        return scene

    return build


def discarded_scene() -> Scene:
    """``entered_scene`` with verification, its pending hand discarded at the table."""
    scene = entered_scene(ON)()
    play.hand_discard_by(
        actor=Actor(user=AnonymousUser(), table_id=scene.setup.table.id),
        game=scene.game,
        number=1,
    )
    return scene


def moved_on_scene() -> Scene:
    """``entered_scene``'s game played to its end and agreed to by both partnerships, and
    round 2 drawn at the same table: the table is at round 2's game now."""
    scene = entered_scene(OFF)()
    while scene.game.status != "finished":
        scoring.hand_record(
            game_id=scene.game.id, entry=winning_hand(Side.NS), client_id=uuid.uuid4()
        )
    add_table(scene.setup.event, round_number=2, started=False, table=scene.setup.table)
    for side in (Side.NS, Side.EW):
        verification.game_acknowledge(game_id=scene.game.id, team=side)
    return scene


def two_tables_scene() -> Scene:
    """``finished_scene``'s finished game at table 1, and table 2 with a game of its own."""
    scene = finished_scene(NIGHT)()
    scene.other_game = add_table(scene.setup.event, number=2).game
    return scene


def two_hands_scene() -> Scene:
    """A tournament's game at table 1 with two hands entered by the organiser."""
    scene = hand_scene(TOURNAMENT, OFF, STARTED)()
    _enter(scene, scene.users["organiser"], 1)
    _enter(scene, scene.users["organiser"], 2)
    return scene


def played_on_scene() -> Scene:
    """Single elimination, four teams: T1 won W1-1 (three 10 no-trump hands, 60–0) and T2
    W1-2 the same way; the final W2-1 has one hand in (North–South, 20–0)."""
    from django.test import TestCase

    from tests.tournaments.helpers import generate, win_for
    from tests.tournaments.helpers import make_event as make_bracket

    club = make_club(name="Regina Kaiser Club")
    event = make_bracket(teams=4, format="single_elimination", club=club)
    generate(event)
    rows = {p.code: p for p in Pairing.objects.filter(event=event).select_related("home")}
    for code in ("W1-1", "W1-2"):
        win_for(rows[code], rows[code].home)
    final = Pairing.objects.get(event=event, code="W2-1")
    assert final.game_id is not None
    with TestCase.captureOnCommitCallbacks(execute=True):
        scoring.hand_record(
            game_id=final.game_id, entry=winning_hand(Side.NS), client_id=uuid.uuid4()
        )
    first = Pairing.objects.select_related("game", "round", "table").get(id=rows["W1-1"].id)
    assert first.game is not None
    setup = Setup(event=event, table=first.table, round=first.round, pairing=first, game=first.game)  # type: ignore[arg-type]
    return Scene(club=club, users=_users(club), table=setup, event=event)


def _member_of(club: Club, name: str) -> Player:
    player = Player.objects.create(name=name, email=f"{name.split()[0].lower()}@example.org")
    Membership.objects.create(club=club, player=player, role=Role.PLAYER)
    return player


def clubs_scene() -> Scene:
    """Club A (the actor's) with an event open for entries, four members and two teams; club B
    with two members and their team; two records of no club yet."""
    a = make_club(name="Regina Kaiser Club")
    b = make_club(name="Brandon Kaiser Club")
    event = events.event_create(club=a, name="Spring Swiss", date=dt.date(2027, 4, 3), rounds=3)
    players = {
        "a1": _member_of(a, "Ann Regina"),
        "a2": _member_of(a, "Al Regina"),
        "a3": _member_of(a, "Amy Regina"),
        "a4": _member_of(a, "Abe Regina"),
        "b1": _member_of(b, "Bea Brandon"),
        "b2": _member_of(b, "Bob Brandon"),
        "none1": Player.objects.create(name="Nora Nobody"),
        "none2": Player.objects.create(name="Ned Nobody"),
    }
    teams = {
        "a": Team.objects.create(
            club=a, player_one=players["a1"], player_two=players["a2"], name="Regina Aces"
        ),
        "a2": Team.objects.create(
            club=a, player_one=players["a3"], player_two=players["a4"], name="Regina Kings"
        ),
        "b": Team.objects.create(
            club=b, player_one=players["b1"], player_two=players["b2"], name="Brandon Aces"
        ),
    }
    return Scene(club=a, users=_users(a), event=event, players=players, teams=teams)


def team_entered_scene() -> Scene:
    """``clubs_scene`` with Regina Aces (Ann and Al) entered."""
    scene = clubs_scene()
    assert scene.event is not None
    events.entry_register_team_unchecked(
        event=scene.event, player_one=scene.players["a1"], player_two=scene.players["a2"]
    )
    return scene


def played_scene() -> Scene:
    """``team_entered_scene`` with Regina Kings entered too, and a first game between the two
    decided (a forfeit: a result under the entries' players)."""
    scene = team_entered_scene()
    assert scene.event is not None
    kings = events.entry_register_team_unchecked(
        event=scene.event, player_one=scene.players["a3"], player_two=scene.players["a4"]
    )
    aces = Entry.objects.get(event=scene.event, team=scene.teams["a"])
    first = Round.objects.create(event=scene.event, number=1)
    Pairing.objects.create(
        event=scene.event,
        round=first,
        home=aces,
        away=kings,
        home_team=aces.team,
        away_team=kings.team,
        result="forfeit",
        winner_side="home",
    )
    return scene


# --- The doors ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Door:
    name: str
    kind: str  # "api", "table" or "page"
    send: Callable[[Scene, Client, dict[str, Any]], Any]  # scene, client, the case's objects


def _hand_entry() -> dict[str, Any]:
    return {
        "bidder": 1,
        "bid": 7,
        "contract": "trump",
        "trump": "hearts",
        "bidding_team_tricks": 5,
        "five_hearts": "ew",
        "three_spades": "ns",
    }


def _api_hand(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    body = {**_hand_entry(), "client_id": str(uuid.uuid4()), "entered_by_seat": 0}
    return client.post(f"/api/games/{scene.game.id}/hands/", body, format="json")


def _table_hand(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    body = {
        "game_id": scene.game.id,
        "client_id": str(uuid.uuid4()),
        "entered_by_seat": 0,
        "entry": _hand_entry(),
    }
    return client.post(
        f"/table/{scene.setup.table.id}/hands", body, content_type="application/json"
    )


def _reason(objects: dict[str, Any]) -> dict[str, str]:
    return {"reason": objects["reason"]} if "reason" in objects else {}


def _last_hand(scene: Scene) -> Hand:
    hand = Hand.with_pending.filter(game_id=scene.game.id).order_by("-number").first()
    assert hand is not None
    return hand


def _api_undo(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    body = {"number": _last_hand(scene).number, **_reason(objects)}
    return client.post(f"/api/games/{scene.game.id}/undo/", body, format="json")


def _table_undo(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    hand = _last_hand(scene)
    body = {
        "game_id": scene.game.id,
        "number": hand.number,
        "client_id": str(hand.client_id),
        **_reason(objects),
    }
    return client.post(f"/table/{scene.setup.table.id}/undo", body, content_type="application/json")


def _api_hand_again(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    """Hand 1 sent again: its id and body."""
    body = {**_hand_entry(), "client_id": str(scene.client_ids[1]), "entered_by_seat": 0}
    return client.post(f"/api/games/{scene.game.id}/hands/", body, format="json")


def _table_hand_again(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    body = {
        "game_id": scene.game.id,
        "client_id": str(scene.client_ids[1]),
        "entered_by_seat": 0,
        "entry": _hand_entry(),
    }
    return client.post(
        f"/table/{scene.setup.table.id}/hands", body, content_type="application/json"
    )


def _table_undo_by_id(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    """The undo the table sends for the hand the case names (by its number and its id)."""
    number = objects["hand"]
    body = {"game_id": scene.game.id, "number": number, "client_id": str(scene.client_ids[number])}
    return client.post(f"/table/{scene.setup.table.id}/undo", body, content_type="application/json")


def _table_confirm(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    body = {"game_id": scene.game.id, "number": 1, "seat": objects["seat"]}
    return client.post(
        f"/table/{scene.setup.table.id}/confirm", body, content_type="application/json"
    )


def _table_discard(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    body = {"game_id": scene.game.id, "number": 1, "client_id": str(scene.client_ids[1])}
    return client.post(
        f"/table/{scene.setup.table.id}/discard", body, content_type="application/json"
    )


def _table_acknowledge(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    game = scene.other_game if objects.get("game") == "another table's" else scene.game
    assert game is not None
    body = {"game_id": game.id, "team": "ns"}
    return client.post(
        f"/table/{scene.setup.table.id}/acknowledge", body, content_type="application/json"
    )


def _pair(scene: Scene, objects: dict[str, Any]) -> tuple[Player, Player]:
    return scene.players[objects["players"][0]], scene.players[objects["players"][1]]


def _event_id(scene: Scene) -> int:
    assert scene.event is not None
    return scene.event.id


def _api_entry(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    one, two = _pair(scene, objects)
    body = {"player_one": one.id, "player_two": two.id}
    return client.post(f"/api/events/{_event_id(scene)}/entries/", body, format="json")


def _entry_page(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    one, two = _pair(scene, objects)
    body = {"player_one": one.name, "player_two": two.name}
    return client.post(f"/events/{_event_id(scene)}/entries/add/", body)


def _entered_url(scene: Scene) -> str:
    entry = Entry.objects.get(event=scene.event, team=scene.teams["a"])
    return f"/events/{_event_id(scene)}/entries/{entry.id}/"


def _api_entry_change(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    one, two = _pair(scene, objects)
    body = {"player_one": one.id, "player_two": two.id}
    return client.patch(f"/api{_entered_url(scene)}", body, format="json")


def _entry_change_page(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    one, two = _pair(scene, objects)
    return client.post(
        f"{_entered_url(scene)}edit/", {"player_one": one.name, "player_two": two.name}
    )


def _csv(scene: Scene, objects: dict[str, Any]) -> str:
    one, two = _pair(scene, objects)
    return f"player_one,player_two\n{one.name},{two.name}\n"


def _csv_page(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    body = {"csv": _csv(scene, objects), "confirm": "on"}
    return client.post(f"/events/{_event_id(scene)}/entries/import/", body)


def _csv_api(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    body = {"csv": _csv(scene, objects)}
    return client.post(f"/api/events/{_event_id(scene)}/entries/import/", body, format="json")


def _api_team(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    one, two = _pair(scene, objects)
    body = {"club": scene.club.id, "player_one_id": one.id, "player_two_id": two.id}
    return client.post("/api/teams/", body, format="json")


def _api_game(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    ns, ew = scene.teams[objects["teams"][0]], scene.teams[objects["teams"][1]]
    body: dict[str, Any] = {
        "club": scene.club.id,
        "ns_team": ns.id,
        "ew_team": ew.id,
        "first_dealer": 0,
    }
    seats = objects.get("seats")
    if seats:
        body.update({seat: scene.players[key].id for seat, key in seats.items()})
    return client.post("/api/games/", body, format="json")


def _correction(scene: Scene, objects: dict[str, Any]) -> dict[str, Any]:
    """The hand the case corrects it to (East bids 7 hearts and takes 5: set), why, and
    whether the later games may be rolled back."""
    return {
        **_hand_entry(),
        "reason": objects.get("reason", ""),
        "rollback": objects.get("rollback", False),
    }


def _api_correct(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    body = _correction(scene, objects)
    return client.put(f"/api/games/{scene.game.id}/hands/1/", body, format="json")


def _events_api_correct(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    pairing = scene.setup.pairing
    url = f"/api/events/{pairing.event_id}/pairings/{pairing.id}/hands/1/"
    return client.put(url, _correction(scene, objects), format="json")


def _page_correct(scene: Scene, client: Client, objects: dict[str, Any]) -> Any:
    body = {"number": 1, **_correction(scene, objects)}
    pairing = scene.setup.pairing
    return client.post(f"/events/{pairing.event_id}/games/{pairing.id}/correct-hand/", body)


DOORS = {
    door.name: door
    for door in (
        Door("games API", "api", _api_hand),
        Door("table page", "table", _table_hand),
        Door("games API undo", "api", _api_undo),
        Door("table page undo", "table", _table_undo),
        Door("games API, the same hand again", "api", _api_hand_again),
        Door("table page, the same hand again", "table", _table_hand_again),
        Door("table page undo by the hand's id", "table", _table_undo_by_id),
        Door("table page confirm", "table", _table_confirm),
        Door("table page discard", "table", _table_discard),
        Door("table page acknowledge", "table", _table_acknowledge),
        Door("entries API", "api", _api_entry),
        Door("add-entry page", "page", _entry_page),
        Door("CSV import page", "page", _csv_page),
        Door("entry change API", "api", _api_entry_change),
        Door("entry change page", "page", _entry_change_page),
        Door("CSV import API", "api", _csv_api),
        Door("teams API", "api", _api_team),
        Door("games API, new game", "api", _api_game),
        Door("games API correction", "api", _api_correct),
        Door("events API correction", "api", _events_api_correct),
        Door("game page correction", "page", _page_correct),
    )
}


# --- The outcomes ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Allowed:
    what: str  # the write, in words
    check: Callable[[Scene, dict[str, Any]], None]


@dataclass(frozen=True)
class Refused:
    status: int
    sentence: str  # formatted with Scene.text()


@dataclass(frozen=True)
class Repeated:
    what: str  # the state the retry finds, in words
    check: Callable[[Scene, dict[str, Any]], None]


def _counted(scene: Scene, objects: dict[str, Any]) -> None:
    assert Hand.objects.filter(game_id=scene.game.id).count() == 1
    assert scene.game.hand_count == 1


def _pending(scene: Scene, objects: dict[str, Any]) -> None:
    assert Hand.objects.filter(game_id=scene.game.id).count() == 0
    assert Hand.with_pending.get(game_id=scene.game.id).status == "pending"
    assert scene.game.hand_count == 0


def _taken_back(before: int) -> Callable[[Scene, dict[str, Any]], None]:
    def check(scene: Scene, objects: dict[str, Any]) -> None:
        assert Hand.with_pending.filter(game_id=scene.game.id).count() == before - 1
        assert scene.game.hand_count == before - 1

    return check


def _reopened(scene: Scene, objects: dict[str, Any]) -> None:
    game = scene.game
    assert (game.status, game.hand_count) == ("in_progress", 2)
    undo = GameChange.objects.filter(game=game, action="undo").latest("id")
    assert (undo.by, undo.reason) == (scene.users["organiser"], objects["reason"])


def _entered(records: str) -> Callable[[Scene, dict[str, Any]], None]:
    """The event's one entry (changed or made) holds: the very records named ("same"), records
    of no club now the club's visitors ("adopted"), or new visitors of the club by the names
    typed ("new")."""

    def check(scene: Scene, objects: dict[str, Any]) -> None:
        entry = Entry.objects.select_related("team").get(event=scene.event)
        assert entry.team is not None
        named = _pair(scene, objects)
        held = [entry.team.player_one, entry.team.player_two]
        assert sorted(p.name for p in held) == sorted(p.name for p in named)
        if records in ("same", "adopted"):
            assert {p.id for p in held} == {p.id for p in named}
        else:
            assert not {p.id for p in held} & {p.id for p in named}, "another club's records"
        if records in ("adopted", "new"):
            assert all(p.host_club_id == scene.club.id for p in held)

    return check


def _rolled_back(scene: Scene, objects: dict[str, Any]) -> None:
    """Hand 1 of W1-1 is corrected, and the final it fed no longer holds its hand."""
    _corrected(scene, objects)
    final = Pairing.objects.get(event=scene.event, code="W2-1")
    assert final.game_id is None or not Hand.objects.filter(game_id=final.game_id).exists()


def _corrected(scene: Scene, objects: dict[str, Any]) -> None:
    hand = Hand.objects.get(game_id=scene.game.id, number=1)
    assert (hand.bidder, hand.bid, hand.trump, hand.bidding_team_tricks) == (1, 7, "hearts", 5)
    change = scene.game.changes.filter(action="correct").get()
    assert (change.hand_number, change.reason) == (1, objects["reason"])


def _one_hand(status: str) -> Callable[[Scene, dict[str, Any]], None]:
    def check(scene: Scene, objects: dict[str, Any]) -> None:
        hand = Hand.with_pending.get(game_id=scene.game.id)
        assert (hand.number, hand.status, hand.client_id) == (1, status, scene.client_ids[1])

    return check


def _no_hand(scene: Scene, objects: dict[str, Any]) -> None:
    assert not Hand.with_pending.filter(game_id=scene.game.id).exists()


def _hand_1_kept(scene: Scene, objects: dict[str, Any]) -> None:
    hand = Hand.objects.get(game_id=scene.game.id, number=1)
    assert hand.client_id == scene.client_ids[1]


def _hand_1_left(scene: Scene, objects: dict[str, Any]) -> None:
    assert scene.game.hand_count == 1
    assert list(Hand.with_pending.filter(game_id=scene.game.id).values_list("number")) == [(1,)]


def _acknowledged(scene: Scene, objects: dict[str, Any]) -> None:
    assert verification.acknowledged_teams(game=scene.game) == {"ns"}


COUNTED = Allowed("the hand counts at once", _counted)
PENDING = Allowed("the hand waits for the other partnership", _pending)


# --- The cases ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    name: str
    actor: str  # "organiser", "scorekeeper", "player" (of the scene's club) or "tablet"
    objects: dict[str, Any]  # what the case names, for its doors (and its name)
    scene: Callable[[], Scene]
    doors: tuple[str, ...]
    expect: Allowed | Refused | Repeated
    xfail: dict[str, str] = field(default_factory=dict)  # door -> the branch fixing it


HANDS = ("games API", "table page")
UNDO = ("games API undo", "table page undo")
ENTRIES = ("entries API", "add-entry page", "CSV import page", "CSV import API")
CORRECT = ("games API correction", "events API correction", "game page correction")
PLAYED_ON = (
    "Game W1-1 cannot change its winner: the teams have already played on in W2-1 at table 1 (in "
    "progress, 20–0 after 1 hand). Roll that game back first, after checking what it undoes, "
    "then change the result."
)
BY_NAME = ("add-entry page", "CSV import page", "CSV import API")
CHANGE = ("entry change API", "entry change page")
PLAYED = (
    "A game of Regina Aces has been played, so its players can no longer change. Record a "
    "substitution on the game where someone else plays instead."
)


def hand_case(actor: str, kind: str, verification: bool, started: bool, expect: Any) -> Case:
    where = "club night" if kind == NIGHT else "tournament"
    name = (
        f"hand by {actor}, {where}, verification {'on' if verification else 'off'}, round "
        f"{'started' if started else 'not started'}"
    )
    return Case(
        name,
        actor,
        {"event": kind, "verification": verification, "round started": started},
        hand_scene(kind, verification, started),
        ("table page",) if actor == "tablet" else HANDS,  # the API takes no table codes
        expect,
    )


CASES: list[Case] = [
    # --- Entering a hand: who, where, verification, the round's start ---
    # actor, event, verification, round started, outcome
    *[
        hand_case(*row)
        for row in (
            ("organiser", NIGHT, ON, STARTED, COUNTED),  # an organiser's entry counts at once
            ("organiser", NIGHT, OFF, STARTED, COUNTED),
            ("organiser", TOURNAMENT, ON, STARTED, COUNTED),
            ("organiser", TOURNAMENT, OFF, STARTED, COUNTED),
            ("organiser", NIGHT, ON, NOT_STARTED, Refused(400, NOT_STARTED_TEXT)),
            ("organiser", NIGHT, OFF, NOT_STARTED, Refused(400, NOT_STARTED_TEXT)),
            ("organiser", TOURNAMENT, ON, NOT_STARTED, Refused(400, NOT_STARTED_TEXT)),
            ("organiser", TOURNAMENT, OFF, NOT_STARTED, Refused(400, NOT_STARTED_TEXT)),
            ("scorekeeper", NIGHT, ON, STARTED, PENDING),
            ("scorekeeper", NIGHT, OFF, STARTED, COUNTED),
            ("scorekeeper", TOURNAMENT, ON, STARTED, Refused(403, WRITERS_AT_A_TOURNAMENT)),
            ("scorekeeper", TOURNAMENT, OFF, STARTED, Refused(403, WRITERS_AT_A_TOURNAMENT)),
            ("scorekeeper", NIGHT, ON, NOT_STARTED, Refused(400, NOT_STARTED_TEXT)),
            ("scorekeeper", NIGHT, OFF, NOT_STARTED, Refused(400, NOT_STARTED_TEXT)),
            ("scorekeeper", TOURNAMENT, ON, NOT_STARTED, Refused(403, WRITERS_AT_A_TOURNAMENT)),
            ("scorekeeper", TOURNAMENT, OFF, NOT_STARTED, Refused(403, WRITERS_AT_A_TOURNAMENT)),
            ("tablet", NIGHT, ON, STARTED, PENDING),
            ("tablet", NIGHT, OFF, STARTED, COUNTED),
            ("tablet", TOURNAMENT, ON, STARTED, PENDING),
            ("tablet", TOURNAMENT, OFF, STARTED, COUNTED),
            ("tablet", NIGHT, ON, NOT_STARTED, Refused(400, NOT_STARTED_TEXT)),
            ("tablet", NIGHT, OFF, NOT_STARTED, Refused(400, NOT_STARTED_TEXT)),
            ("tablet", TOURNAMENT, ON, NOT_STARTED, Refused(400, NOT_STARTED_TEXT)),
            ("tablet", TOURNAMENT, OFF, NOT_STARTED, Refused(400, NOT_STARTED_TEXT)),
            ("player", NIGHT, ON, STARTED, Refused(403, WRITERS_AT_A_CLUB_NIGHT)),
            ("player", TOURNAMENT, ON, STARTED, Refused(403, WRITERS_AT_A_TOURNAMENT)),
        )
    ],
    # --- Taking a hand back ---
    *[
        Case(
            f"undo of the hand just entered, by {actor}",
            actor,
            {"hand": "2, the last entered"},
            undo_scene(taken_back=False),
            ("table page undo",) if actor == "tablet" else UNDO,
            Allowed("hand 2 is taken back", _taken_back(2)),
        )
        for actor in ("scorekeeper", "tablet", "organiser")
    ],
    *[
        Case(
            f"chained undo (hand 1 after hand 2), by {actor}",
            actor,
            {"hand": "1, after 2 was undone"},
            undo_scene(taken_back=True),
            ("table page undo",) if actor == "tablet" else UNDO,
            Refused(400, UNDO_NOT_LAST),
        )
        for actor in ("scorekeeper", "tablet")
    ],
    Case(
        "chained undo (hand 1 after hand 2), by organiser",
        "organiser",
        {"hand": "1, after 2 was undone"},
        undo_scene(taken_back=True),
        UNDO,
        Allowed("hand 1 is taken back: an organiser's undo is not limited", _taken_back(1)),
    ),
    *[
        Case(
            f"undo at a finished game carried forward, {where}, by {actor}",
            actor,
            {"game": "finished, round 2 drawn"},
            finished_scene(kind),
            ("table page undo",) if actor == "tablet" else UNDO,
            Refused(400, CARRIED_FORWARD),
        )
        for actor, kind, where in (
            ("tablet", TOURNAMENT, "tournament"),
            ("tablet", NIGHT, "club night"),
            ("scorekeeper", NIGHT, "club night"),
        )
    ],
    *[
        Case(
            f"undo at a finished game carried forward, {where}, by organiser",
            "organiser",
            {"game": "finished, round 2 drawn", "reason": "Hand 3 was mistyped"},
            finished_scene(kind),
            UNDO,
            Allowed("the organiser reopens the game, saying why", _reopened),
        )
        for kind, where in ((TOURNAMENT, "tournament"), (NIGHT, "club night"))
    ],
    *[
        Case(
            f"undo at a finished game carried forward, {where}, by organiser, no reason",
            "organiser",
            {"game": "finished, round 2 drawn"},
            finished_scene(kind),
            UNDO,
            Refused(400, REOPEN_REASON),
        )
        for kind, where in ((TOURNAMENT, "tournament"), (NIGHT, "club night"))
    ],
    # --- The same hand again (a retry), and a table that moved on ---
    *[
        Case(
            f"the same hand sent again, by {actor}",
            actor,
            {"hand": "1, its id and body again"},
            entered_scene(OFF),
            ("table page, the same hand again",)
            if actor == "tablet"
            else ("games API, the same hand again", "table page, the same hand again"),
            Repeated("hand 1 once, as it was", _one_hand("confirmed")),
        )
        for actor in ("tablet", "scorekeeper", "organiser")
    ],
    *[
        Case(
            f"a new hand for the game its table moved on from, by {actor}",
            actor,
            {"game": "over and agreed to; the table at round 2's game"},
            moved_on_scene,
            ("table page",),  # the API names the game itself: no table moves on under it
            Refused(409, MOVED_ON),
        )
        for actor in ("tablet", "scorekeeper")
    ],
    *[
        Case(
            f"the same hand again after its table moved on, by {actor}",
            actor,
            {"game": "over and agreed to; the table at round 2's game", "hand": 1},
            moved_on_scene,
            ("table page, the same hand again",),
            Repeated("hand 1 as it was", _hand_1_kept),
        )
        for actor in ("tablet", "scorekeeper")
    ],
    *[
        Case(
            f"undo by its id of a hand already taken back, by {actor}",
            actor,
            {"hand": 2},
            undo_scene(taken_back=True),
            ("table page undo by the hand's id",),
            Repeated("hand 1 stays: nothing more is taken back", _hand_1_left),
        )
        for actor in ("tablet", "scorekeeper")
    ],
    # --- Verification at the table: confirm, discard ---
    *[
        Case(
            f"confirmation from the other partnership, by {actor}",
            actor,
            {"seat": 1},
            entered_scene(ON),
            ("table page confirm",),
            Allowed("hand 1 counts", _one_hand("confirmed")),
        )
        for actor in ("tablet", "scorekeeper")
    ],
    Case(
        "confirmation from the entering player's partner",
        "tablet",
        {"seat": 2},
        entered_scene(ON),
        ("table page confirm",),
        Refused(400, SAME_PARTNERSHIP),
    ),
    *[
        Case(
            f"discard of the pending hand, by {actor}",
            actor,
            {"hand": 1},
            entered_scene(ON),
            ("table page discard",),
            Allowed("the pending hand is gone", _no_hand),
        )
        for actor in ("tablet", "scorekeeper")
    ],
    Case(
        "discard sent again",
        "tablet",
        {"hand": "1, discarded already"},
        discarded_scene,
        ("table page discard",),
        Repeated("no hand, nothing more written", _no_hand),
    ),
    # --- The partnerships agree to the result ---
    *[
        Case(
            f"North–South agree to the result at its table, by {actor}",
            actor,
            {"game": "over"},
            finished_scene(NIGHT),
            ("table page acknowledge",),
            Allowed("North–South's agreement is kept", _acknowledged),
        )
        for actor in ("tablet", "scorekeeper")
    ],
    *[
        Case(
            f"agreeing to another table's game, by {actor}",
            actor,
            {"game": "another table's"},
            two_tables_scene,
            ("table page acknowledge",),
            Refused(403, "That game was not played at this table."),
        )
        for actor in ("tablet", "scorekeeper")
    ],
    Case(
        "agreeing to a result, by a player of the club",
        "player",
        {"game": "over"},
        finished_scene(NIGHT),
        ("table page acknowledge",),
        Refused(403, WRITERS_AT_A_CLUB_NIGHT),
    ),
    # --- Registering an entry ---
    Case(
        "entry naming club B's members by id",
        "organiser",
        {"players": ("b1", "b2")},
        clubs_scene,
        ("entries API",),  # the pages take names (next case)
        Refused(400, NO_PLAYER),
    ),
    Case(
        "entry naming club B's members by name",
        "organiser",
        {"players": ("b1", "b2")},
        clubs_scene,
        BY_NAME,
        Allowed(
            "two new visitors of club A by those names; B's records untouched", _entered("new")
        ),
    ),
    Case(
        "entry naming club A's members",
        "organiser",
        {"players": ("a1", "a2")},
        clubs_scene,
        ENTRIES,
        Allowed("the members' own records", _entered("same")),
    ),
    Case(
        "entry naming records of no club",
        "organiser",
        {"players": ("none1", "none2")},
        clubs_scene,
        ENTRIES,
        Allowed("the records, now visitors of club A", _entered("adopted")),
    ),
    # --- Changing an entry's players (issue 29) ---
    Case(
        "entry changed to club B's members, by id",
        "organiser",
        {"players": ("b1", "b2")},
        team_entered_scene,
        ("entry change API",),  # the page takes names (next case)
        Refused(400, NO_PLAYER),
    ),
    Case(
        "entry changed to club B's members, by name",
        "organiser",
        {"players": ("b1", "b2")},
        team_entered_scene,
        ("entry change page",),
        Allowed(
            "two new visitors of club A by those names; B's records untouched", _entered("new")
        ),
    ),
    Case(
        "entry changed to club A's members",
        "organiser",
        {"players": ("a1", "a3")},
        team_entered_scene,
        CHANGE,
        Allowed("the members' own records", _entered("same")),
    ),
    Case(
        "entry changed to records of no club",
        "organiser",
        {"players": ("none1", "none2")},
        team_entered_scene,
        CHANGE,
        Allowed("the records, now visitors of club A", _entered("adopted")),
    ),
    Case(
        "entry's players changed once its first game has a result",
        "organiser",
        {"players": ("a1", "a3")},
        played_scene,
        (
            "entry change API",
        ),  # the page shows the players fixed (tests/tournaments/test_entry_edit.py)
        Refused(400, PLAYED),
    ),
    # --- The organiser corrects a past hand (the game page, as the API) ---
    Case(
        "an organiser corrects hand 1",
        "organiser",
        {"reason": "East took 5 tricks, not 6"},
        two_hands_scene,
        CORRECT,
        Allowed("hand 1 as corrected, the reason in the game's history", _corrected),
    ),
    Case(
        "a correction with no reason",
        "organiser",
        {"reason": ""},
        two_hands_scene,
        CORRECT,
        Refused(400, "Say why the hand is corrected: the reason is kept in its history."),
    ),
    Case(
        "a correction that changes a winner who played on",
        "organiser",
        {"reason": "the sheet was misread"},
        played_on_scene,
        CORRECT,
        Refused(409, PLAYED_ON),
    ),
    Case(
        "a correction that rolls back the games the winner played on",
        "organiser",
        {"reason": "the sheet was misread", "rollback": True},
        played_on_scene,
        CORRECT,
        Allowed("hand 1 as corrected, the final rolled back", _rolled_back),
    ),
    # --- Teams and games ---
    Case(
        "a partnership of club B's members",
        "organiser",
        {"players": ("b1", "b2")},
        clubs_scene,
        ("teams API", "entries API"),
        Refused(400, NO_PLAYER),
    ),
    Case(
        "a game of club B's team",
        "organiser",
        {"teams": ("b", "a")},
        clubs_scene,
        ("games API, new game",),  # no page starts a game
        Refused(400, "There is no team {b_team} that you can see."),
    ),
    Case(
        "a game seating club B's member",
        "organiser",
        {"teams": ("a", "a2"), "seats": {"north": "b1", "south": "a2", "east": "a3", "west": "a4"}},
        clubs_scene,
        ("games API, new game",),
        Refused(400, NO_PLAYER),
    ),
]


# --- Running a case through a door -------------------------------------------------------------


def client_for(scene: Scene, case: Case, door: Door) -> Client:
    client: Client = APIClient() if door.kind == "api" else Client()
    if case.actor == "tablet":
        return opened(scene.setup, client)
    client.force_login(scene.users[case.actor])
    return client


def error_messages(answer: Any) -> list[str]:
    return [m.message for m in get_messages(answer.wsgi_request) if m.level == ERROR]


def said(answer: Any, door: Door) -> str:
    if door.kind in ("api", "table"):
        body = answer.json()
        fields = [v[0] for v in body.values() if isinstance(v, list) and v]  # DRF's field errors
        return str(body["detail"] if "detail" in body or not fields else fields[0])
    return " | ".join(error_messages(answer)) or answer.content.decode()[:2000]


def params() -> Iterator[Any]:
    for case in CASES:
        for name in case.doors:
            reason = case.xfail.get(name)
            marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
            yield pytest.param(case, DOORS[name], id=f"{case.name} | {name}", marks=marks)


@pytest.mark.django_db
@pytest.mark.parametrize(("case", "door"), list(params()))
def test_each_door_gives_the_cases_outcome(case: Case, door: Door) -> None:
    scene = case.scene()
    client = client_for(scene, case, door)
    before = snapshot()
    answer = door.send(scene, client, case.objects)
    written = changes(before, snapshot())
    where = f"{case.name} through the {door.name}"
    if isinstance(case.expect, Repeated):
        assert 200 <= answer.status_code < 300, (
            f"{where}: {answer.status_code}: {said(answer, door)}"
        )
        assert not written, f"{where} repeated what was done but wrote:\n" + "\n".join(written)
        case.expect.check(scene, case.objects)
    elif isinstance(case.expect, Refused):
        sentence = case.expect.sentence.format_map(scene.text())
        if door.kind == "page":  # the form again, or back with the sentence as a message
            # The form again (400, or the refusal's own status), or back with a message.
            allowed = (200, 302, 400, case.expect.status)
            assert answer.status_code in allowed, f"{where}: {answer.status_code}"
            shown = (
                sentence in error_messages(answer) or escape(sentence) in answer.content.decode()
            )
            assert shown, f"{where}: expected {sentence!r}, said {said(answer, door)!r}"
        else:
            status = answer.status_code
            assert status == case.expect.status, (
                f"{where}: {status}, expected {case.expect.status}: {said(answer, door)}"
            )
            assert said(answer, door) == sentence, f"{where}: {said(answer, door)!r}"
        assert not written, f"{where} was refused but wrote:\n" + "\n".join(written)
    else:
        if door.kind == "page":
            assert answer.status_code == 302 and not error_messages(answer), (
                f"{where}: {answer.status_code} {said(answer, door)}"
            )
        else:
            assert 200 <= answer.status_code < 300, (
                f"{where}: {answer.status_code}: {said(answer, door)}"
            )
        assert written, f"{where} was answered {answer.status_code} but wrote nothing"
        case.expect.check(scene, case.objects)


def test_every_case_has_a_door_and_a_unique_name() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))
    for case in CASES:
        assert case.doors and set(case.doors) <= set(DOORS), case.name
        assert set(case.xfail) <= set(case.doors), case.name
