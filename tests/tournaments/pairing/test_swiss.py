from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.model import (
    Bye,
    Entrant,
    NoValidPairing,
    PairingError,
    PlannedGame,
    PlayedBye,
    PlayedGame,
)
from tournaments.pairing.swiss import swiss_round
from tournaments.pairing.swiss_cost import CLUB_COST, SCORE_GAP_COST, TeamState, pair_cost

from .swiss_helpers import History, brute_force, record, round_cost, standings

NAMED = [
    Entrant(1, seed=1, name="Aces"),
    Entrant(2, seed=2, name="Bowers"),
    Entrant(3, seed=3, name="Clubs"),
    Entrant(4, seed=4, name="Deuces"),
]


def test_round_one_slides_top_half_against_bottom_half() -> None:
    # Swiss round 1 (FIDE "slide"): 1v5, 2v6, 3v7, 4v8; the better seed sits North-South
    # in odd rounds and the home team deals first at odd tables.
    result = swiss_round([Entrant(s, seed=s) for s in range(1, 9)], [], list(range(1, 9)), 1)
    assert result.pairings == (
        PlannedGame(1, 1, 5, True),
        PlannedGame(2, 2, 6, False),
        PlannedGame(3, 3, 7, True),
        PlannedGame(4, 4, 8, False),
    )
    assert result.byes == ()


def test_round_two_within_score_groups_with_seats_and_deal_balanced() -> None:
    # Round 1: Aces (home, dealt first) beat Clubs; Bowers (home) beat Deuces (dealt first).
    played: History = [PlayedGame(1, 1, 3, 1, True), PlayedGame(1, 2, 4, 2, False)]
    result = swiss_round(NAMED, played, [1, 2, 3, 4], 2)
    # Aces and Bowers were both home last time, so the worse-ranked is home in an even
    # round; Bowers have not dealt first yet, so they do. Same below for Deuces / Clubs.
    assert result.pairings == (PlannedGame(1, 2, 1, True), PlannedGame(2, 4, 3, False))


def test_round_three_floats_to_avoid_a_rematch() -> None:
    played: History = [
        PlayedGame(1, 1, 3, 1, True),
        PlayedGame(1, 2, 4, 2, False),
        PlayedGame(2, 2, 1, 1, True),
        PlayedGame(2, 4, 3, 3, False),
    ]
    # Aces 2 wins, Bowers 1, Clubs 1, Deuces 0: Aces have met Bowers and Clubs.
    result = swiss_round(NAMED, played, [1, 2, 3, 4], 3)
    assert {frozenset(p.teams) for p in result.pairings} == {frozenset({1, 4}), frozenset({2, 3})}


def test_bye_goes_to_lowest_ranked_without_one() -> None:
    teams = [Entrant(s, seed=s) for s in (1, 2, 3)]
    assert swiss_round(teams, [], [1, 2, 3], 1).byes == (Bye(3),)
    played: History = [PlayedBye(1, 3), PlayedGame(1, 1, 2, 1)]
    second = swiss_round(teams, played, [1, 3, 2], 2)
    assert second.byes == (Bye(2),)
    assert second.pairings == (PlannedGame(1, 3, 1, True),)
    played += [PlayedBye(2, 2), PlayedGame(2, 3, 1, 3)]
    third = swiss_round(teams, played, [1, 3, 2], 3)
    assert third.byes == (Bye(1),)
    played += [PlayedBye(3, 1), PlayedGame(3, 2, 3, 2)]
    with pytest.raises(NoValidPairing, match="every team has had a bye"):
        swiss_round(teams, played, [1, 3, 2], 4)


def test_exhausted_field_says_who_is_stuck() -> None:
    played: History = [
        PlayedGame(1, 1, 3, 1),
        PlayedGame(1, 2, 4, 2),
        PlayedGame(2, 1, 2, 1),
        PlayedGame(2, 3, 4, 3),
        PlayedGame(3, 1, 4, 1),
        PlayedGame(3, 2, 3, 2),
    ]
    with pytest.raises(NoValidPairing) as caught:
        swiss_round(NAMED, played, [1, 2, 3, 4], 4)
    assert str(caught.value) == (
        "No pairing for round 4 avoids a rematch: "
        "teams Aces, Bowers, Clubs and Deuces have played everyone left."
    )
    assert isinstance(caught.value, ValueError)


def test_no_perfect_pairing_names_the_leftover_teams() -> None:
    # Six teams; 1, 2, 3 and 4 have all played each other, so two of them must meet again.
    teams = [Entrant(s, seed=s) for s in range(1, 7)]
    played: History = [
        PlayedGame(r, a, b, a)
        for r, (a, b) in enumerate([(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)], start=1)
    ]
    with pytest.raises(
        NoValidPairing,
        match=r"^No pairing for round 7 avoids a rematch: "
        r"pairing as many teams as possible still leaves #\d and #\d, "
        r"who have already played each other\.$",
    ):
        swiss_round(teams, played, [1, 2, 3, 4, 5, 6], 7)


@pytest.mark.parametrize(
    ("standings", "message"),
    [
        ([1, 2, 3], "Team 3 is in the standings but not entered."),
        ([1], "Team #2 is entered but not in the standings."),
    ],
)
def test_standings_must_match_entrants(standings: list[int], message: str) -> None:
    with pytest.raises(PairingError, match=message):
        swiss_round([Entrant(1), Entrant(2)], [], standings, 1)


@pytest.mark.parametrize(
    ("a", "b", "cost"),
    [
        # same group of 4, places 0 and 2: the slide, cost 0
        ((0, None, 0, 0, 4), (0, None, 0, 2, 4), 0),
        # same group, neighbours: one place off the slide
        ((0, None, 0, 0, 4), (0, None, 0, 1, 4), 1),
        # same club
        ((0, 7, 0, 0, 4), (0, 7, 0, 2, 4), CLUB_COST),
        # one point apart (2 half-points): bottom of the upper group v top of the lower
        ((2, None, 0, 1, 2), (0, None, 1, 0, 2), 4 * SCORE_GAP_COST),
        # half a point apart, from the top of the upper group: 1 off
        ((1, None, 0, 0, 2), (0, None, 1, 0, 2), SCORE_GAP_COST + 1),
    ],
)
def test_pair_cost_terms(
    a: tuple[int, int | None, int, int, int], b: tuple[int, int | None, int, int, int], cost: int
) -> None:
    def state(team: int, spec: tuple[int, int | None, int, int, int]) -> TeamState:
        points, club, group, place, size = spec
        return TeamState(
            team, 0, points, club, frozenset(), False, 0, 0, None, 0, group, place, size
        )

    assert pair_cost(state(1, a), state(2, b)) == cost == pair_cost(state(2, b), state(1, a))


def _field(n: int, clubs: int, rng: random.Random) -> list[Entrant]:
    return [
        Entrant(100 + s, seed=s, club=rng.randrange(clubs) if clubs else None)
        for s in range(1, n + 1)
    ]


@settings(max_examples=120, deadline=None)
@given(
    st.integers(min_value=2, max_value=10),
    st.integers(min_value=0, max_value=4),
    st.randoms(use_true_random=False),
)
def test_brute_force_agrees_small_fields(n: int, clubs: int, rng: random.Random) -> None:
    """Up to 10 teams, until the field runs out: the bye and the least cost match a brute
    force over every pairing, and NoValidPairing is raised exactly when none exists."""
    entrants = _field(n, clubs, rng)
    seed_of = {e.id: e.seed or 0 for e in entrants}
    wins = dict.fromkeys(seed_of, 0)
    played: History = []
    for number in range(1, n + 2):
        order = standings(wins, seed_of)
        expected = brute_force(entrants, played, order)
        if expected is None:
            with pytest.raises(NoValidPairing, match=f"^No pairing for round {number} "):
                swiss_round(entrants, played, order, number)
            return
        result = swiss_round(entrants, played, order, number)
        bye, least = expected
        assert [b.team for b in result.byes] == ([bye] if bye is not None else [])
        assert round_cost(entrants, played, order, result) == least
        played += record(result, rng, wins)


def _check_round(played: History, result_pairs: list[tuple[int, int]], byes: list[int]) -> None:
    met = {frozenset((g.home_id, g.away_id)) for g in played if isinstance(g, PlayedGame)}
    had_bye = {g.team_id for g in played if isinstance(g, PlayedBye)}
    for home, away in result_pairs:
        assert frozenset((home, away)) not in met
    assert not had_bye & set(byes)
    assert len(byes) <= 1


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=2, max_value=64),
    st.integers(min_value=0, max_value=8),
    st.randoms(use_true_random=False),
)
def test_no_rematch_one_bye_and_deterministic(n: int, clubs: int, rng: random.Random) -> None:
    entrants = _field(n, clubs, rng)
    seed_of = {e.id: e.seed or 0 for e in entrants}
    wins = dict.fromkeys(seed_of, 0)
    played: History = []
    for number in range(1, min(n, 8) + 1):
        order = standings(wins, seed_of)
        try:
            result = swiss_round(entrants, played, order, number)
        except NoValidPairing:
            assert brute_force(entrants, played, order) is None if n <= 10 else True
            return
        # The same input in another order gives the same pairing.
        shuffled_entrants, shuffled_played = list(entrants), list(played)
        rng.shuffle(shuffled_entrants)
        rng.shuffle(shuffled_played)
        assert swiss_round(shuffled_entrants, shuffled_played, order, number) == result
        assert sorted(result.teams) == sorted(seed_of)
        _check_round(played, [p.teams for p in result.pairings], [b.team for b in result.byes])
        played += record(result, rng, wins)


def test_large_field_uses_sparse_graph_and_still_pairs_everyone() -> None:
    rng = random.Random(7)
    entrants = _field(200, 12, rng)
    seed_of = {e.id: e.seed or 0 for e in entrants}
    wins = dict.fromkeys(seed_of, 0)
    played: History = []
    for number in range(1, 6):
        result = swiss_round(entrants, played, standings(wins, seed_of), number)
        assert len(result.pairings) == 100
        _check_round(played, [p.teams for p in result.pairings], [])
        played += record(result, rng, wins)


def test_bye_moves_up_when_the_lowest_ranked_team_out_leaves_no_pairing() -> None:
    # Team 1 has met 2, 3 and 4, who have had their byes; team 5 (a late entry) has not
    # played. Sitting 5 out would leave 1 with no new opponent, so 1 takes the bye.
    teams = [Entrant(s, seed=s) for s in range(1, 6)]
    played: History = [
        PlayedGame(1, 1, 2, 1),
        PlayedGame(2, 1, 3, 1),
        PlayedGame(3, 1, 4, 1),
        PlayedBye(1, 4),
        PlayedBye(2, 2),
        PlayedBye(3, 3),
    ]
    result = swiss_round(teams, played, [1, 2, 3, 4, 5], 4)
    assert result.byes == (Bye(1),)


def test_every_bye_candidate_fails() -> None:
    teams = [Entrant(s, seed=s, name=name) for s, name in enumerate("ABCDE", start=1)]
    played: History = [
        PlayedGame(1, 1, 2, 1),
        PlayedGame(1, 3, 5, 3),
        PlayedBye(1, 4),
        PlayedGame(2, 1, 3, 1),
        PlayedGame(2, 4, 5, 4),
        PlayedBye(2, 2),
        PlayedGame(3, 1, 4, 1),
        PlayedGame(3, 2, 5, 2),
        PlayedBye(3, 3),
    ]
    with pytest.raises(NoValidPairing) as caught:
        swiss_round(teams, played, [1, 2, 3, 4, 5], 4)
    assert str(caught.value) == (
        "No pairing for round 4 avoids a rematch, whichever team without a bye sits out "
        "(with E out, team A has played everyone left)."
    )


@settings(max_examples=8, deadline=None)
@given(st.integers(min_value=33, max_value=80), st.randoms(use_true_random=False))
def test_sparse_graph_finds_the_complete_graphs_optimum(n: int, rng: random.Random) -> None:
    """Above 4 x window teams the graph is sparse; on these fields it loses nothing."""
    entrants = _field(n, 6, rng)
    seed_of = {e.id: e.seed or 0 for e in entrants}
    wins = dict.fromkeys(seed_of, 0)
    played: History = []
    for number in range(1, 5):
        order = standings(wins, seed_of)
        sparse = swiss_round(entrants, played, order, number)
        complete = swiss_round(entrants, played, order, number, window=n)
        assert round_cost(entrants, played, order, sparse) == round_cost(
            entrants, played, order, complete
        )
        played += record(sparse, rng, wins)
