"""Final placings of an elimination bracket: 1st, 2nd, 3rd–4th, 5th–8th… No database here.

A team's placing is decided by the match that ended its event: the losers of one round of
eliminations share a band as wide as that round has matches, below every band decided later.

- Single elimination: the final's loser is 2nd; each earlier winners' round eliminates its
  losers (semi-final losers 3rd–4th, quarter-final losers 5th–8th, …). With a third-place game
  the semi-final losers go on to it: its winner is 3rd, its loser 4th.
- Double elimination: a winners' bracket loss is not an elimination; the losers' bracket's
  rounds eliminate (its final's loser 3rd, the round before 4th, then 5th–6th, 7th–8th, …), and
  the grand final (or its reset, when played) decides 1st and 2nd.

The bands come from the bracket's shape, so a band is right while its round is still being
played (the first quarter-final loser is already "5th–8th").

Pools, then a knockout: the knockout's teams take the first places, by its bracket; the teams
the pools eliminated follow, by the place they finished in their pool: every pool's first
team not to go on shares the next band, then every pool's next, and so on. Pools are not of
one strength (nor always of one size), so their records are not compared across pools.

A Swiss or a round robin, then a knockout: the knockout's teams first, by its bracket; then
the others, in the order of the first stage's standings, teams that shared a place there
sharing one here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .metrics import NO_SEED
from .rows import StandingsRow

FINAL_STAGES = ("grand_final", "grand_final_reset")

Band = tuple[int, int]


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match as the placings need it. ``feeds_winner`` / ``feeds_loser``: the bracket
    sends its winner / loser on to another match (the shape). ``winner_goes_on`` /
    ``loser_goes_on``: that match is still to be played (not cancelled, like an unneeded
    grand-final reset)."""

    number: int
    stage: str  # winners, losers, grand_final, grand_final_reset, third_place
    stage_round: int
    feeds_winner: bool = False
    feeds_loser: bool = False
    winner: int | None = None  # entry ids, once decided
    loser: int | None = None
    winner_goes_on: bool = False
    loser_goes_on: bool = False
    cancelled: bool = False
    home: int | None = None
    away: int | None = None


def is_final(match: BracketMatch) -> bool:
    return match.stage in FINAL_STAGES or (match.stage == "winners" and not match.feeds_winner)


def bands(matches: Sequence[BracketMatch]) -> dict[int, tuple[Band | None, Band]]:
    """For each match that can end an event: (its winner's band or None, its loser's band)."""
    result: dict[int, tuple[Band | None, Band]] = {}
    eliminating: dict[int, list[BracketMatch]] = {}
    for match in matches:
        if is_final(match):
            result[match.number] = ((1, 1), (2, 2))
        elif match.stage == "third_place":
            result[match.number] = ((3, 3), (4, 4))
        elif not match.feeds_loser:
            eliminating.setdefault(match.stage_round, []).append(match)
    following = 5 if any(m.stage == "third_place" for m in matches) else 3
    for stage_round in sorted(eliminating, reverse=True):
        size = len(eliminating[stage_round])
        band = (following, following + size - 1)
        for match in eliminating[stage_round]:
            result[match.number] = (None, band)
        following += size
    return result


def placings(matches: Sequence[BracketMatch]) -> dict[int, Band]:
    """Entry id -> band, for each team whose event is over."""
    by_match = bands(matches)
    placed: dict[int, Band] = {}
    for match in matches:
        if match.cancelled or match.winner is None or match.loser is None:
            continue
        found = by_match.get(match.number)
        if found is None:
            continue
        winner_band, loser_band = found
        if not match.loser_goes_on:
            placed[match.loser] = loser_band
        if winner_band is not None and not match.winner_goes_on:
            placed[match.winner] = winner_band
    return placed


def in_band(row: StandingsRow, band: Band | None) -> StandingsRow:
    """Sets the row's place from its band (0, not tied, while still playing)."""
    row.placing = band
    row.place = band[0] if band else 0
    row.tied = bool(band and band[0] != band[1])
    return row


def display_key(row: StandingsRow) -> tuple[int, str, int]:
    """The order of rows sharing a place: by seed, then name."""
    return (row.seed if row.seed is not None else NO_SEED, row.name, row.id)


def after_pools(
    knockout: Sequence[StandingsRow], pools: Mapping[int, Sequence[StandingsRow]]
) -> list[StandingsRow]:
    """Pools then a knockout: the knockout's rows (placed by its bracket, in order), then the
    teams the pools eliminated, each pool position a shared band (copies of the pool rows;
    before the knockout is drawn, every team is placed this way)."""
    gone_on = {row.id for row in knockout}
    by_position: dict[int, list[StandingsRow]] = {}
    for rows in pools.values():
        stayed = [row for row in rows if row.id not in gone_on]
        for position, row in enumerate(stayed):
            by_position.setdefault(position, []).append(row)
    groups = [sorted(by_position[position], key=display_key) for position in sorted(by_position)]
    return _placed_after(knockout, groups)


def after_first_stage(
    knockout: Sequence[StandingsRow], stage: Sequence[StandingsRow]
) -> list[StandingsRow]:
    """A Swiss or round robin then a knockout: the knockout's rows (placed by its bracket, in
    order), then the teams that did not go on, in the first stage's order (``stage``: its
    ranked standings), rows that shared a place there sharing a band (copies of the stage's
    rows; before the knockout is drawn, every team is placed this way)."""
    gone_on = {row.id for row in knockout}
    groups: list[list[StandingsRow]] = []
    for row in stage:
        if row.id in gone_on:
            continue
        if groups and groups[-1][0].placing == row.placing and row.tied:
            groups[-1].append(row)
        else:
            groups.append([row])
    return _placed_after(knockout, groups)


def _placed_after(
    knockout: Sequence[StandingsRow], groups: Sequence[Sequence[StandingsRow]]
) -> list[StandingsRow]:
    """The knockout's rows, then each group of rows as one band below them."""
    result = list(knockout)
    following = len(knockout) + 1
    for group in groups:
        band = (following, following + len(group) - 1)
        for row in group:
            result.append(in_band(dataclasses.replace(row, opponents=list(row.opponents)), band))
        following += len(group)
    return result
