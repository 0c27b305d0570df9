"""A small club with a few events in every shape, named so that no name reads as English:
what the French page test walks through."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any, cast

from django.contrib.auth.models import User

from kaiser_club.models import Club, Player
from kaiser_club.roles import Role
from tests.factories import MembershipFactory, UserFactory
from tests.tournaments.helpers import generate, win_for
from tournaments import services
from tournaments.models import Event, Pairing, Round, Table

TEAM_NAMES = ["Les As", "Les Rois", "Les Valets", "Les Dames"]
PLAYER_NAMES = [
    "Aline Roy",
    "Benoît Roy",
    "Céline Gagnon",
    "Denis Gagnon",
    "Élise Côté",
    "Fabien Côté",
    "Gisèle Morin",
    "Hugo Morin",
]


@dataclass
class World:
    club: Club
    organiser: Any
    players: list[Player]
    events: dict[str, Event] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the pages may show: they stay as typed in either language."""
        return (
            self.club.name,
            *TEAM_NAMES,
            *PLAYER_NAMES,
            *(e.name for e in self.events.values()),
            "Saison d’hiver",
            "organisatrice",
        )


def _player(club: Club, name: str, user: Any = None) -> Player:
    player = Player.objects.create(name=name, user=user)
    MembershipFactory(club=club, player=player, role=Role.PLAYER)
    return player


def _teams(event: Event, players: list[Player]) -> None:
    for n, team_name in enumerate(TEAM_NAMES):
        services.entry_register_team_unchecked(
            event=event,
            player_one=players[2 * n],
            player_two=players[2 * n + 1],
            name=team_name,
            seed=n + 1,
        )


def build() -> World:
    club = Club.objects.create(name="Club de Kaiser de Hearst", slug="hearst", town="Hearst")
    user = cast(User, UserFactory(username="organisatrice"))
    organiser = Player.objects.create(name="organisatrice", user=user)
    MembershipFactory(club=club, player=organiser, role=Role.CLUB_ADMIN)
    players = [_player(club, name) for name in PLAYER_NAMES]
    world = World(club=club, organiser=user, players=players)
    season = services.season_create_unchecked(club=club, name="Saison d’hiver")

    def event(key: str, name: str, fmt: str, **kw: Any) -> Event:
        made = services.event_create(
            club=club,
            name=name,
            date=dt.date(2026, 11, 28),
            format=fmt,
            check_in_required=False,
            **kw,
        )
        world.events[key] = made
        return made

    swiss = event("swiss", "Omnium de Hearst", "swiss", rounds=3)
    _teams(swiss, players)
    generate(swiss)
    services.round_start_unchecked(
        round_=Round.objects.get(event=swiss, number=1)
    )  # tablets enter hands
    first = list(Pairing.objects.filter(event=swiss, away__isnull=False).order_by("id"))
    win_for(first[0], first[0].home)

    knockout = event("knockout", "Coupe de Noël", "single_elimination")
    _teams(knockout, players)
    generate(knockout)

    pools = event("pools", "Poules de Kapuskasing", "pools", pool_count=2, pool_advance=1)
    _teams(pools, players)
    generate(pools)

    robin = event("robin", "Tournoi à la ronde", "round_robin")
    _teams(robin, players)

    night = event(
        "night", "Soirée du mardi", "progressive", rounds=2, kind="club_night", season=season
    )
    for n, player in enumerate(players):
        services.entry_register_player_unchecked(event=night, player=player, seed=n + 1)
    generate(night)
    return world


def a_table(event: Event) -> Table:
    table = Table.objects.filter(event=event, code__isnull=False).order_by("number").first()
    assert table is not None
    return table
