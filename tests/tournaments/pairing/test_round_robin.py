from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.model import Bye, Entrant, PairingError, PlannedGame
from tournaments.pairing.round_robin import round_robin_schedule

from .helpers import entrants


def test_four_teams_literal() -> None:
    # Circle method worked by hand: seed 1 stays outside the circle (2, 3, 4); in round r,
    # circle teams i, j meet when i + j = 2r (mod 3).
    rounds = round_robin_schedule([Entrant(s, seed=s) for s in (1, 2, 3, 4)])
    assert [r.pairings for r in rounds] == [
        (PlannedGame(1, 1, 2, False), PlannedGame(2, 3, 4, True)),
        (PlannedGame(1, 3, 1, False), PlannedGame(2, 4, 2, True)),
        (PlannedGame(1, 1, 4, True), PlannedGame(2, 2, 3, True)),
    ]
    assert all(r.byes == () for r in rounds)


def test_three_teams_each_sit_out_once() -> None:
    rounds = round_robin_schedule([Entrant(s, seed=s) for s in (1, 2, 3)])
    assert [r.byes for r in rounds] == [(Bye(1),), (Bye(2),), (Bye(3),)]
    assert [r.pairings for r in rounds] == [
        (PlannedGame(1, 2, 3, True),),
        (PlannedGame(1, 3, 1, True),),
        (PlannedGame(1, 1, 2, True),),
    ]


def test_one_team_is_refused() -> None:
    with pytest.raises(PairingError, match="at least two teams"):
        round_robin_schedule([Entrant(1)])


@settings(max_examples=63, deadline=None)
@given(st.integers(min_value=2, max_value=64))
def test_every_pair_once_byes_and_balance(n: int) -> None:
    teams = entrants(n)
    rounds = round_robin_schedule(teams)
    assert len(rounds) == (n if n % 2 else n - 1)
    meetings: Counter[frozenset[int]] = Counter()
    home: Counter[int] = Counter()
    dealt: Counter[int] = Counter()
    sat_out: Counter[int] = Counter()
    for number, r in enumerate(rounds, start=1):
        assert r.number == number
        assert sorted(r.teams) == sorted(t.id for t in teams)  # everyone, once
        assert [p.table for p in r.pairings] == list(range(1, len(r.pairings) + 1))
        assert len(r.byes) == n % 2  # byes never meet byes: at most one per round
        for p in r.pairings:
            meetings[frozenset(p.teams)] += 1
            home[p.home] += 1
            dealt[p.home if p.first_dealer_home else p.away] += 1
        sat_out.update(b.team for b in r.byes)
    assert len(meetings) == n * (n - 1) // 2
    assert set(meetings.values()) == {1}
    assert all(count == 1 for count in sat_out.values())
    ids = [t.id for t in teams]
    for counts in (home, dealt):
        values = [counts[i] for i in ids]
        assert max(values) - min(values) <= 1
