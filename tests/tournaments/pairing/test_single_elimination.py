from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.bracket import LoserOf, Seeded, Side, SlotRef, Stage, WinnerOf
from tournaments.pairing.model import Entrant, PairingError
from tournaments.pairing.single_elimination import (
    bracket_positions,
    draw_size,
    seeding_order,
    single_elimination,
)

from .helpers import entrants, favourite, play_out, random_winner

# The standard draw ("each first-round pair adds up to 2^k + 1, built by doubling"), as
# printed on tennis and bridge knockout sheets: 8 lines 1v8, 4v5, 2v7, 3v6.
STANDARD_DRAWS = {
    2: [1, 2],
    4: [1, 4, 2, 3],
    8: [1, 8, 4, 5, 2, 7, 3, 6],
    16: [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11],
}


@pytest.mark.parametrize(("size", "order"), sorted(STANDARD_DRAWS.items()))
def test_seeding_order(size: int, order: list[int]) -> None:
    assert seeding_order(size) == order


@pytest.mark.parametrize(
    ("teams", "positions"),
    [
        (5, [1, None, 4, 5, 2, None, 3, None]),  # byes to seeds 1, 2, 3
        (6, [1, None, 4, 5, 2, None, 3, 6]),  # byes to seeds 1, 2
        (3, [1, None, 2, 3]),
    ],
)
def test_byes_go_to_top_seeds(teams: int, positions: list[int | None]) -> None:
    assert bracket_positions(teams) == positions


def test_five_teams_literal() -> None:
    bracket = single_elimination(entrants(5), third_place=True)
    assert [(m.code, m.home, m.away, m.winner_to, m.loser_to) for m in bracket] == [
        ("W1-1", Seeded(104, 4), Seeded(105, 5), SlotRef(2, Side.AWAY), None),
        ("W2-1", Seeded(101, 1), WinnerOf(1), SlotRef(5, Side.HOME), SlotRef(4, Side.HOME)),
        ("W2-2", Seeded(102, 2), Seeded(103, 3), SlotRef(5, Side.AWAY), SlotRef(4, Side.AWAY)),
        ("3P", LoserOf(2), LoserOf(3), None, None),
        ("W3-1", WinnerOf(2), WinnerOf(3), None, None),
    ]
    assert bracket.byes == (101, 102, 103)


def test_one_team_is_refused() -> None:
    with pytest.raises(PairingError, match="at least two teams"):
        single_elimination([Entrant(1)])


def test_draw_power_of_two_only() -> None:
    with pytest.raises(ValueError, match="power-of-two"):
        seeding_order(6)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(min_value=2, max_value=64),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_games_and_random_results(n: int, third_place: bool, rng: random.Random) -> None:
    bracket = single_elimination(entrants(n), third_place=third_place)
    extra = 1 if third_place and n >= 4 else 0
    assert len(bracket) == bracket.games == n - 1 + extra
    assert len(bracket.byes) == draw_size(n) - n
    played = play_out(bracket, random_winner(rng))
    assert len(played.games) == n - 1 + extra
    # Everyone but the champion loses once (the third-place game's loser twice).
    losses = played.losses
    assert len(losses) == n - 1
    assert sum(losses.values()) == n - 1 + extra


@settings(max_examples=63, deadline=None)
@given(st.integers(min_value=2, max_value=64))
def test_top_seeds_are_apart(n: int) -> None:
    # With the better seed winning every match, the last 2^j teams standing are seeds 1 … 2^j:
    # 1 and 2 meet only in the final, 1-4 are in different quarters, and so on.
    bracket = single_elimination(entrants(n))
    seed_of = {100 + s: s for s in range(1, n + 1)}
    played = play_out(bracket, favourite(seed_of))
    by_round: dict[int, set[int]] = {}
    for match, home, away, _ in played.games:
        by_round.setdefault(match.round, set()).update((seed_of[home], seed_of[away]))
    rounds = max(by_round)
    for number, seeds in by_round.items():
        left = 2 ** (rounds - number + 1)
        assert seeds <= set(range(1, left + 1))
        if number > 1:
            assert seeds == set(range(1, left + 1))
    final = bracket.stage(Stage.WINNERS)[-1]
    assert final.winner_to is None


@settings(max_examples=63, deadline=None)
@given(st.integers(min_value=2, max_value=64))
def test_byes_never_meet_byes(n: int) -> None:
    positions = bracket_positions(n)
    pairs = list(zip(positions[::2], positions[1::2], strict=True))
    assert all(not (a is None and b is None) for a, b in pairs)
    assert sorted(a for a, b in pairs if b is None and a is not None) == list(
        range(1, draw_size(n) - n + 1)
    )
