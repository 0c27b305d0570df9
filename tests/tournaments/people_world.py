"""A club as an admin and an organiser run it, for the one-person-one-record tests: members
without emails, a season of club nights typed in by name, games played to their end."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from kaiser_club.models import Club, Membership, Player
from kaiser_club.people import ChooseRecord
from kaiser_club.roles import Role
from scoring.ratings import current_ratings
from scoring.rules import Side
from scoring.stats import player_stats
from tests.factories import member
from tournaments import services
from tournaments.models import Event, Pairing, Season

from .helpers import generate, new_club, staff_actor, win_game


def club_with_admin(name: str = "Saskatoon Kaiser", slug: str = "saskatoon") -> tuple[Club, Any]:
    club = new_club(name=name, slug=slug)
    return club, member(club, Role.CLUB_ADMIN, username=f"{slug}-admin")


def members(club: Club, names: Iterable[str]) -> list[Player]:
    """Members without emails, as most clubs' members are."""
    made = []
    for name in names:
        player = Player.objects.create(name=name)
        Membership.objects.create(club=club, player=player)
        made.append(player)
    return made


def first_choice(call: Any, *, pick: int = 0, **arguments: Any) -> Any:
    """Calls a service that may ask which record a typed name is, answering with the first
    record it offers each time (what an organiser who knows their regulars does), or the
    ``pick``-th."""
    choices = dict(arguments.pop("choices", None) or {})
    for _ in range(5):
        try:
            return call(**arguments, choices=choices)
        except ChooseRecord as asked:
            for a in asked.ambiguities:
                choices[a.field] = a.candidates[pick % len(a.candidates)].player.id
    raise AssertionError("the service kept asking")


def club_night(
    club: Club,
    season: Season,
    teams: Sequence[tuple[str, str]],
    *,
    day: int = 1,
    winners: Sequence[Side] = (),
    format: str = "round_robin",
    pick: int = 0,
) -> Event:
    """A club night of the season with teams typed in by their players' names, round 1
    generated and its games played (``winners`` in the order of the pairings)."""
    event = services.event_create(
        club=club,
        name=f"Club night {day}",
        date=dt.date(2026, 10, day),
        kind="club_night",
        format=format,
        season=season,
    )
    for one, two in teams:
        first_choice(
            services.entry_register_team_by_names,
            pick=pick,
            actor=staff_actor(),
            event=event,
            player_one=one,
            player_two=two,
        )
    job = generate(event)
    assert job.status == "done", job.error
    playable = Pairing.objects.filter(event=event, game__isnull=False).order_by("id")
    for row, side in zip(playable, winners, strict=False):
        win_game(row.game_id, side)
    return event


def totals(player: Player) -> tuple[int, int, float]:
    """Games, wins and rating: what a person's record shows everywhere."""
    stats = player_stats(player=player)
    return stats.record.games, stats.record.wins, round(current_ratings().of(player.id), 6)


def records_named(name: str) -> list[Player]:
    return list(Player.objects.filter(name__iexact=name).order_by("id"))
