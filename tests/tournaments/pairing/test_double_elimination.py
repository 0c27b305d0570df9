from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.bracket import LoserOf, Seeded, Side, SlotRef, Stage, WinnerOf
from tournaments.pairing.double_elimination import double_elimination

from .helpers import entrants, play_out, random_winner


def test_four_teams_literal() -> None:
    # Drawn by hand: W1 1v4, 2v3; L1 between their losers; W2 (the winners' final); L2 the
    # L1 winner against the W2 loser; grand final; reset only if the L2 winner takes the GF.
    bracket = double_elimination(entrants(4))
    rows = [(m.code, m.home, m.away, m.winner_to, m.loser_to, m.conditional) for m in bracket]
    home, away = Side.HOME, Side.AWAY
    assert rows == [
        ("W1-1", Seeded(101, 1), Seeded(104, 4), SlotRef(4, home), SlotRef(3, home), False),
        ("W1-2", Seeded(102, 2), Seeded(103, 3), SlotRef(4, away), SlotRef(3, away), False),
        ("L1-1", LoserOf(1), LoserOf(2), SlotRef(5, home), None, False),
        ("W2-1", WinnerOf(1), WinnerOf(2), SlotRef(6, home), SlotRef(5, away), False),
        ("L2-1", WinnerOf(3), LoserOf(4), SlotRef(6, away), None, False),
        ("GF", WinnerOf(4), WinnerOf(5), SlotRef(7, home), SlotRef(7, away), False),
        ("GF2", WinnerOf(6), LoserOf(6), None, None, True),
    ]


def test_eight_teams_drop_in_reverse_order() -> None:
    # The losers of W2 cross over: the W2-2 loser meets the survivor of the top half (L1-1).
    bracket = double_elimination(entrants(8))
    by_code = {m.code: m for m in bracket}
    assert by_code["L2-1"].away == LoserOf(by_code["W2-2"].id)
    assert by_code["L2-2"].away == LoserOf(by_code["W2-1"].id)


def test_without_reset() -> None:
    bracket = double_elimination(entrants(8), reset=False)
    assert len(bracket) == bracket.games == 14
    assert bracket.stage(Stage.GRAND_FINAL_RESET) == ()


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=2, max_value=64), st.randoms(use_true_random=False))
def test_games_and_random_results(n: int, rng: random.Random) -> None:
    bracket = double_elimination(entrants(n))
    assert bracket.games == 2 * n - 2
    assert len(bracket) == 2 * n - 1  # with the conditional reset
    played = play_out(bracket, random_winner(rng))
    final = next(g for g in played.games if g[0].stage is Stage.GRAND_FINAL)
    _, gf_home, _, gf_winner = final
    reset_played = gf_winner != gf_home
    assert len(played.games) == (2 * n - 1 if reset_played else 2 * n - 2)
    # The champion (the last game's winner) has lost at most once; everyone else twice.
    champion = played.games[-1][3]
    losses = played.losses
    assert losses.get(champion, 0) <= 1
    assert all(losses[t.id] == 2 for t in entrants(n) if t.id != champion)
    assert (played.games[-1][0].stage is Stage.GRAND_FINAL_RESET) == reset_played


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([8, 16, 32, 64]), st.randoms(use_true_random=False))
def test_first_drop_round_has_no_rematch(n: int, rng: random.Random) -> None:
    bracket = double_elimination(entrants(n))
    played = play_out(bracket, random_winner(rng))
    met: set[frozenset[int]] = set()
    for match, home, away, _ in played.games:
        if match.stage is Stage.LOSERS and match.round == 2:
            assert frozenset((home, away)) not in met
        met.add(frozenset((home, away)))
