"""Every page and endpoint that lists things costs the same number of queries for a small and a
large event (4 and 16 teams, a Swiss round under way; 2 and 8 events; 4 and 16 bracket teams)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from kaiser_club.roles import Role
from scoring.ratings import forget_ratings
from tests.factories import member
from tournaments import services
from tournaments.models import Event, Pairing, Round

from .helpers import generate, make_event, new_club, win_for, win_game

pytestmark = pytest.mark.django_db


def swiss_world(teams: int) -> tuple[Any, Event]:
    club = new_club()
    user = member(club, Role.ORGANISER)
    season = services.season_create_unchecked(club=club, name="Season")
    event = make_event(teams=teams, format="swiss", club=club)
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    first = Pairing.objects.filter(event=event, game__isnull=False).order_by("id")
    for pairing in first[: teams // 4]:
        win_for(pairing, pairing.home)
    night = make_event(teams=teams, format="progressive", club=club, rounds=2)
    night.kind, night.season = "club_night", season
    night.save()
    generate(night)
    for pairing in Pairing.objects.filter(event=night, game__isnull=False):
        win_game(pairing.game_id)
    return user, event


def bracket_world(teams: int) -> tuple[Any, Event]:
    club = new_club()
    user = member(club, Role.ORGANISER)
    event = make_event(teams=teams, format="double_elimination", club=club)
    generate(event)
    for pairing in Pairing.objects.filter(event=event, round__number=1):
        win_for(pairing, pairing.home)
    return user, event


def queries(client: Any, url: str) -> int:
    forget_ratings()  # a cold read of the ratings (a page listing entries shows them), each time
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return len(captured)


SWISS_URLS = [
    "/api/events/",
    "/api/seasons/",
    "/api/events/{event}/",
    "/api/events/{event}/entries/",
    "/api/events/{event}/rounds/",
    "/api/events/{event}/rounds/1/",
    "/api/events/{event}/tables/",
    "/api/events/{event}/standings/",
    "/api/seasons/{season}/leaderboard/",
    "/events/",
    "/events/seasons/",
    "/events/seasons/{season}/",
    "/events/{event}/",
    "/events/{event}/entries/",
    "/events/{event}/rounds/1/",
    "/events/{event}/rounds/1/playing/",
    "/events/{event}/tables/",
]
BRACKET_URLS = [
    "/api/events/{event}/bracket/",
    "/api/events/{event}/rounds/2/",
    "/api/events/{event}/standings/",
    "/events/{event}/bracket/",
    "/events/{event}/rounds/2/",
    "/events/{event}/",
]


def compare(client: Any, worlds: list[tuple[Any, Event]], urls: list[str]) -> None:
    counts: dict[str, list[int]] = {url: [] for url in urls}
    for user, event in worlds:
        client.force_login(user)
        season = event.club.seasons.first()
        ids = {"event": event.id, "season": season.id if season else 0}
        for url in urls:
            counts[url].append(queries(client, url.format(**ids)))
    uneven = {url: c for url, c in counts.items() if c[0] != c[1] or c[0] > 25}
    assert not uneven, f"queries (small, large) that differ or pass 25: {uneven}"


def test_swiss_lists_cost_the_same_for_4_and_16_teams(client):
    compare(client, [swiss_world(4), swiss_world(16)], SWISS_URLS)


def test_bracket_lists_cost_the_same_for_4_and_16_teams(client):
    compare(client, [bracket_world(4), bracket_world(16)], BRACKET_URLS)
