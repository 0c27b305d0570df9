"""Small builders for the rules tests: entries and game states at given scores."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from scoring.rules import (
    Contract,
    GameState,
    HandEntry,
    HandKind,
    MisdealReason,
    PerTeam,
    RuleSet,
    Seat,
    Side,
    Suit,
    new_game,
)

NS, EW = Side.NS, Side.EW
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def played(
    bidder: Seat = N,
    bid: int = 7,
    tricks: int = 5,
    five: Side | None = NS,
    three: Side | None = EW,
    *,
    contract: Contract = Contract.TRUMP,
    trump: Suit | None = None,
    forced: bool = False,
    bidder_tricks: int | None = None,
    completed_at: datetime | None = None,
) -> HandEntry:
    """A played hand; a bid in a suit gets spades as trumps unless told otherwise."""
    if contract is Contract.TRUMP and trump is None:
        trump = Suit.SPADES
    return HandEntry(
        kind=HandKind.PLAYED,
        bidder=bidder,
        bid=bid,
        contract=contract,
        trump=trump,
        forced=forced,
        bidding_team_tricks=tricks,
        five_hearts=five,
        three_spades=three,
        bidder_tricks=bidder_tricks,
        completed_at=completed_at,
    )


def no_trump(bidder: Seat, bid: int, tricks: int, five: Side, three: Side) -> HandEntry:
    return played(bidder, bid, tricks, five, three, contract=Contract.NO_TRUMP)


def misdeal(
    reason: MisdealReason | None = MisdealReason.NO_HONOURS,
    completed_at: datetime | None = None,
) -> HandEntry:
    return HandEntry(kind=HandKind.MISDEAL, misdeal_reason=reason, completed_at=completed_at)


def state_at(rules: RuleSet, ns: int, ew: int, dealer: Seat = N) -> GameState:
    """A game of ``rules`` where the scores stand at ``ns`` and ``ew`` (as if from paper)."""
    scores = PerTeam(ns, ew)
    line = rules.bid_out_line
    bid_out = frozenset(t for t in Side if line is not None and scores[t] >= line)
    return replace(new_game(rules, dealer), scores=scores, bid_out=bid_out)
