"""Checking a hand before it is scored: every problem, each as a :class:`Refusal`.

Field names are ``HandEntry`` attribute names; ``None`` is the game as a whole.

Decisions where the sources are silent (docs/rules.md, "Decisions where the sources
disagree", explains those a player sees):

- For a misdeal only ``kind`` and ``misdeal_reason`` are read; the other fields are ignored.
- A played hand with a misdeal reason is refused (the entry is ambiguous).
- The tricks the bidder took alone are required for the Kaiser bids that depend on them
  (bidder alone, Kaiser 40) and accepted, but not required, for the team variant.
- When the game is over, the game-level refusal comes first and the entry's own problems
  follow, so that one answer lists everything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.rules.refusals import (
    CONTRACT_NAMES,
    MISDEAL_REASON_NAMES,
    SEAT_NAMES,
    TEAM_NAMES,
    Refusal,
)
from scoring.rules.ruleset import KaiserBid, NoTrump, RuleSet
from scoring.rules.types import Contract, EndReason, HandEntry, HandKind, Seat, Side

if TYPE_CHECKING:
    from scoring.rules.game import GameState

TRICKS = range(9)


def validate_hand(rules: RuleSet, state: GameState, entry: HandEntry) -> list[Refusal]:
    """Every reason why ``entry`` cannot be the next hand of ``state`` (empty: it can)."""
    found = game_refusals(state)
    if entry.kind is HandKind.MISDEAL:
        found.extend(_misdeal_problems(rules, entry))
    else:
        found.extend(_played_problems(rules, state.dealer, entry))
    return found


def game_refusals(state: GameState) -> list[Refusal]:
    """Why the game takes no more hands: it is over (on time or otherwise); else empty."""
    if not state.over or state.winner is None:
        return []
    code = "time_over" if state.end_reason is EndReason.TIME else "game_over"
    params = {"winner": TEAM_NAMES[state.winner], "team": state.winner.value}
    return [Refusal(code, None, params)]


def _misdeal_problems(rules: RuleSet, entry: HandEntry) -> list[Refusal]:
    if not rules.misdeals:
        return [Refusal("misdeal_not_allowed", "kind", {})]
    reason = entry.misdeal_reason
    if reason is None:
        return [Refusal("misdeal_reason_required", "misdeal_reason", {})]
    if reason not in rules.misdeals:
        return [
            Refusal(
                "misdeal_reason_not_allowed",
                "misdeal_reason",
                {"reason": MISDEAL_REASON_NAMES[reason]},
            )
        ]
    return []


def _played_problems(rules: RuleSet, dealer: Seat, entry: HandEntry) -> list[Refusal]:
    found: list[Refusal] = []
    if entry.misdeal_reason is not None:
        found.append(Refusal("misdeal_reason_on_played_hand", "misdeal_reason", {}))
    if entry.bidder is None:
        found.append(Refusal("bidder_required", "bidder", {}))
    found.extend(_bid_problems(rules, entry))
    found.extend(_contract_problems(rules, entry))
    if entry.forced:
        found.extend(_forced_problems(rules, dealer, entry))
    found.extend(_trick_problems(rules, entry))
    return found


def _bid_problems(rules: RuleSet, entry: HandEntry) -> list[Refusal]:
    bid = entry.bid
    if bid is None:
        return [Refusal("bid_required", "bid", {})]
    if entry.contract is Contract.KAISER:
        if bid != 12:
            return [Refusal("kaiser_bid_must_be_12", "bid", {"bid": bid})]
        return []
    if bid < rules.min_bid:
        return [Refusal("bid_below_minimum", "bid", {"bid": bid, "minimum": rules.min_bid})]
    if bid > rules.max_bid:
        return [Refusal("bid_above_maximum", "bid", {"bid": bid, "maximum": rules.max_bid})]
    return []


def _contract_problems(rules: RuleSet, entry: HandEntry) -> list[Refusal]:
    found: list[Refusal] = []
    contract = entry.contract
    if contract is Contract.KAISER and rules.kaiser_bid is KaiserBid.OFF:
        found.append(Refusal("kaiser_bid_not_allowed", "contract", {}))
    elif contract is Contract.NO_TRUMP and rules.no_trump is NoTrump.NONE:
        found.append(Refusal("no_trump_not_allowed", "contract", {}))
    elif contract is Contract.LOW_NO_TRUMP and rules.no_trump is not NoTrump.HIGH_AND_LOW:
        found.append(Refusal("low_no_trump_not_allowed", "contract", {}))
    if contract is Contract.TRUMP and entry.trump is None:
        found.append(Refusal("trump_required", "trump", {}))
    elif contract is not Contract.TRUMP and entry.trump is not None:
        found.append(
            Refusal(
                "trump_not_allowed",
                "trump",
                {"contract": CONTRACT_NAMES[contract], "trump": entry.trump.value},
            )
        )
    return found


def _forced_problems(rules: RuleSet, dealer: Seat, entry: HandEntry) -> list[Refusal]:
    found: list[Refusal] = []
    if rules.pass_out_is_misdeal:
        found.append(Refusal("forced_not_allowed", "forced", {}))
    if entry.bidder is not None and entry.bidder is not dealer:
        found.append(
            Refusal(
                "forced_not_dealer",
                "forced",
                {"dealer": SEAT_NAMES[dealer], "bidder": SEAT_NAMES[entry.bidder]},
            )
        )
    if entry.bid is not None and entry.bid != rules.min_bid:
        found.append(
            Refusal("forced_not_minimum", "bid", {"bid": entry.bid, "minimum": rules.min_bid})
        )
    return found


def _trick_problems(rules: RuleSet, entry: HandEntry) -> list[Refusal]:
    found: list[Refusal] = []
    tricks = entry.bidding_team_tricks
    if tricks is None:
        found.append(Refusal("tricks_required", "bidding_team_tricks", {}))
    elif tricks not in TRICKS:
        found.append(Refusal("tricks_out_of_range", "bidding_team_tricks", {"tricks": tricks}))
        tricks = None
    cards = (
        ("five_hearts", entry.five_hearts, rules.good_card),
        ("three_spades", entry.three_spades, rules.bad_card),
    )
    for name, holder, card in cards:
        if holder is None:
            found.append(Refusal("card_holder_required", name, {"card": card}))
        elif tricks is not None and entry.bidder is not None:
            found.extend(_holder_problems(name, holder, card, entry.bidder.team, tricks))
    found.extend(_bidder_tricks_problems(rules, entry, tricks))
    return found


def _holder_problems(
    name: str, holder: Side, card: str, bidders: Side, tricks: int
) -> list[Refusal]:
    """A team with no tricks holds neither card (so a team with all eight holds both)."""
    holder_tricks = tricks if holder is bidders else 8 - tricks
    if holder_tricks == 0:
        params = {"team": TEAM_NAMES[holder], "other": TEAM_NAMES[holder.other], "card": card}
        return [Refusal("card_without_tricks", name, params)]
    return []


def _bidder_tricks_problems(rules: RuleSet, entry: HandEntry, tricks: int | None) -> list[Refusal]:
    alone = entry.bidder_tricks
    if entry.contract is not Contract.KAISER:
        if alone is not None:
            return [Refusal("bidder_tricks_not_allowed", "bidder_tricks", {})]
        return []
    if alone is None:
        if rules.kaiser_bid in (KaiserBid.BIDDER_ALONE, KaiserBid.KAISER_40):
            return [Refusal("bidder_tricks_required", "bidder_tricks", {})]
        return []
    if tricks is not None and not 0 <= alone <= tricks:
        return [
            Refusal(
                "bidder_tricks_out_of_range",
                "bidder_tricks",
                {"bidder_tricks": alone, "tricks": tricks},
            )
        ]
    return []
