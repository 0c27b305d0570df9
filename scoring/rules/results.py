"""What the engine computes for one hand: plain, immutable values."""

from __future__ import annotations

from dataclasses import dataclass

from scoring.rules.types import EndReason, HandEntry, Seat, Side

Ending = tuple[Side, EndReason]  # who won a game, and why


@dataclass(frozen=True)
class PerTeam:
    """One number for each team."""

    ns: int = 0
    ew: int = 0

    def __getitem__(self, team: Side) -> int:
        return self.ns if team is Side.NS else self.ew

    def with_(self, team: Side, value: int) -> PerTeam:
        return PerTeam(value, self.ew) if team is Side.NS else PerTeam(self.ns, value)

    def __add__(self, other: PerTeam) -> PerTeam:
        return PerTeam(self.ns + other.ns, self.ew + other.ew)


@dataclass(frozen=True)
class HandResult:
    """One hand as scored.

    ``points``: the card points each team took (tricks, the good and bad cards, the
    three-of-spades option applied); ``changes``: what was added to each score;
    ``scores``: the running scores after the hand; ``bid_out``: the defending team when it
    was bid out during this hand (empty otherwise); ``target``: the target after this hand;
    ``after_time``: the hand was completed after time was called (the hand in play, or a
    hand played to break a tie).
    """

    number: int
    dealer: Seat
    entry: HandEntry
    bidding_team: Side | None
    points: PerTeam
    made: bool | None
    changes: PerTeam
    scores: PerTeam
    bid_out: frozenset[Side]
    target: int
    after_time: bool = False
