"""Player ratings: an Elo update on the two partnerships' average ratings. Pure Python.

Each player starts at ``START`` (1500). For a game between partnerships A and B::

    R_A = (r_a1 + r_a2) / 2            R_B = (r_b1 + r_b2) / 2
    E_A = 1 / (1 + 10 ** ((R_B - R_A) / 400))
    S_A = 1 if A won else 0
    change = K * (S_A - E_A)           (K = 32)

Both players of A gain ``change`` and both players of B lose it, so the four ratings keep
their sum and a player's rating follows them from partner to partner. A game is a win or a
loss (Kaiser has no draws). Games are rated one at a time in the order they ended; replaying
the same games in the same order gives the same ratings.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

START = 1500.0
K_FACTOR = 32.0
SCALE = 400.0  # a 400-point gap means the stronger side is expected to win 10 games to 1


def expected_score(own: float, other: float) -> float:
    """The chance, as Elo reckons it, that a side rated ``own`` beats a side rated ``other``."""
    return 1.0 / (1.0 + math.pow(10.0, (other - own) / SCALE))


def rating_change(*, own: float, other: float, won: bool, k: float = K_FACTOR) -> float:
    """What each player of the side rated ``own`` gains (negative: loses)."""
    return k * ((1.0 if won else 0.0) - expected_score(own, other))


class RatedGame(NamedTuple):
    """A finished game as the rating sees it: two partnerships of two player ids, who won."""

    game_id: int
    side_a: tuple[int, int]
    side_b: tuple[int, int]
    a_won: bool


class RatingStep(NamedTuple):
    """One player's rating before and after one game (a tuple: a season makes many)."""

    game_id: int
    player_id: int
    before: float
    after: float
    won: bool

    @property
    def change(self) -> float:
        return self.after - self.before


@dataclass
class Ratings:
    """Every player's current rating, and each player's steps in the order they were rated."""

    current: dict[int, float] = field(default_factory=dict)
    history: dict[int, list[RatingStep]] = field(default_factory=dict)

    def of(self, player_id: int) -> float:
        return self.current.get(player_id, START)

    def steps_of(self, player_id: int) -> list[RatingStep]:
        return self.history.get(player_id, [])


def rate_game(
    current: Mapping[int, float], game: RatedGame, *, k: float = K_FACTOR, start: float = START
) -> list[RatingStep]:
    """The four players' steps for one game, given the ratings before it."""
    a = [current.get(p, start) for p in game.side_a]
    b = [current.get(p, start) for p in game.side_b]
    change = rating_change(own=sum(a) / 2, other=sum(b) / 2, won=game.a_won, k=k)
    steps = [
        RatingStep(game.game_id, player, before, before + change, game.a_won)
        for player, before in zip(game.side_a, a, strict=True)
    ]
    steps += [
        RatingStep(game.game_id, player, before, before - change, not game.a_won)
        for player, before in zip(game.side_b, b, strict=True)
    ]
    return steps


def rate(games: Iterable[RatedGame], *, k: float = K_FACTOR, start: float = START) -> Ratings:
    """Rates the games in the order given."""
    ratings = Ratings()
    for game in games:
        for step in rate_game(ratings.current, game, k=k, start=start):
            ratings.current[step.player_id] = step.after
            ratings.history.setdefault(step.player_id, []).append(step)
    return ratings
