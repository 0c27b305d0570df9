from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.matching import perfect_matching
from tournaments.pairing.model import PairingError
from tournaments.pairing.progressive import ProgressiveRound, progressive_round


def _night(players: list[int], rounds: int, seed: int) -> list[ProgressiveRound]:
    history: list[ProgressiveRound] = []
    for number in range(1, rounds + 1):
        history.append(progressive_round(players, history, number, seed))
    return history


def _partnerships(r: ProgressiveRound) -> set[frozenset[int]]:
    return {frozenset(pair) for t in r.tables for pair in (t.north_south, t.east_west)}


def _fresh_partners_for_all(players: list[int], partnered: set[frozenset[int]]) -> bool:
    """Whether the players can all be given partners they have never had."""
    edges = [
        (i, j, 0)
        for i, j in itertools.combinations(range(len(players)), 2)
        if frozenset((players[i], players[j])) not in partnered
    ]
    return perfect_matching(len(players), edges) is not None


def test_four_players_meet_every_partner_in_three_rounds() -> None:
    # Four players have exactly three ways to make two partnerships; three rounds use each.
    night = _night([1, 2, 3, 4], 3, seed=5)
    assert sorted(sorted(map(sorted, _partnerships(r))) for r in night) == [
        [[1, 2], [3, 4]],
        [[1, 3], [2, 4]],
        [[1, 4], [2, 3]],
    ]


def test_five_players_each_sit_out_once_in_five_rounds() -> None:
    night = _night([1, 2, 3, 4, 5], 5, seed=1)
    assert sorted(out.player for r in night for out in r.sit_outs) == [1, 2, 3, 4, 5]


def test_eight_players_second_round_repeats_no_partner_and_no_opponent() -> None:
    first, second = _night(list(range(1, 9)), 2, seed=3)
    assert not _partnerships(first) & _partnerships(second)
    opposed = {frozenset((a, b)) for t in first.tables for a in t.north_south for b in t.east_west}
    assert not any(
        frozenset((a, b)) in opposed
        for t in second.tables
        for a in t.north_south
        for b in t.east_west
    )


def test_too_few_players() -> None:
    with pytest.raises(PairingError, match="at least four players"):
        progressive_round([1, 2, 3], [], 1, seed=0)


def test_same_seed_same_round_other_seed_may_differ() -> None:
    players = list(range(1, 21))
    assert _night(players, 3, seed=9) == _night(players, 3, seed=9)
    assert _night(players, 1, seed=9) != _night(players, 1, seed=10)
    history = _night(players, 2, seed=9)
    assert progressive_round(list(reversed(players)), history[::-1], 3, 9) == progressive_round(
        players, history, 3, 9
    )


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=4, max_value=64),
    st.integers(min_value=1, max_value=6),
    st.integers(min_value=0, max_value=2**32),
)
def test_night_properties(n: int, rounds: int, seed: int) -> None:
    players = random.Random(seed).sample(range(1, 1000), n)
    history: list[ProgressiveRound] = []
    sat_out: Counter[int] = Counter()
    partnered: set[frozenset[int]] = set()
    for number in range(1, rounds + 1):
        r = progressive_round(players, history, number, seed)
        out = [s.player for s in r.sit_outs]
        seated = [p for t in r.tables for p in t.players]
        assert len(out) == n % 4
        assert sorted(out + seated) == sorted(players)  # everyone once
        assert [t.table for t in r.tables] == list(range(1, n // 4 + 1))
        sat_out.update(out)
        assert max(sat_out[p] for p in players) - min(sat_out[p] for p in players) <= 1
        # No repeated partner while the players of the round can avoid one.
        repeats = _partnerships(r) & partnered
        assert (not repeats) == _fresh_partners_for_all(seated, partnered)
        partnered |= _partnerships(r)
        history.append(r)
