"""Between rows and the rules engine's plain objects: what a Hand row says as a HandEntry, and
what a rules result writes back onto rows."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from .choices import GameStatus
from .models import Game, Hand
from .rules import (
    Contract,
    EndReason,
    GameState,
    HandEntry,
    HandKind,
    HandResult,
    MisdealReason,
    PerTeam,
    RuleSet,
    Seat,
    Side,
    Suit,
    resume,
)


def _team(value: str) -> Side | None:
    return Side(value) if value else None


def hand_to_entry(hand: Hand) -> HandEntry:
    return HandEntry(
        kind=HandKind(hand.kind),
        bidder=Seat(hand.bidder) if hand.bidder is not None else None,
        bid=hand.bid,
        contract=Contract(hand.contract),
        trump=Suit(hand.trump) if hand.trump else None,
        forced=hand.forced,
        bidding_team_tricks=hand.bidding_team_tricks,
        five_hearts=_team(hand.five_hearts),
        three_spades=_team(hand.three_spades),
        bidder_tricks=hand.bidder_tricks,
        misdeal_reason=MisdealReason(hand.misdeal_reason) if hand.misdeal_reason else None,
        completed_at=hand.completed_at,
    )


def entry_fields(entry: HandEntry) -> dict[str, Any]:
    """The columns of a Hand row that hold what the scorekeeper entered."""
    return {
        "kind": entry.kind.value,
        "bidder": int(entry.bidder) if entry.bidder is not None else None,
        "bid": entry.bid,
        "contract": entry.contract.value,
        "trump": entry.trump.value if entry.trump else "",
        "forced": entry.forced,
        "bidding_team_tricks": entry.bidding_team_tricks,
        "five_hearts": entry.five_hearts.value if entry.five_hearts else "",
        "three_spades": entry.three_spades.value if entry.three_spades else "",
        "bidder_tricks": entry.bidder_tricks,
        "misdeal_reason": entry.misdeal_reason.value if entry.misdeal_reason else "",
        "completed_at": entry.completed_at,
    }


def entry_as_json(entry: HandEntry) -> dict[str, Any]:
    fields = entry_fields(entry)
    fields["completed_at"] = entry.completed_at.isoformat() if entry.completed_at else None
    return fields


def result_fields(result: HandResult) -> dict[str, Any]:
    """The derived columns of a Hand row."""
    return {
        "number": result.number,
        "dealer": int(result.dealer),
        "ns_points": result.points.ns,
        "ew_points": result.points.ew,
        "made": result.made,
        "ns_change": result.changes.ns,
        "ew_change": result.changes.ew,
        "ns_score": result.scores.ns,
        "ew_score": result.scores.ew,
        "after_time": result.after_time,
    }


DERIVED_HAND_FIELDS = [
    "dealer",
    "ns_points",
    "ew_points",
    "made",
    "ns_change",
    "ew_change",
    "ns_score",
    "ew_score",
    "after_time",
]


def state_fields(state: GameState) -> dict[str, Any]:
    """The derived columns of a Game row."""
    return {
        "ns_score": state.scores.ns,
        "ew_score": state.scores.ew,
        "dealer": int(state.dealer),
        "target": state.target,
        "bid_out_line": state.bid_out_line,
        "ns_bid_out": Side.NS in state.bid_out,
        "ew_bid_out": Side.EW in state.bid_out,
        "hand_count": state.hand_count,
        "kept_after_time": state.any_after_time,
        "kept_played_after_time": state.played_after_time,
        "status": GameStatus.FINISHED if state.over else GameStatus.IN_PROGRESS,
        "winner": state.winner.value if state.winner else "",
        "end_reason": state.end_reason.value if state.end_reason else "",
    }


def game_rules(game: Game) -> RuleSet:
    """The game's rule set. Its row stores the same few sets again and again (an event's games
    share one): each is read once per process and the (frozen) RuleSet shared, as reading and
    checking twenty options at every hand cost more than applying the hand."""
    key = _stored_key(game.rules)
    found = _READ_RULES.get(key)
    if found is None:
        found = RuleSet.from_dict(game.rules)  # a set that does not read raises, uncached
        if len(_READ_RULES) >= _READ_RULES_KEPT:
            _READ_RULES.clear()
        _READ_RULES[key] = found
    return found


_READ_RULES: dict[Hashable, RuleSet] = {}
_READ_RULES_KEPT = 256


def _stored_key(value: Any) -> Hashable:
    """The stored JSON as a key that tells apart what reads differently (True from 1, a list
    from a text)."""
    if isinstance(value, dict):
        return (dict, tuple((name, _stored_key(item)) for name, item in value.items()))
    if isinstance(value, list):
        return (list, tuple(_stored_key(item) for item in value))
    return (type(value), value)


def kept_state(game: Game) -> GameState:
    """The game as its row keeps it: what the next hand needs, without reading a hand
    (``scoring.rules.resume``). The full replay (``services.state.current_state``) stays the
    judge; tests hold the two equal."""
    return resume(
        game_rules(game),
        Seat(game.first_dealer),
        hand_count=game.hand_count,
        scores=PerTeam(game.ns_score, game.ew_score),
        dealer=Seat(game.dealer),
        target=game.target,
        bid_out_line=game.bid_out_line,
        over=game.status == GameStatus.FINISHED,
        winner=_team(game.winner),
        end_reason=EndReason(game.end_reason) if game.end_reason else None,
        time_called_at=game.time_called_at,
        after_time=game.kept_after_time,
        played_after_time=game.kept_played_after_time,
    )
