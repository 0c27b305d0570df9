"""Shared test helpers: play a bracket through its links with chosen winners."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from tournaments.pairing.advance import advance, initial_fills
from tournaments.pairing.bracket import Bracket, Match, Side
from tournaments.pairing.model import Entrant

Chooser = Callable[[Match, int, int], int]


def entrants(n: int, *, clubs: int | None = None) -> list[Entrant]:
    """Teams 101 … 100+n with seeds 1 … n (team 100+s has seed s)."""
    return [Entrant(100 + s, seed=s, club=(s % clubs if clubs else None)) for s in range(1, n + 1)]


@dataclass
class Played:
    games: list[tuple[Match, int, int, int]] = field(
        default_factory=list
    )  # match, home, away, winner
    cancelled: set[int] = field(default_factory=set)

    @property
    def losses(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        for _, home, away, winner in self.games:
            loser = away if winner == home else home
            counts[loser] = counts.get(loser, 0) + 1
        return counts


def play_out(bracket: Bracket, choose: Chooser) -> Played:
    """Play every match in id order through ``advance``; each match's slots must be full."""
    slots = {(fill.match, fill.side): fill.team for fill in initial_fills(bracket)}
    played = Played()
    for match in bracket:
        if match.id in played.cancelled:
            continue
        home, away = slots[(match.id, Side.HOME)], slots[(match.id, Side.AWAY)]
        winner = choose(match, home, away)
        result = advance(bracket, match.id, home=home, away=away, winner=winner)
        for fill in result.fills:
            assert (fill.match, fill.side) not in slots
            slots[(fill.match, fill.side)] = fill.team
        played.cancelled.update(result.cancelled)
        played.games.append((match, home, away, winner))
    return played


def random_winner(rng: random.Random) -> Chooser:
    return lambda match, home, away: rng.choice((home, away))


def favourite(seed_of: dict[int, int]) -> Chooser:
    return lambda match, home, away: min(home, away, key=lambda team: seed_of[team])
