"""Moving teams through a bracket, and what a changed result would undo.

Pure functions on a ``Bracket``: the database layer keeps which team sits in which slot and
asks here which slots a result fills, or which later matches a corrected result invalidates.
"""

from __future__ import annotations

from dataclasses import dataclass

from .bracket import Bracket, Seeded, Side
from .model import N_, PairingError


@dataclass(frozen=True, slots=True)
class SlotFill:
    """Team ``team`` takes the ``side`` slot of match ``match``."""

    match: int
    side: Side
    team: int


@dataclass(frozen=True, slots=True)
class Advancement:
    """What a result does: slots to fill, and conditional matches that will not be played."""

    fills: tuple[SlotFill, ...]
    cancelled: tuple[int, ...] = ()


def initial_fills(bracket: Bracket) -> tuple[SlotFill, ...]:
    """The slots filled before any game: seeded teams, byes already applied."""
    return tuple(
        SlotFill(match.id, side, source.team)
        for match in bracket
        for side in (Side.HOME, Side.AWAY)
        if isinstance(source := match.source(side), Seeded)
    )


def advance(bracket: Bracket, match_id: int, *, home: int, away: int, winner: int) -> Advancement:
    """The slots that match ``match_id`` fills when ``winner`` wins it.

    ``home`` and ``away`` are the teams that played it. A conditional match (the grand
    final's reset) fed by this match is played only if the away team won; otherwise it is
    returned in ``cancelled``.
    """
    match = bracket.match(match_id)
    if home == away:
        raise PairingError(
            N_("Match %(code)s needs two different teams, not team %(home)s twice."),
            code=match.code,
            home=home,
        )
    if winner not in (home, away):
        raise PairingError(
            N_("Team %(winner)s did not play match %(code)s."), winner=winner, code=match.code
        )
    loser = away if winner == home else home
    fills: list[SlotFill] = []
    cancelled: list[int] = []
    for target, team in ((match.winner_to, winner), (match.loser_to, loser)):
        if target is None:
            continue
        if bracket.match(target.match).conditional and winner == home:
            if target.match not in cancelled:
                cancelled.append(target.match)
            continue
        fills.append(SlotFill(target.match, target.side, team))
    return Advancement(fills=tuple(fills), cancelled=tuple(cancelled))


def affected_matches(bracket: Bracket, match_id: int) -> tuple[int, ...]:
    """Every later match whose teams depend on the result of ``match_id``, by id.

    Changing that result means clearing these matches' results and slots (the ones not
    filled by a seed) and advancing again from the corrected result.
    """
    bracket.match(match_id)
    found: set[int] = set()
    stack = [match_id]
    while stack:
        match = bracket.match(stack.pop())
        for target in (match.winner_to, match.loser_to):
            if target is not None and target.match not in found:
                found.add(target.match)
                stack.append(target.match)
    return tuple(sorted(found))
