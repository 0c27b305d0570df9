"""Final placings under random play, one property per format: an event of random size played to
its end through the services (random winners, some forfeits, adjusted results, withdrawals
mid-event, byes where the field needs them), then the format's promises, and the same placings
read from the API, the organiser's page, the public standings, the CSV and the standings PDF.

Examples per property: ``PLACINGS_EXAMPLES`` (default 6, what CI runs); teams up to
``PLACINGS_MAX_TEAMS`` in a bracket (default 20; 64 for a longer run), e.g.
``PLACINGS_EXAMPLES=60 PLACINGS_MAX_TEAMS=64 pytest tests/tournaments/test_placings_property.py``.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tournaments.models import Entry, Event, Pairing, Round
from tournaments.standings import event_tables

from .helpers import make_event
from .placings_world import (
    Placings,
    Play,
    api_placings,
    csv_placings,
    organiser_placings,
    pdf_has,
    pdf_standings_text,
    play_to_the_end,
    public_placings,
)

pytestmark = [pytest.mark.django_db, pytest.mark.long]

EXAMPLES = int(os.environ.get("PLACINGS_EXAMPLES", "6"))
MAX_TEAMS = int(os.environ.get("PLACINGS_MAX_TEAMS", "20"))
RUNS: Counter[str] = Counter()  # random events played to their end, per property

# No shrinking: each example is a whole event, and a failure prints its play log instead.
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
TIEBREAKS = st.sampled_from(
    [
        ["wins", "point_difference"],
        ["wins", "points_for", "seed"],
        ["win_pct", "point_difference", "points_for"],
        ["wins", "head_to_head", "point_difference"],
        ["wins", "buchholz", "point_difference"],
    ]
)


class Rollback(Exception):
    """Leaves each example's rows behind it."""


def in_a_rolled_back_transaction(body: Callable[[], None]) -> None:
    cache.clear()
    try:
        with transaction.atomic():
            body()
            raise Rollback
    except Rollback:
        pass


def play_for(rnd: random.Random, teams: int, *, withdrawals: bool = True) -> Play:
    """Small events play most games hand by hand; big ones have most results entered by the
    organiser (the same services, fewer writes)."""
    played = 0.8 if teams <= 16 else 0.3
    forfeits = (1 - played) / 2
    return Play(
        rnd,
        forfeits=forfeits,
        adjusted=1 - played - forfeits,
        withdrawals=rnd.randint(0, max(0, teams // 4)) if withdrawals else 0,
        withdraw_chance=0.04,
    )


def same_everywhere(event: Event, *, after: str = "") -> Placings:
    """The placings the API gives, checked against the other surfaces; every team placed."""
    found = api_placings(event)
    assert public_placings(event) == found
    assert organiser_placings(event) == found
    assert csv_placings(event) == found
    assert pdf_has(pdf_standings_text(event), found, after=after), found
    return found


def check_bands(placings: Placings, teams: int) -> None:
    """Every team has a place; a place shared by k teams is printed "p=" and the next is
    p + k; the last place is the number of teams."""
    assert len(placings) == teams
    assert all(place for place, _ in placings), placings
    numbers = [int(place.rstrip("=")) for place, _ in placings]
    shared = Counter(numbers)
    expected = 1
    for index, (place, _) in enumerate(placings):
        number = numbers[index]
        if index == 0 or number != numbers[index - 1]:
            assert number == expected, placings
            expected += shared[number]
        assert place.endswith("=") == (shared[number] > 1), placings
    assert expected == teams + 1


def name_of(entry_id: int) -> str:
    return Entry.objects.get(id=entry_id).name


def bracket_games(event: Event) -> list[Pairing]:
    return list(
        Pairing.objects.filter(event=event, match_number__isnull=False, cancelled=False)
        .exclude(result="pending")
        .select_related("home", "away", "round")
        .order_by("round__number", "match_number")
    )


def losses_of(games: list[Pairing]) -> Counter[int]:
    return Counter(game.loser.id for game in games if game.loser is not None)


# --- double elimination ---------------------------------------------------------------------


@SETTINGS
@given(teams=st.integers(2, MAX_TEAMS), reset=st.booleans(), rnd=st.randoms(use_true_random=False))
def test_double_elimination_placings(teams: int, reset: bool, rnd: random.Random) -> None:
    def body() -> None:
        event = make_event(teams=teams, format="double_elimination", grand_final_reset=reset)
        play = play_for(rnd, teams)
        play_to_the_end(event, play)
        games = bracket_games(event)
        reset_played = any(g.code == "GF2" for g in games)
        assert len(games) == 2 * teams - 2 + reset_played, play.log
        assert reset or not reset_played
        placings = same_everywhere(event, after="Final placings")
        check_bands(placings, teams)
        last = games[-1]
        assert last.code == ("GF2" if reset_played else "GF")
        assert last.winner is not None and last.loser is not None
        assert placings[0] == ("1", last.winner.name), play.log
        assert placings[1] == ("2", last.loser.name), play.log
        # Out after two losses; the champion has at most one. Without a reset, a grand final
        # lost by the winners' bracket champion leaves it second with one loss.
        losses = losses_of(games)
        champion, second = last.winner.id, last.loser.id
        assert losses[champion] <= 1
        assert losses[second] == 2 or (not reset and losses[second] == 1), play.log
        others = Entry.objects.filter(event=event).exclude(id__in=[champion, second])
        assert all(losses[e] == 2 for e in others.values_list("id", flat=True)), play.log
        RUNS["double elimination"] += 1

    in_a_rolled_back_transaction(body)


# --- single elimination ---------------------------------------------------------------------


@SETTINGS
@given(teams=st.integers(2, MAX_TEAMS), third=st.booleans(), rnd=st.randoms(use_true_random=False))
def test_single_elimination_placings(teams: int, third: bool, rnd: random.Random) -> None:
    def body() -> None:
        event = make_event(teams=teams, format="single_elimination", third_place=third)
        play = play_for(rnd, teams)
        play_to_the_end(event, play)
        games = bracket_games(event)
        third_game = [g for g in games if g.stage == "third_place"]
        assert len(third_game) == (1 if third and teams >= 4 else 0)
        assert len(games) == teams - 1 + len(third_game), play.log
        placings = same_everywhere(event, after="Final placings")
        check_bands(placings, teams)
        final = next(g for g in games if g.stage == "winners" and not g.winner_to_id)
        assert final.winner is not None and final.loser is not None
        assert placings[0] == ("1", final.winner.name)
        assert placings[1] == ("2", final.loser.name)
        if third_game:
            game = third_game[0]
            assert game.winner is not None and game.loser is not None
            assert placings[2:4] == [("3", game.winner.name), ("4", game.loser.name)]
        elif teams >= 4:
            semis = [g for g in games if g.winner_to_id == final.id]
            losers = sorted(g.loser.name for g in semis if g.loser is not None)
            assert [p for p, _ in placings[2:4]] == ["3=", "3="]
            assert sorted(n for _, n in placings[2:4]) == losers
        RUNS["single elimination"] += 1

    in_a_rolled_back_transaction(body)


# --- round robin and Swiss ------------------------------------------------------------------


def check_order(event: Event, order_by: list[str]) -> None:
    """The placings follow the tie-breaks: rows in order of the first metric; with metrics
    read from the row alone, a place is shared exactly when every metric is equal."""
    rows = event_tables(event=event).placings
    simple = {"wins", "win_pct", "point_difference", "points_for", "seed"}

    def value(row: Any, metric: str) -> Any:
        if metric == "seed":
            return -(row.seed or 10**6)
        return row.win_fraction if metric == "win_pct" else getattr(row, metric)

    first = [value(row, order_by[0]) for row in rows]
    assert first == sorted(first, reverse=True)
    if set(order_by) <= simple:
        keys = [tuple(value(row, m) for m in order_by) for row in rows]
        assert keys == sorted(keys, reverse=True)
        for index, row in enumerate(rows):
            above = keys.index(keys[index]) + 1  # competition ranking: 1, 2, 2, 4
            assert row.place == above and row.tied == (keys.count(keys[index]) > 1)


@SETTINGS
@given(
    teams=st.integers(2, 9),
    blank=st.booleans(),
    order_by=TIEBREAKS,
    rnd=st.randoms(use_true_random=False),
)
def test_round_robin_placings(
    teams: int, blank: bool, order_by: list[str], rnd: random.Random
) -> None:
    def body() -> None:
        rounds = None if blank else teams + 3  # a number that does not match: the schedule ends
        event = make_event(teams=teams, format="round_robin", rounds=rounds, tiebreaks=order_by)
        play = play_for(rnd, teams)
        play_to_the_end(event, play)
        assert Round.objects.filter(event=event).count() == (teams if teams % 2 else teams - 1)
        met = Counter(
            frozenset(pair)
            for pair in Pairing.objects.filter(event=event, away__isnull=False).values_list(
                "home_id", "away_id"
            )
        )
        ids = list(Entry.objects.filter(event=event).values_list("id", flat=True))
        assert met == Counter(frozenset(pair) for pair in combinations(ids, 2))
        placings = same_everywhere(event)
        check_bands(placings, teams)
        check_order(event, order_by)
        RUNS["round robin"] += 1

    in_a_rolled_back_transaction(body)


@SETTINGS
@given(
    teams=st.integers(3, 14),
    rounds=st.integers(1, 4),
    order_by=TIEBREAKS,
    rnd=st.randoms(use_true_random=False),
)
def test_swiss_placings(teams: int, rounds: int, order_by: list[str], rnd: random.Random) -> None:
    rounds = min(rounds, teams - 1)

    def body() -> None:
        event = make_event(teams=teams, format="swiss", rounds=rounds, tiebreaks=order_by)
        play = play_for(rnd, teams, withdrawals=False)
        play_to_the_end(event, play)
        assert Round.objects.filter(event=event).count() == rounds
        games = Pairing.objects.filter(event=event, away__isnull=False)
        met = Counter(frozenset(pair) for pair in games.values_list("home_id", "away_id"))
        assert max(met.values()) == 1, "a rematch"
        byes = Counter(
            Pairing.objects.filter(event=event, result="bye").values_list("home_id", flat=True)
        )
        assert not byes or max(byes.values()) == 1, "two byes for one team"
        placings = same_everywhere(event)
        check_bands(placings, teams)
        check_order(event, order_by)
        RUNS["swiss"] += 1

    in_a_rolled_back_transaction(body)


# --- pools then a knockout ------------------------------------------------------------------


@SETTINGS
@given(
    teams=st.integers(4, 14),
    pools=st.integers(2, 4),
    advance=st.integers(1, 3),
    third=st.booleans(),
    rnd=st.randoms(use_true_random=False),
)
def test_pools_then_knockout_placings(
    teams: int, pools: int, advance: int, third: bool, rnd: random.Random
) -> None:
    pools = min(pools, teams // 2)
    advance = min(advance, teams // pools)

    def body() -> None:
        event = make_event(
            teams=teams,
            format="pools",
            pool_count=pools,
            pool_advance=advance,
            third_place=third,
            tiebreaks=["wins", "point_difference"],
        )
        play = play_for(rnd, teams, withdrawals=False)
        play_to_the_end(event, play)
        found = event_tables(event=event)
        # The qualifiers are each pool's leaders by the event's tie-breaks.
        qualifiers: set[int] = set()
        for rows in found.pools.values():
            qualifiers.update(row.id for row in rows[:advance])
            keys = [(row.wins, row.point_difference) for row in rows]
            assert keys == sorted(keys, reverse=True)
        knockout = bracket_games(event)
        field = {t for g in knockout for t in (g.home_id, g.away_id) if t is not None}
        assert field == qualifiers, play.log
        placings = same_everywhere(event, after="Final placings")
        check_bands(placings, teams)
        assert {name for _, name in placings[: len(qualifiers)]} == {name_of(t) for t in qualifiers}
        final = next(g for g in knockout if g.stage == "winners" and not g.winner_to_id)
        assert final.winner is not None
        assert placings[0] == ("1", final.winner.name)
        RUNS["pools then knockout"] += 1

    in_a_rolled_back_transaction(body)


# --- individual progressive -----------------------------------------------------------------


@SETTINGS
@given(players=st.integers(4, 13), rounds=st.integers(1, 4), rnd=st.randoms(use_true_random=False))
def test_progressive_placings_by_player(players: int, rounds: int, rnd: random.Random) -> None:
    def body() -> None:
        event = make_event(teams=players, format="progressive", rounds=rounds)
        play = play_for(rnd, players, withdrawals=False)
        play_to_the_end(event, play)
        assert Round.objects.filter(event=event).count() == rounds
        placings = same_everywhere(event)
        check_bands(placings, players)
        assert sorted(name for _, name in placings) == sorted(
            Entry.objects.filter(event=event).values_list("player__name", flat=True)
        )
        check_order(event, ["wins", "point_difference"])
        RUNS["progressive"] += 1

    in_a_rolled_back_transaction(body)
