"""A season of club nights, its members without emails, exported and imported: on the same
server (the events moved off and back, as between the hall laptop and the club's server) no
player record is added and every player's statistics and rating are unchanged; on an empty
server the same people are made, by name, with the same statistics and ratings."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from kaiser_club.models import Club, FormerMembership, Invitation, Membership, Player
from kaiser_club.roles import Role
from scoring.models import Game, Team
from scoring.ratings import forget_ratings
from scoring.rules import Side
from tests.factories import member
from tournaments import services
from tournaments.models import Entry, Event, Pairing, Season, Substitution
from tournaments.standings.queries import season_leaderboard
from tournaments.transfer import event_export, event_import

from .people_world import club_night, club_with_admin, members, totals

pytestmark = pytest.mark.django_db

NAMES = [
    "Ann Amyot",
    "Bob Bear",
    "Cy Cote",
    "Dot Dion",
    "Ed Ens",
    "Flo Fay",
    "Gus Gauthier",
    "Hal Hu",
]
NIGHTS: list[list[tuple[int | str, int | str]]] = [  # who partners whom; a visitor at the last
    [(0, 1), (2, 3), (4, 5), (6, 7)],
    [(0, 2), (1, 3), (4, 6), (5, 7)],
    [(0, 7), (1, 6), (2, 5), ("Vi Visitor", 4)],
]


def name_of(who: int | str) -> str:
    return who if isinstance(who, str) else NAMES[who]


def season_of_club_nights() -> tuple[Club, Season, list[Event]]:
    club, _admin = club_with_admin()
    members(club, NAMES)
    season = services.season_create_unchecked(club=club, name="2026–27")
    nights = []
    for day, pairs in enumerate(NIGHTS, start=1):
        teams = [(name_of(one), name_of(two)) for one, two in pairs]
        winners = [Side.NS, Side.EW] if day % 2 else [Side.EW, Side.NS]
        nights.append(club_night(club, season, teams, day=day, winners=winners))
    return club, season, nights


def board(season: Season) -> list[tuple[Any, ...]]:
    return sorted(
        (r.name, r.games, r.wins, r.points_for, r.points_against)
        for r in season_leaderboard(season=season)
    )


def by_name() -> dict[str, tuple[int, int, float]]:
    forget_ratings()
    return {p.name: totals(p) for p in Player.objects.exclude(user__isnull=False)}


def take_away(events: list[Event]) -> None:
    """The events leave this server (and their games with them)."""
    ids = [e.id for e in events]
    games = list(Game.objects.filter(pairing__event_id__in=ids).values_list("id", flat=True))
    Substitution.objects.filter(entry__event_id__in=ids).delete()
    Pairing.objects.filter(event_id__in=ids).delete()
    Entry.objects.filter(event_id__in=ids).delete()
    Event.objects.filter(id__in=ids).delete()
    Game.objects.filter(id__in=games).delete()
    cache.clear()


def empty_the_server() -> None:
    take_away(list(Event.objects.all()))
    Game.objects.all().delete()
    Team.objects.all().delete()
    Season.objects.all().delete()
    for model in (Invitation, FormerMembership, Membership):
        model.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()


def test_a_season_moved_off_and_back_on_the_same_server_keeps_every_record() -> None:
    club, season, nights = season_of_club_nights()
    organiser = member(club, Role.ORGANISER, username="otto")
    before = {p.id: totals(p) for p in Player.objects.all()}
    assert (
        sum(games for games, _w, _r in before.values()) == 4 * 2 * 3
    )  # 4 seats, 2 games, 3 nights
    leaderboard = board(season)
    documents = [event_export(event=night) for night in nights]

    take_away(nights)
    assert all(totals(p)[0] == 0 for p in Player.objects.all())
    for document in documents:
        result = event_import(data=document, actor=organiser)
        assert {p.how for p in result.people} <= {"name"}, [str(p) for p in result.people]

    forget_ratings()
    assert set(Player.objects.values_list("id", flat=True)) == set(before) | {organiser.player.id}
    assert {p.id: totals(p) for p in Player.objects.filter(id__in=before)} == before
    assert board(season) == leaderboard
    assert Event.objects.filter(season=season).count() == 3


def test_a_season_moved_to_an_empty_server_makes_the_same_people_by_name() -> None:
    _club, season, nights = season_of_club_nights()
    before = by_name()
    leaderboard = board(season)
    documents = [event_export(event=night) for night in nights]

    empty_the_server()
    for document in documents:
        result = event_import(data=document, actor=None)
        assert not any(p.how == "choose" for p in result.people)

    assert by_name() == before  # names are unique here: the same people, the same numbers
    assert Player.objects.count() == len(NAMES) + 1
    moved = Season.objects.get()
    assert board(moved) == leaderboard
    # Imported again on the same (no longer empty) server: nobody is made twice.
    take_away(list(Event.objects.all()))
    for document in documents:
        event_import(data=document, actor=None)
    assert by_name() == before and Player.objects.count() == len(NAMES) + 1
