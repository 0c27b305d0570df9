from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.advance import (
    Advancement,
    SlotFill,
    advance,
    affected_matches,
    initial_fills,
)
from tournaments.pairing.bracket import Side
from tournaments.pairing.double_elimination import double_elimination
from tournaments.pairing.model import PairingError
from tournaments.pairing.single_elimination import single_elimination

from .helpers import entrants

# Ids of double_elimination(entrants(4)), drawn by hand in test_double_elimination:
# 1 W1-1, 2 W1-2, 3 L1-1, 4 W2-1, 5 L2-1, 6 GF, 7 GF2.


def test_winner_and_loser_both_move() -> None:
    bracket = double_elimination(entrants(4))
    assert advance(bracket, 1, home=101, away=104, winner=104) == Advancement(
        fills=(SlotFill(4, Side.HOME, 104), SlotFill(3, Side.HOME, 101))
    )


def test_grand_final_won_by_winners_champion_cancels_reset() -> None:
    bracket = double_elimination(entrants(4))
    assert advance(bracket, 6, home=101, away=102, winner=101) == Advancement(
        fills=(), cancelled=(7,)
    )


def test_grand_final_won_by_losers_champion_fills_reset() -> None:
    bracket = double_elimination(entrants(4))
    assert advance(bracket, 6, home=101, away=102, winner=102) == Advancement(
        fills=(SlotFill(7, Side.HOME, 102), SlotFill(7, Side.AWAY, 101))
    )


def test_final_fills_nothing() -> None:
    bracket = single_elimination(entrants(4))
    assert advance(bracket, 3, home=101, away=102, winner=102) == Advancement(fills=())


def test_winner_must_have_played() -> None:
    bracket = single_elimination(entrants(4))
    with pytest.raises(PairingError, match="Team 103 did not play match W1-1"):
        advance(bracket, 1, home=101, away=104, winner=103)


@pytest.mark.parametrize(
    ("match_id", "affected"),
    [
        (1, (3, 4, 5, 6, 7)),  # W1-1 feeds W2 and L1, hence everything after
        (3, (5, 6, 7)),  # L1-1
        (5, (6, 7)),  # the losers' final
        (6, (7,)),
        (7, ()),
    ],
)
def test_affected_matches(match_id: int, affected: tuple[int, ...]) -> None:
    assert affected_matches(double_elimination(entrants(4)), match_id) == affected


def test_initial_fills_place_byes() -> None:
    # Five teams: seeds 1-3 have byes into round 2 (matches 2 and 3).
    fills = initial_fills(single_elimination(entrants(5)))
    assert fills == (
        SlotFill(1, Side.HOME, 104),
        SlotFill(1, Side.AWAY, 105),
        SlotFill(2, Side.HOME, 101),
        SlotFill(3, Side.HOME, 102),
        SlotFill(3, Side.AWAY, 103),
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.data())
def test_affected_matches_are_later_and_reachable(n: int, data: st.DataObject) -> None:
    bracket = double_elimination(entrants(n))
    match_id = data.draw(st.integers(min_value=1, max_value=len(bracket)))
    affected = affected_matches(bracket, match_id)
    assert all(later > match_id for later in affected)
    # Every match whose slot names this one is affected.
    for match in bracket:
        for source in (match.home, match.away):
            if getattr(source, "match", None) == match_id:
                assert match.id in affected
