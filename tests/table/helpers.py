"""Builders for the table page's tests: an event with numbered tables, each with a game in a
round, built straight on the models so that each test says exactly what the table holds."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any, cast

from django.test import Client
from django.utils import timezone

from kaiser_club.models import Club
from scoring import services as scoring
from scoring.models import Game, Team
from scoring.rules import RuleSet, Seat
from tests.factories import ClubFactory, PlayerFactory, TeamFactory
from tournaments.choices import EventKind, EventStatus, RoundStatus
from tournaments.models import Event, Pairing, Round, Table
from tournaments.services.tables import new_code


@dataclass
class Setup:
    event: Event
    table: Table
    round: Round
    pairing: Pairing
    game: Game

    @property
    def code(self) -> str:
        assert self.table.code
        return self.table.code


def make_event(
    *,
    club: Club | None = None,
    kind: str = EventKind.TOURNAMENT,
    verification: bool = False,
    preset: str = "tournament",
    changes: dict[str, Any] | None = None,
) -> Event:
    club = club or cast(Club, ClubFactory())
    rules = scoring.rules_from(preset_name=preset, changes=changes)
    return Event.objects.create(
        club=club,
        kind=kind,
        name="Legion Hall Open" if kind == EventKind.TOURNAMENT else "Tuesday night",
        date=dt.date(2026, 11, 28),
        status=EventStatus.RUNNING,
        preset=preset,
        rules=rules.to_dict(),
        format="round_robin",
        verification=verification,
    )


def named_team(club: Club, first: str, second: str) -> Team:
    return cast(
        Team,
        TeamFactory(
            club=club,
            name=f"{first} & {second}",
            player_one=PlayerFactory(name=first),
            player_two=PlayerFactory(name=second),
        ),
    )


def add_table(
    event: Event,
    *,
    number: int = 1,
    round_number: int = 1,
    started: bool = True,
    first_dealer: Seat = Seat.NORTH,
    table: Table | None = None,
) -> Setup:
    """Table ``number`` of the event (made if new) with a fresh game in round ``round_number``
    (made if new), its clock running when ``started``."""
    club = event.club
    round_, _ = Round.objects.get_or_create(
        event=event,
        number=round_number,
        defaults={"status": RoundStatus.STARTED if started else RoundStatus.READY},
    )
    if table is None:
        table = Table.objects.create(
            event=event, number=number, code=new_code(), code_issued_at=timezone.now()
        )
    ns = named_team(club, "Alice", "Bob")
    ew = named_team(club, "Chloé", "Dmitri")
    game = scoring.game_start(
        club=club,
        ns_team=ns,
        ew_team=ew,
        first_dealer=first_dealer,
        rules=RuleSet.from_dict(event.rules),
        preset_name=event.preset,
        start_clock=started,
    )
    pairing = Pairing.objects.create(
        event=event, round=round_, table=table, home_team=ns, away_team=ew, game=game
    )
    return Setup(event=event, table=table, round=round_, pairing=pairing, game=game)


def make_table(**options: Any) -> Setup:
    table_options = {
        k: options.pop(k)
        for k in ("number", "round_number", "started", "first_dealer")
        if k in options
    }
    return add_table(make_event(**options), **table_options)


def opened(setup: Setup, client: Client | None = None) -> Client:
    """A device that has scanned the table's code."""
    client = client or Client()
    answer = client.get(f"/t/{setup.code}/")
    assert answer.status_code == 302, answer.content[:300]
    return client
