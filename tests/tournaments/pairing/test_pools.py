from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.bracket import Seeded, Stage
from tournaments.pairing.model import Entrant, PairingError
from tournaments.pairing.pools import (
    Pool,
    knockout_seeds,
    pool_name,
    pool_rounds,
    pools_knockout,
    split_into_pools,
)
from tournaments.pairing.single_elimination import bracket_positions


def test_snake_without_clubs() -> None:
    # Snake: A B, B A, A B, B A.
    pools = split_into_pools([Entrant(s, seed=s) for s in range(1, 9)], pool_size=4)
    assert [(p.name, p.teams) for p in pools] == [("A", (1, 4, 5, 8)), ("B", (2, 3, 6, 7))]


def test_snake_uneven() -> None:
    # 10 teams in pools of at most 4: three pools; the last row fills C only.
    pools = split_into_pools([Entrant(s, seed=s) for s in range(1, 11)], pool_size=4)
    assert [p.teams for p in pools] == [(1, 6, 7), (2, 5, 8), (3, 4, 9, 10)]


def test_club_mates_swap_within_their_row() -> None:
    # Seeds 1 and 4 share a club; the snake put both in A, so 4 swaps with 3 (same row).
    teams = [Entrant(s, seed=s, club=9 if s in (1, 4) else None) for s in range(1, 9)]
    pools = split_into_pools(teams, pool_size=4)
    assert [p.teams for p in pools] == [(1, 3, 5, 8), (2, 4, 6, 7)]
    assert _club_clashes(pools) == 0


def test_pool_names() -> None:
    assert [pool_name(i) for i in (0, 1, 25, 26, 27)] == ["A", "B", "Z", "AA", "AB"]


def test_pool_plays_round_robin() -> None:
    pool = Pool("A", tuple(Entrant(s, seed=s) for s in (1, 2, 3)))
    assert len(pool_rounds(pool)) == 3


def _lines(finishing: list[list[str]], qualifiers: int) -> list[str | None]:
    ids = {name: index for index, name in enumerate(n for order in finishing for n in order)}
    seeds = knockout_seeds([[ids[n] for n in order] for order in finishing], qualifiers=qualifiers)
    name_of = {v: k for k, v in ids.items()}
    return [name_of[seeds[s - 1]] if s else None for s in bracket_positions(len(seeds))]


@pytest.mark.parametrize(
    ("pools", "qualifiers", "lines"),
    [
        # The usual crossing: A1 v B2, B1 v A2 (and C1 v D2, D1 v C2), a pool's two
        # qualifiers in opposite halves (World Cup style).
        (2, 2, ["A1", "B2", "B1", "A2"]),
        (4, 2, ["A1", "B2", "D1", "C2", "B1", "A2", "C1", "D2"]),
        # Three pools, two through: pool winners A1 and B1 get the byes.
        (3, 2, ["A1", None, "C2", "B2", "B1", None, "C1", "A2"]),
        (3, 1, ["A1", None, "B1", "C1"]),
    ],
)
def test_crossing(pools: int, qualifiers: int, lines: list[str | None]) -> None:
    finishing = [[f"{pool_name(p)}{k}" for k in range(1, qualifiers + 1)] for p in range(pools)]
    assert _lines(finishing, qualifiers) == lines


def test_knockout_needs_enough_teams_per_pool() -> None:
    with pytest.raises(PairingError, match=r"^Pool B has 1 team, so 2 cannot go through\.$"):
        knockout_seeds([[1, 2, 3], [4]], qualifiers=2)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(min_value=2, max_value=64),
    st.integers(min_value=2, max_value=8),
    st.integers(min_value=1, max_value=10),
    st.randoms(use_true_random=False),
)
def test_split_properties(n: int, size: int, clubs: int, rng: random.Random) -> None:
    teams = [Entrant(s, seed=s, club=rng.randrange(clubs)) for s in range(1, n + 1)]
    pools = split_into_pools(teams, pool_size=size)
    sizes = [len(p.entrants) for p in pools]
    assert len(pools) == -(-n // size)
    assert max(sizes) <= size and max(sizes) - min(sizes) <= 1
    assert sorted(t for p in pools for t in p.teams) == list(range(1, n + 1))
    # Strength kept: pool i holds exactly one team of each row of the snake.
    for row in range(0, n, len(pools)):
        row_teams = set(range(row + 1, min(n, row + len(pools)) + 1))
        assert all(len(row_teams & set(p.teams)) <= 1 for p in pools)
    assert _club_clashes(pools) <= _snake_clashes(teams, len(pools))


def _club_clashes(pools: list[Pool]) -> int:
    """The pairs of same-club teams sharing a pool."""
    return sum(
        1
        for pool in pools
        for a, b in itertools.combinations(pool.entrants, 2)
        if a.club is not None and a.club == b.club
    )


def _snake_clashes(teams: list[Entrant], count: int) -> int:
    clashes = 0
    for pool in range(count):
        members = [
            t.club
            for row, start in enumerate(range(0, len(teams), count))
            for i, t in enumerate(teams[start : start + count])
            if (i if row % 2 == 0 else count - 1 - i) == pool
        ]
        clashes += sum(1 for a, b in itertools.combinations(members, 2) if a == b)
    return clashes


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=3, max_value=10),
    st.integers(min_value=1, max_value=4),
    st.randoms(use_true_random=False),
)
def test_two_pools_reach_fewest_clashes(n: int, clubs: int, rng: random.Random) -> None:
    """Brute force over every way to deal each row of the snake between two pools."""
    teams = [Entrant(s, seed=s, club=rng.randrange(clubs)) for s in range(1, n + 1)]
    pools = split_into_pools(teams, pool_size=(n + 1) // 2)
    assert len(pools) == 2
    rows = [teams[i : i + 2] for i in range(0, n, 2)]
    best = min(
        sum(
            sum(1 for a, b in itertools.combinations(side, 2) if a.club == b.club)
            for side in (
                [row[flip] for row, flip in zip(rows, flips, strict=True)],
                [row[1 - flip] for row, flip in zip(rows, flips, strict=True) if len(row) == 2],
            )
        )
        for flips in itertools.product(*[(0, 1) if len(row) == 2 else (0,) for row in rows])
    )
    assert _club_clashes(pools) == best


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=8), st.integers(min_value=1, max_value=4))
def test_same_pool_teams_apart_in_the_knockout(pools: int, qualifiers: int) -> None:
    finishing = [[100 * p + k for k in range(qualifiers)] for p in range(pools)]
    bracket = pools_knockout(finishing, qualifiers=qualifiers, third_place=True)
    assert bracket.games == pools * qualifiers - 1 + (1 if pools * qualifiers >= 4 else 0)
    for match in bracket.stage(Stage.WINNERS):
        if isinstance(match.home, Seeded) and isinstance(match.away, Seeded):
            assert match.home.team // 100 != match.away.team // 100
    if qualifiers == 2 and pools in (2, 4, 8):
        lines = bracket_positions(2 * pools)
        seeds = knockout_seeds(finishing, qualifiers=2)
        half = len(lines) // 2
        top = {seeds[s - 1] // 100 for s in lines[:half] if s}
        bottom = {seeds[s - 1] // 100 for s in lines[half:] if s}
        assert top == bottom == set(range(pools))  # every pool has one team in each half
