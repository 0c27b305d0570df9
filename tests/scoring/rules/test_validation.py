"""Refused hands: each check, its code, its field and the sentence a person reads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring.rules import (
    MESSAGES,
    Contract,
    EndReason,
    HandEntry,
    HandKind,
    HandRefused,
    KaiserBid,
    MisdealReason,
    NoTrump,
    Refusal,
    RuleSet,
    Suit,
    apply_hand,
    preset,
    validate_hand,
)
from scoring.rules.refusals import TEAM_NAMES
from tests.scoring.rules.builders import EW, NS, E, N, S, W, misdeal, played, state_at

STANDARD = preset("standard")
CLUB = preset("club")
TOURNAMENT = preset("tournament")
SASKATCHEWAN = preset("saskatchewan")
LES_ROIS = preset("les_rois")
KAISER = STANDARD.with_changes(kaiser_bid=KaiserBid.BIDDER_ALONE)

# (rules, entry, code, field, message); every game is at 0-0 with North dealing.
REFUSALS = [
    (
        TOURNAMENT,
        misdeal(MisdealReason.FOUR_OF_A_KIND),
        "misdeal_not_allowed",
        "kind",
        "This game has no misdeals (tournament rules): every hand is played, "
        "so enter the bid and the tricks.",
    ),
    (
        STANDARD,
        misdeal(None),
        "misdeal_reason_required",
        "misdeal_reason",
        "Enter why the hand was thrown in.",
    ),
    (
        STANDARD,
        misdeal(MisdealReason.ALL_PASS),
        "misdeal_reason_not_allowed",
        "misdeal_reason",
        "This game does not allow a misdeal for everyone passing.",
    ),
    (
        CLUB,
        misdeal(MisdealReason.NO_HONOURS),
        "misdeal_reason_not_allowed",
        "misdeal_reason",
        "This game does not allow a misdeal for a hand with no ace, no face card, no 5♥ and no 3♠.",
    ),
    (
        STANDARD,
        replace(played(), misdeal_reason=MisdealReason.NO_HONOURS),
        "misdeal_reason_on_played_hand",
        "misdeal_reason",
        "A played hand has no misdeal reason; leave the reason empty or record a misdeal.",
    ),
    (
        STANDARD,
        replace(played(), bidder=None),
        "bidder_required",
        "bidder",
        "Enter who won the bidding.",
    ),
    (STANDARD, replace(played(), bid=None), "bid_required", "bid", "Enter the bid."),
    (
        TOURNAMENT,
        played(bid=4),
        "bid_below_minimum",
        "bid",
        "Bid 4 is below this game's minimum of 7.",
    ),
    (
        STANDARD,
        played(bid=13),
        "bid_above_maximum",
        "bid",
        "Bid 13 is above this game's maximum of 12.",
    ),
    (
        STANDARD,
        played(N, 12, 7, NS, EW, contract=Contract.KAISER, bidder_tricks=7),
        "kaiser_bid_not_allowed",
        "contract",
        "This game does not allow a Kaiser bid.",
    ),
    (
        KAISER,
        played(N, 11, 7, NS, EW, contract=Contract.KAISER, bidder_tricks=7),
        "kaiser_bid_must_be_12",
        "bid",
        "A Kaiser bid is a bid of 12, not 11.",
    ),
    (
        LES_ROIS,
        played(contract=Contract.NO_TRUMP),
        "no_trump_not_allowed",
        "contract",
        "This game has no no-trump bids: choose a trump suit.",
    ),
    (
        STANDARD,
        played(contract=Contract.LOW_NO_TRUMP),
        "low_no_trump_not_allowed",
        "contract",
        "This game has no low no-trump bids.",
    ),
    (
        LES_ROIS,
        played(bid=5, contract=Contract.LOW_NO_TRUMP),
        "low_no_trump_not_allowed",
        "contract",
        "This game has no low no-trump bids.",
    ),
    (
        STANDARD,
        replace(played(), trump=None),
        "trump_required",
        "trump",
        "Choose the trump suit for a bid in a suit.",
    ),
    (
        STANDARD,
        played(contract=Contract.NO_TRUMP, trump=Suit.HEARTS),
        "trump_not_allowed",
        "trump",
        "A no-trump bid has no trump suit: leave the trump suit empty.",
    ),
    (
        TOURNAMENT,
        played(E, 7, forced=True),
        "forced_not_dealer",
        "forced",
        "A forced bid is the dealer's: North deals this hand, not East.",
    ),
    (
        TOURNAMENT,
        played(N, 8, forced=True),
        "forced_not_minimum",
        "bid",
        "A forced bid is exactly the minimum of 7, not 8.",
    ),
    (
        CLUB,
        played(N, 5, forced=True),
        "forced_not_allowed",
        "forced",
        "In this game the dealer may pass too and the hand is a misdeal, "
        "so there are no forced bids: record a misdeal instead.",
    ),
    (
        STANDARD,
        played(tricks=None),  # type: ignore[arg-type]
        "tricks_required",
        "bidding_team_tricks",
        "Enter how many tricks the bidding team took.",
    ),
    (
        STANDARD,
        played(tricks=9),
        "tricks_out_of_range",
        "bidding_team_tricks",
        "The bidding team took 9 tricks? A team takes 0 to 8.",
    ),
    (
        STANDARD,
        played(tricks=-1),
        "tricks_out_of_range",
        "bidding_team_tricks",
        "The bidding team took -1 tricks? A team takes 0 to 8.",
    ),
    (
        STANDARD,
        played(five=None),
        "card_holder_required",
        "five_hearts",
        "Enter which team took the 5♥.",
    ),
    (
        STANDARD,
        played(three=None),
        "card_holder_required",
        "three_spades",
        "Enter which team took the 3♠.",
    ),
    (
        LES_ROIS,
        played(bid=5, three=None),
        "card_holder_required",
        "three_spades",
        "Enter which team took the K♠.",
    ),
    (
        preset("joffre"),
        played(bid=5, five=None),
        "card_holder_required",
        "five_hearts",
        "Enter which team took the Joffre.",
    ),
    (
        STANDARD,
        played(tricks=0, five=NS, three=EW),
        "card_without_tricks",
        "five_hearts",
        "North–South took no tricks, so it cannot have taken the 5♥: "
        "East–West took all eight tricks and both cards.",
    ),
    (
        STANDARD,
        played(tricks=8, five=NS, three=EW),
        "card_without_tricks",
        "three_spades",
        "East–West took no tricks, so it cannot have taken the 3♠: "
        "North–South took all eight tricks and both cards.",
    ),
    (
        STANDARD,
        played(E, tricks=8, five=NS, three=EW),
        "card_without_tricks",
        "five_hearts",
        "North–South took no tricks, so it cannot have taken the 5♥: "
        "East–West took all eight tricks and both cards.",
    ),
    (
        KAISER,
        played(N, 12, 7, NS, EW, contract=Contract.KAISER),
        "bidder_tricks_required",
        "bidder_tricks",
        "Enter how many tricks the Kaiser bidder took alone.",
    ),
    (
        STANDARD.with_changes(kaiser_bid=KaiserBid.KAISER_40),
        played(N, 12, 7, NS, EW, contract=Contract.KAISER),
        "bidder_tricks_required",
        "bidder_tricks",
        "Enter how many tricks the Kaiser bidder took alone.",
    ),
    (
        KAISER,
        played(N, 12, 6, NS, EW, contract=Contract.KAISER, bidder_tricks=7),
        "bidder_tricks_out_of_range",
        "bidder_tricks",
        "The bidder took 7 tricks alone? The team took 6, so the bidder took 0 to 6.",
    ),
    (
        STANDARD,
        played(bidder_tricks=3),
        "bidder_tricks_not_allowed",
        "bidder_tricks",
        "Tricks taken by the bidder alone are entered only for a Kaiser bid: leave them empty.",
    ),
]


@pytest.mark.parametrize(("rules", "entry", "code", "field", "message"), REFUSALS)
def test_refusal(rules: RuleSet, entry: HandEntry, code: str, field: str, message: str) -> None:
    state = state_at(rules, 0, 0, dealer=N)
    (refusal,) = validate_hand(rules, state, entry)
    assert (refusal.code, refusal.field) == (code, field)
    assert refusal.message == message
    with pytest.raises(HandRefused) as caught:
        apply_hand(state, entry)
    assert caught.value.refusals == (refusal,)
    assert str(caught.value) == refusal.message


# Entries every rule set of the row takes (no refusal at all).
ACCEPTED = [
    (TOURNAMENT, played(N, 7, forced=True), "club sheet: if all pass the dealer must play for 7"),
    (
        LES_ROIS,
        played(N, 4, forced=True),
        "pagat, Les Rois: if the first three pass, dealer bids 4",
    ),
    (STANDARD, played(N, 6, forced=True), "pagat: the dealer is forced to bid the minimum"),
    (
        STANDARD,
        played(N, 6, contract=Contract.NO_TRUMP, forced=True),
        'docs/rules.md, "The game in brief": a forced bid may be in no-trump',
    ),
    (SASKATCHEWAN, played(S, 7, contract=Contract.LOW_NO_TRUMP), "pagat: low no-trump bids"),
    (
        STANDARD,
        played(tricks=8, five=NS, three=NS),
        'docs/rules.md, "Recording a hand": a team with 8 holds both',
    ),
    (
        STANDARD,
        played(tricks=0, five=EW, three=EW),
        'docs/rules.md, "Recording a hand": a team with 0 holds neither',
    ),
    (STANDARD, misdeal(MisdealReason.NO_HONOURS), "pagat: no ace, no face, no 5 and no 3"),
    (CLUB, misdeal(MisdealReason.NO_FACE_CARD), "club sheet: not at least one face card"),
    (CLUB, misdeal(MisdealReason.FOUR_OF_A_KIND), "club sheet: 4 eights, 4 nines or 4 tens"),
    (CLUB, misdeal(MisdealReason.ALL_PASS), "club sheet: all four pass, a misdeal"),
    (
        CLUB,
        replace(misdeal(MisdealReason.ALL_PASS), bidder=W, bid=3),
        "decision: a misdeal's other fields are ignored",
    ),
    (STANDARD, played(W, 12, 7, EW, NS), "pagat: the maximum bid is 12"),
    (STANDARD, played(W, 12, 7, EW, NS, contract=Contract.NO_TRUMP), "pagat: 12 no"),
    (
        KAISER,
        played(N, 12, 7, NS, EW, contract=Contract.KAISER, bidder_tricks=7),
        "pagat: a Kaiser bid",
    ),
    (
        STANDARD.with_changes(kaiser_bid=KaiserBid.TEAM),
        played(N, 12, 7, NS, EW, contract=Contract.KAISER),
        "decision: the team Kaiser bid needs no bidder-alone tricks",
    ),
]


@pytest.mark.parametrize(("rules", "entry", "source"), ACCEPTED)
def test_accepted(rules: RuleSet, entry: HandEntry, source: str) -> None:
    assert validate_hand(rules, state_at(rules, 0, 0, dealer=N), entry) == [], source


def test_every_problem_is_listed() -> None:
    entry = HandEntry(
        kind=HandKind.PLAYED,
        bidder=E,
        bid=4,
        contract=Contract.LOW_NO_TRUMP,
        trump=Suit.CLUBS,
        forced=True,
        bidding_team_tricks=0,
        five_hearts=EW,
        three_spades=None,
        bidder_tricks=3,
    )
    refusals = validate_hand(CLUB, state_at(CLUB, 0, 0, dealer=N), entry)
    assert [(r.code, r.field) for r in refusals] == [
        ("bid_below_minimum", "bid"),
        ("low_no_trump_not_allowed", "contract"),
        ("trump_not_allowed", "trump"),
        ("forced_not_allowed", "forced"),
        ("forced_not_dealer", "forced"),
        ("forced_not_minimum", "bid"),
        ("card_without_tricks", "five_hearts"),
        ("card_holder_required", "three_spades"),
        ("bidder_tricks_not_allowed", "bidder_tricks"),
    ]


def test_game_over_is_refused() -> None:
    state = state_at(CLUB, 48, 0)
    state = apply_hand(state, played(N, 7, 5, NS, NS))  # 48 + 7 = 55
    assert state.over and state.winner is NS and state.end_reason is EndReason.TARGET
    refusals = validate_hand(CLUB, state, played(E, 7))
    assert refusals == [Refusal("game_over", None, {"winner": TEAM_NAMES[NS], "team": "ns"})]
    assert refusals[0].message == "This game is over: North–South won."


def test_game_over_comes_first_with_the_entry_problems() -> None:
    state = apply_hand(state_at(CLUB, 48, 0), played(N, 7, 5, NS, NS))
    codes = [r.code for r in validate_hand(CLUB, state, played(E, 4))]
    assert codes == ["game_over", "bid_below_minimum"]


def test_every_message_template_formats() -> None:
    # Each template names only named %(placeholders)s; this fills each with a sample value.
    import re

    for code, template in MESSAGES.items():
        names = set(re.findall(r"%\((\w+)\)s", template))
        assert "{" not in template, code
        Refusal(code, None, dict.fromkeys(names, 1)).message  # noqa: B018


def test_no_trump_needs_the_option() -> None:
    rules = STANDARD.with_changes(no_trump=NoTrump.NONE)
    codes = [
        r.code
        for r in validate_hand(rules, state_at(rules, 0, 0), played(contract=Contract.NO_TRUMP))
    ]
    assert codes == ["no_trump_not_allowed"]
