"""Each action an organiser takes on an event decides itself who may take it: called directly,
with no door in front of it, it refuses a scorekeeper, a member and another club's organiser
(and writes nothing), and lets the event's own organiser act. A new caller cannot skip the
check by calling the service."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import pytest

from kaiser_club.actors import Actor
from kaiser_club.errors import NotAllowed
from kaiser_club.models import Club, Player
from kaiser_club.roles import Role
from tests.factories import ClubFactory, member
from tests.two_clubs import changes, snapshot
from tournaments import services
from tournaments.models import Entry, Event, Pairing, Round, Table

from .helpers import generate, make_event, player

pytestmark = pytest.mark.django_db


@dataclass
class World:
    """An event of the club, its first round drawn and not started."""

    club: Club
    event: Event
    spare: tuple[Player, Player]  # two people no entry holds yet

    @property
    def entry(self) -> Entry:
        return Entry.objects.filter(event=self.event).order_by("id").first()  # type: ignore[return-value]

    @property
    def round(self) -> Round:
        return Round.objects.get(event=self.event, number=1)

    @property
    def pairing(self) -> Pairing:
        return Pairing.objects.filter(event=self.event, game__isnull=False).order_by("id")[0]

    @property
    def table(self) -> Table:
        return Table.objects.get(event=self.event, number=1)


def _spare() -> tuple[Player, Player]:
    return player("Ann Acre"), player("Bob Birch")


def teams(club: Club) -> World:
    event = make_event(teams=4, club=club)
    generate(event)
    return World(club, event, _spare())


def singles(club: Club) -> World:
    return World(club, make_event(teams=4, format="progressive", club=club), _spare())


def withdrawn(club: Club) -> World:
    world = teams(club)
    services.entry_withdraw_unchecked(entry=world.entry, reason="Ill")
    return world


CSV = "player_one,player_two\nAnn Acre,Bob Birch\n"

Call = Callable[[Actor, World], Any]


@dataclass(frozen=True)
class Action:
    name: str
    make: Callable[[Club], World]
    call: Call
    writes: bool = True  # the preview only reads
    refusal: str = "Your role in {club} does not allow this."


ACTIONS = [
    Action(
        "register a team",
        teams,
        lambda a, w: services.entry_register_team(
            actor=a, event=w.event, player_one=w.spare[0], player_two=w.spare[1]
        ),
    ),
    Action(
        "register a player",
        singles,
        lambda a, w: services.entry_register_player(actor=a, event=w.event, player=w.spare[0]),
    ),
    Action(
        "register a team by names",
        teams,
        lambda a, w: services.entry_register_team_by_names(
            actor=a, event=w.event, player_one="Ann Acre", player_two="Bob Birch"
        ),
    ),
    Action(
        "register a player by name",
        singles,
        lambda a, w: services.entry_register_player_by_name(
            actor=a, event=w.event, player="Ann Acre"
        ),
    ),
    Action(
        "update an entry",
        teams,
        lambda a, w: services.entry_update(
            actor=a, entry=w.entry, seed=w.entry.seed, rating=1500.0, name="Renamed"
        ),
    ),
    Action(
        "check an entry in", teams, lambda a, w: services.entry_check_in(actor=a, entry=w.entry)
    ),
    Action(
        "check everyone in", teams, lambda a, w: services.entry_check_in_all(actor=a, event=w.event)
    ),
    Action(
        "withdraw an entry",
        teams,
        lambda a, w: services.entry_withdraw(actor=a, entry=w.entry, reason="Ill"),
    ),
    Action(
        "reinstate an entry",
        withdrawn,
        lambda a, w: services.entry_reinstate(actor=a, entry=w.entry),
    ),
    Action(
        "substitute a player",
        teams,
        lambda a, w: services.pairing_substitute(
            actor=a,
            pairing=w.pairing,
            replaced=cast(int, w.pairing.game.north_id),  # type: ignore[union-attr]
            substitute_name="Sam Spare",
        ),
    ),
    Action(
        "change the event's settings",
        teams,
        lambda a, w: services.event_update(actor=a, event=w.event, venue="Legion 45"),
    ),
    Action(
        "change the event's rules",
        teams,
        lambda a, w: services.event_change_rules(actor=a, event=w.event, changes={"min_bid": 6}),
    ),
    Action(
        "create a season",
        teams,
        lambda a, w: services.season_create(
            actor=a, club=w.club, name="Winter", starts_on=dt.date(2026, 12, 1)
        ),
        refusal="Only organisers of {club} can add its seasons.",
    ),
    Action("add a table", teams, lambda a, w: services.table_add(actor=a, event=w.event)),
    Action("revoke a code", teams, lambda a, w: services.table_revoke(actor=a, table=w.table)),
    Action("renew a code", teams, lambda a, w: services.table_renew(actor=a, table=w.table)),
    Action(
        "preview a CSV",
        teams,
        lambda a, w: services.entries_preview(actor=a, event=w.event, text=CSV),
        writes=False,
    ),
    Action(
        "import a CSV",
        teams,
        lambda a, w: services.entries_import(actor=a, event=w.event, text=CSV),
    ),
    Action("start a round", teams, lambda a, w: services.round_start(actor=a, round_=w.round)),
    Action(
        "forfeit a game",
        teams,
        lambda a, w: services.pairing_forfeit(actor=a, pairing=w.pairing, forfeiting="away"),
    ),
]
IDS = [action.name for action in ACTIONS]


def _club() -> Club:
    return cast(Club, ClubFactory())


@pytest.mark.parametrize("role", [Role.SCOREKEEPER, Role.PLAYER], ids=["scorekeeper", "member"])
@pytest.mark.parametrize("action", ACTIONS, ids=IDS)
def test_a_lower_role_of_the_club_is_refused_and_nothing_is_written(
    action: Action, role: Role
) -> None:
    club = _club()
    world = action.make(club)
    actor = Actor.of(member(club, role))
    before = snapshot()
    with pytest.raises(NotAllowed) as refused:
        action.call(actor, world)
    assert refused.value.message == action.refusal.format(club=club.name)
    assert changes(before, snapshot()) == []


@pytest.mark.parametrize("action", ACTIONS, ids=IDS)
def test_another_clubs_organiser_is_refused_and_nothing_is_written(action: Action) -> None:
    club = _club()
    world = action.make(club)
    stranger = Actor.of(member(_club(), Role.ORGANISER))
    before = snapshot()
    with pytest.raises(NotAllowed):
        action.call(stranger, world)
    assert changes(before, snapshot()) == []


@pytest.mark.parametrize("action", ACTIONS, ids=IDS)
def test_the_events_organiser_acts(action: Action) -> None:
    club = _club()
    world = action.make(club)
    organiser = Actor.of(member(club, Role.ORGANISER))
    before = snapshot()
    assert action.call(organiser, world) is not None
    assert (changes(before, snapshot()) != []) is action.writes
