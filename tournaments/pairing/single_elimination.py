"""Single elimination with standard seeding.

The standard (the one used by tennis draws and most bracket software): in a draw of 2^k
lines, position pairs are filled so that each first-round match adds up to 2^k + 1
(1 v 8, 4 v 5, 2 v 7, 3 v 6 for eight), built by doubling: each seed s of the draw of half
the size becomes the pair (s, 2·size + 1 - s). So seeds 1 and 2 can meet only in the final,
seeds 1-4 only from the semi-finals on, 1-8 only from the quarter-finals on.

When the number of teams n is not a power of two, the draw has the next power of two lines
and the missing seeds n+1 … are byes: they face the top seeds, never each other (a bye's
partner seed 2^k + 1 - s is at most 2^k - n < n). A match against a bye is decided without
play, so the bracket holds n - 1 games (plus the third-place game if asked for and n ≥ 4).
"""

from __future__ import annotations

from collections.abc import Sequence

from .bracket import BYE, Bracket, Draft, DraftSource, LoserOf, Seeded, Stage, WinnerOf, compress
from .model import N_, Entrant, PairingError, seed_order


def draw_size(teams: int) -> int:
    """The power of two at or above ``teams`` (at least 2)."""
    return max(2, 1 << (teams - 1).bit_length())


def seeding_order(size: int) -> list[int]:
    """The seed at each line of a draw of ``size`` lines (a power of two), top line first."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"A draw has a power-of-two number of lines, not {size}.")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def bracket_positions(teams: int) -> list[int | None]:
    """The seed at each line of the draw for ``teams`` teams; None is a bye."""
    return [seed if seed <= teams else None for seed in seeding_order(draw_size(teams))]


def draw_lines(team_ids: Sequence[int]) -> list[DraftSource]:
    """The lines of the draw among ``team_ids`` (seed 1 first), byes included."""
    if len(team_ids) < 2:
        raise PairingError(N_("An elimination bracket needs at least two teams."))
    return [
        Seeded(team_ids[seed - 1], seed) if seed is not None else BYE
        for seed in bracket_positions(len(team_ids))
    ]


def play_round(
    drafts: list[Draft], stage: Stage, round_number: int, lines: Sequence[DraftSource]
) -> list[DraftSource]:
    """Append the matches pairing ``lines`` two by two; return their winners, in order."""
    winners: list[DraftSource] = []
    for i in range(0, len(lines), 2):
        winners.append(WinnerOf(len(drafts)))
        drafts.append(Draft(stage, round_number, lines[i], lines[i + 1]))
    return winners


def single_elimination(entrants: Sequence[Entrant], *, third_place: bool = False) -> Bracket:
    """A knockout bracket, seeded by ``seed_order``; optional game for third place."""
    team_ids = [entrant.id for entrant in seed_order(entrants)]
    drafts: list[Draft] = []
    lines = draw_lines(team_ids)
    round_number = 0
    while len(lines) > 1:
        round_number += 1
        if len(lines) == 2 and third_place and round_number > 1:
            semis = [line.match for line in lines if isinstance(line, WinnerOf)]
            drafts.append(
                Draft(Stage.THIRD_PLACE, round_number, LoserOf(semis[0]), LoserOf(semis[1]))
            )
        lines = play_round(drafts, Stage.WINNERS, round_number, lines)
    return compress(drafts, team_ids)
