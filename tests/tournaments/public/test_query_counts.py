"""Every public page costs the same number of queries at two event sizes, with the standings
cache cold and warm (and a part the browser already has costs one query: test_polling)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from kaiser_club.models import Player
from tournaments.models import Entry, Pairing

from ..helpers import generate, make_event, win_for, win_game
from .world import Hall, playing, result, sized

pytestmark = pytest.mark.django_db


def queries(client: Any, url: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return len(ctx.captured_queries)


def cold_and_warm(client: Any, url: str) -> tuple[int, int]:
    cache.clear()
    return queries(client, url), queries(client, url)


def swiss_world(teams: int, rounds: int, games_now: int, hands: int) -> tuple[Hall, list[Any]]:
    made = sized(teams, rounds=rounds)
    now = playing(made, games=games_now, round=rounds + 1, hands=hands)
    team = made.entries["T0"].team
    assert team is not None
    Player.objects.filter(id=team.player_one_id).update(is_public=True)
    return made, now


def swiss_pages(made: Hall, now: list[Pairing], rounds: int) -> dict[str, str]:
    base = f"/e/{made.event.id}/"
    first = made.entries["T0"]
    assert first.team is not None
    return {
        "home": base,
        "standings": f"{base}standings/",
        "standings sorted": f"{base}standings/?sort=-points_for",
        "standings part": f"{base}standings/?part=1",
        "standings csv": f"{base}standings.csv",
        "live": f"{base}live/",
        "a played round": f"{base}rounds/1/",
        "the round being played": f"{base}rounds/{rounds + 1}/",
        "score sheet": f"{base}games/{now[0].id}/",
        "team": f"{base}teams/{first.id}/",
        "player": f"{base}players/{first.team.player_one_id}/",
        "projector": f"{base}projector/",
        "bracket (none)": f"{base}bracket/",
    }


def compare(client: Any, small: dict[str, str], large: dict[str, str]) -> dict[str, Any]:
    found = {}
    for name in small:
        found[name] = (cold_and_warm(client, small[name]), cold_and_warm(client, large[name]))
    different = {name: pair for name, pair in found.items() if pair[0] != pair[1]}
    assert not different, f"query counts that grow with the event: {different}"
    return {name: pair[0] for name, pair in found.items()}


def test_swiss_pages_at_two_sizes(client):
    small, small_now = swiss_world(8, rounds=2, games_now=2, hands=1)
    large, large_now = swiss_world(40, rounds=6, games_now=10, hands=3)
    counts = compare(client, swiss_pages(small, small_now, 2), swiss_pages(large, large_now, 6))
    # The budgets, cold cache then warm. Every page: the event with its versions (1). The
    # standings, when cold: entries, home and away totals, the decided games for head-to-head
    # and Buchholz (4). Standings pages: what each team is playing now (1). Home: the rounds
    # and what is playing (2). Team: the entry and its games (2). Player: the player and their
    # games (2). Projector: the rounds and the current round's games (2). Score sheet: the
    # game with its seats, and its hands (2).
    # Every page but the CSV is first asked of the stored renderings: the event's counter (1),
    # cold or warm (tournaments/public/stored_pages.py). Warm, that one query is all: the page is
    # served as stored (the CSV is no live page and reads the cached standings). A score
    # sheet and a round's page are stored with the versions of the rows they show, read before
    # they are rendered (1, on PostgreSQL): a hand at another table (in another round) then
    # costs their phones that look-up, not a page.
    sheet_rows = 1 if connection.vendor == "postgresql" else 0
    assert counts == {
        "home": (8, 1),
        "standings": (7, 1),
        "standings sorted": (7, 1),
        "standings part": (7, 1),
        "standings csv": (6, 2),
        "live": (3, 1),
        "a played round": (4 + sheet_rows, 1),
        "the round being played": (4 + sheet_rows, 1),
        "score sheet": (4 + sheet_rows, 1),
        "team": (8, 1),
        "player": (8, 1),
        "projector": (8, 1),
        "bracket (none)": (3, 1),
    }


def bracket_world(teams: int) -> Any:
    event = make_event(teams=teams, format="single_elimination")
    generate(event)
    for pairing in Pairing.objects.filter(event=event, round__number=1).select_related("home"):
        if pairing.game_id and pairing.home is not None:
            win_for(pairing, pairing.home)
    return event


def bracket_pages(event: Any) -> dict[str, str]:
    base = f"/e/{event.id}/"
    return {
        "home": base,
        "standings (placings)": f"{base}standings/",
        "bracket": f"{base}bracket/",
        "projector": f"{base}projector/",
    }


def test_elimination_pages_at_two_sizes(client):
    counts = compare(client, bracket_pages(bracket_world(4)), bracket_pages(bracket_world(16)))
    # Placings, cold: entries, home and away totals, the bracket (4); the bracket page shows
    # the places decided so far under the drawing, from the same placings.
    assert counts == {
        "home": (8, 1),
        "standings (placings)": (7, 1),
        "bracket": (7, 1),
        "projector": (8, 1),
    }


def progressive_world(players: int, club: Any = None) -> Any:
    event = make_event(teams=players, format="progressive", rounds=2, club=club)
    generate(event)
    for pairing in Pairing.objects.filter(event=event, game__isnull=False):
        assert pairing.game_id is not None
        win_game(pairing.game_id)
    return event


def test_progressive_pages_at_two_sizes(client):
    def pages(event: Any) -> dict[str, str]:
        base = f"/e/{event.id}/"
        return {"standings (players)": f"{base}standings/", "home": base}

    counts = compare(client, pages(progressive_world(8)), pages(progressive_world(16)))
    # Individual standings, cold: the seeds, four player slots' totals, the players (6).
    assert counts == {"standings (players)": (9, 1), "home": (10, 1)}


def pools_world(per_pool: int) -> Any:
    made = sized(4 * per_pool, rounds=0, format="pools", pool_count=4, pool_advance=2)
    entries = list(Entry.objects.filter(event=made.event).order_by("seed"))
    for index, entry in enumerate(entries):
        entry.pool = 1 + index % 4
    Entry.objects.bulk_update(entries, ["pool"])
    for index in range(0, len(entries) - 4, 4):
        home, away = entries[index], entries[index + 4]
        result(made, home.name, away.name, 52, 30, pool=home.pool)
    return made.event


def test_pools_pages_at_two_sizes(client):
    def pages(event: Any) -> dict[str, str]:
        return {"standings (pools)": f"/e/{event.id}/standings/"}

    counts = compare(client, pages(pools_world(3)), pages(pools_world(8)))
    # Pools, cold: entries, totals, decided games, and whether a knockout exists (5).
    assert counts == {"standings (pools)": (8, 1)}


def test_season_leaderboard_at_two_sizes(client):
    import datetime as dt

    from tournaments import services

    def season_with(nights: int) -> str:
        event = progressive_world(8)
        season = services.season_create_unchecked(club=event.club, name=f"Season {nights}")
        for n in range(nights):
            night = progressive_world(8, club=event.club)
            night.season, night.kind, night.date = season, "club_night", dt.date(2026, 10, n + 1)
            night.save()
        return f"/e/seasons/{season.id}/"

    small, large = season_with(1), season_with(3)
    assert cold_and_warm(client, small) == cold_and_warm(client, large)
