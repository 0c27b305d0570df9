"""The knockout after a Swiss or round robin: the first N of the standings, seeded 1 v N."""

from __future__ import annotations

import pytest

from tournaments.pairing.bracket import Seeded, Stage
from tournaments.pairing.knockout import knockout_bracket, qualifiers
from tournaments.pairing.model import PairingError

# Team ids in the first stage's finishing order: 1st is team 108, 2nd is 107, …
STANDINGS = [108, 107, 106, 105, 104, 103, 102, 101, 100]


def first_round(bracket):
    """The seeds that meet in the first round, each pair as (home seed, away seed)."""
    return [
        (m.home.seed, m.away.seed)
        for m in bracket.stage(Stage.WINNERS)
        if isinstance(m.home, Seeded) and isinstance(m.away, Seeded)
    ]


def test_the_first_n_of_the_standings_go_on_in_their_order() -> None:
    assert qualifiers(STANDINGS, size=4) == [108, 107, 106, 105]
    assert qualifiers(STANDINGS, size=9) == STANDINGS


def test_eight_go_on_and_meet_one_v_eight_four_v_five_two_v_seven_three_v_six() -> None:
    bracket = knockout_bracket(qualifiers(STANDINGS, size=8), double=False)
    assert first_round(bracket) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    top = bracket.stage(Stage.WINNERS)[0].home
    assert top == Seeded(team=108, seed=1)  # the first stage's winner is seed 1
    assert bracket.games == 7


def test_six_go_on_and_the_top_two_seeds_get_the_byes() -> None:
    bracket = knockout_bracket(qualifiers(STANDINGS, size=6), double=False)
    assert first_round(bracket) == [(4, 5), (3, 6)]
    assert set(bracket.byes) == {108, 107}
    assert bracket.games == 5


def test_a_double_elimination_knockout_and_its_reset() -> None:
    bracket = knockout_bracket(qualifiers(STANDINGS, size=4), double=True, reset=True)
    assert first_round(bracket) == [(1, 4), (2, 3)]
    assert [m.stage for m in bracket][-2:] == [Stage.GRAND_FINAL, Stage.GRAND_FINAL_RESET]
    assert (bracket.games, len(bracket)) == (2 * 4 - 2, 2 * 4 - 1)  # the reset if needed
    without = knockout_bracket(qualifiers(STANDINGS, size=4), double=True, reset=False)
    assert Stage.GRAND_FINAL_RESET not in {m.stage for m in without}


def test_a_single_elimination_knockout_with_a_game_for_third_place() -> None:
    bracket = knockout_bracket(qualifiers(STANDINGS, size=4), double=False, third_place=True)
    assert len(bracket.stage(Stage.THIRD_PLACE)) == 1
    assert bracket.games == 4


def test_more_teams_going_on_than_played_is_refused_in_words() -> None:
    with pytest.raises(PairingError) as refused:
        qualifiers(STANDINGS[:5], size=8)
    assert str(refused.value) == (
        "The knockout takes 8 teams, but only 5 are in the first stage. Lower the knockout's "
        "size in the event's settings."
    )


def test_a_knockout_of_one_team_is_refused() -> None:
    with pytest.raises(PairingError, match="at least two teams"):
        qualifiers(STANDINGS, size=1)
