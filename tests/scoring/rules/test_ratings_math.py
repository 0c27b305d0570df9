"""The Elo arithmetic of scoring.rules.rating, with literal values worked out by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules.rating import (
    K_FACTOR,
    START,
    RatedGame,
    expected_score,
    rate,
    rate_game,
    rating_change,
)


@pytest.mark.parametrize(
    ("own", "other", "expected"),
    [
        # equal sides: 1 / (1 + 10^0) = 1/2
        (1500, 1500, 0.5),
        # 100 ahead: 1 / (1 + 10^(-100/400)) = 1 / (1 + 0.562341) = 0.640065
        (1600, 1500, 0.640065),
        # 100 behind: 1 - 0.640065 = 0.359935
        (1500, 1600, 0.359935),
        # 400 ahead: 1 / (1 + 10^-1) = 1 / 1.1 = 0.909091
        (1900, 1500, 0.909091),
    ],
)
def test_expected_score(own: float, other: float, expected: float) -> None:
    assert expected_score(own, other) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize(
    ("own", "other", "won", "change"),
    [
        (1500, 1500, True, 16.0),  # 32 * (1 - 0.5)
        (1500, 1500, False, -16.0),  # 32 * (0 - 0.5)
        (1900, 1500, True, 2.909091),  # 32 * (1 - 0.909091): the favourite gains little
        (1500, 1900, True, 29.090909),  # 32 * (1 - 0.090909): an upset pays
    ],
)
def test_rating_change(own: float, other: float, won: bool, change: float) -> None:
    assert rating_change(own=own, other=other, won=won) == pytest.approx(change, abs=1e-6)


def test_constants() -> None:
    assert (START, K_FACTOR) == (1500.0, 32.0)


def test_a_game_moves_both_partners_by_the_same_amount_on_the_averages() -> None:
    # Side A: 1600 and 1400 (average 1500); side B: 1550 and 1450 (average 1500).
    # Equal averages, so A's win is worth 32 * (1 - 0.5) = 16 to each of A, -16 to each of B.
    current = {1: 1600.0, 2: 1400.0, 3: 1550.0, 4: 1450.0}
    steps = rate_game(current, RatedGame(game_id=9, side_a=(1, 2), side_b=(3, 4), a_won=True))
    assert [(s.player_id, s.before, s.after, s.won) for s in steps] == [
        (1, 1600.0, 1616.0, True),
        (2, 1400.0, 1416.0, True),
        (3, 1550.0, 1534.0, False),
        (4, 1450.0, 1434.0, False),
    ]


def test_a_short_season_by_hand() -> None:
    # Game 1: everyone at 1500, A (1, 2) beats B (3, 4): +16 / -16.
    #   1: 1516, 2: 1516, 3: 1484, 4: 1484
    # Game 2: (1, 3) v (2, 4). Averages (1516+1484)/2 = 1500 and (1516+1484)/2 = 1500:
    #   equal again, (2, 4) win: +16 / -16 -> 1: 1500, 2: 1532, 3: 1468, 4: 1500
    # Game 3: (2, 5) v (3, 4). 5 is new (1500). Averages (1532+1500)/2 = 1516 and
    #   (1468+1500)/2 = 1484, a gap of 32. E = 1/(1 + 10^(-32/400)) = 1/(1 + 0.831764)
    #   = 0.545922. (3, 4) win: the favourites lose 32 * 0.545922 = 17.469504.
    #   2: 1532 - 17.469504 = 1514.530496, 5: 1482.530496,
    #   3: 1468 + 17.469504 = 1485.469504, 4: 1517.469504
    ratings = rate(
        [
            RatedGame(1, (1, 2), (3, 4), a_won=True),
            RatedGame(2, (1, 3), (2, 4), a_won=False),
            RatedGame(3, (2, 5), (3, 4), a_won=False),
        ]
    )
    assert ratings.of(1) == pytest.approx(1500.0)
    assert ratings.of(2) == pytest.approx(1514.530496, abs=1e-5)
    assert ratings.of(3) == pytest.approx(1485.469504, abs=1e-5)
    assert ratings.of(4) == pytest.approx(1517.469504, abs=1e-5)
    assert ratings.of(5) == pytest.approx(1482.530496, abs=1e-5)
    assert ratings.of(99) == START  # never played
    assert [round(s.after, 2) for s in ratings.steps_of(2)] == [1516.0, 1532.0, 1514.53]
    assert [s.game_id for s in ratings.steps_of(5)] == [3]
    assert ratings.steps_of(99) == []


players = st.integers(min_value=1, max_value=8)


@st.composite
def games(draw: st.DrawFn) -> list[RatedGame]:
    result = []
    for game_id in range(draw(st.integers(min_value=0, max_value=30))):
        four = draw(st.lists(players, min_size=4, max_size=4, unique=True))
        result.append(
            RatedGame(game_id, (four[0], four[1]), (four[2], four[3]), draw(st.booleans()))
        )
    return result


@given(games())
def test_ratings_keep_their_sum_and_replay_the_same(season: list[RatedGame]) -> None:
    ratings = rate(season)
    rated = {p for g in season for p in (*g.side_a, *g.side_b)}
    assert sum(ratings.of(p) for p in rated) == pytest.approx(START * len(rated))
    assert rate(season) == ratings


@given(games())
def test_winners_gain_and_losers_lose(season: list[RatedGame]) -> None:
    for steps in rate(season).history.values():
        for step in steps:
            assert (step.change > 0) == step.won
            assert 0 < abs(step.change) < K_FACTOR
