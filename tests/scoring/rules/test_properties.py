"""Properties over many random hands and games (Hypothesis).

(a) a real 32-card deal played out by random legal play, counted here independently of the
engine, gives the engine's points (total 10); (b) replaying the same hands gives the same
game; (c) a bid-out defending team never gains unless it steals the five; (d) the deal goes
clockwise and follows the misdeal option; (e) rule sets survive the JSON round trip.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.rules import (
    PRESETS,
    BothReachTarget,
    Contract,
    HandEntry,
    HandKind,
    KaiserBid,
    MisdealReason,
    MisdealRedeal,
    NoTrump,
    RuleSet,
    Seat,
    Side,
    StealTheFive,
    Suit,
    apply_hand,
    new_game,
    preview_hand,
    replay,
)
from tests.scoring.rules.builders import state_at

PROPERTY = settings(deadline=None, max_examples=150)

# The deck, built here from docs/rules.md, "The game in brief": A K Q J 10 9 8 7 in clubs and
# diamonds, A-8 and the 5 in hearts, A-8 and the 3 in spades. Ranks: 14 = ace ... 2 = the lowest
# card.
HIGH_RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11, "10": 10, "9": 9, "8": 8, "7": 7}


@dataclass(frozen=True)
class Card:
    suit: Suit
    face: str

    def rank(self, low: bool) -> int:
        if self.face in ("5", "3"):
            return 1  # lowest, high or low (pagat: in low no-trump they rank below the ace)
        value = HIGH_RANKS[self.face]
        return 15 - value if low else value


def build_deck() -> list[Card]:
    deck = [Card(suit, face) for suit in (Suit.CLUBS, Suit.DIAMONDS) for face in HIGH_RANKS]
    for suit, extra in ((Suit.HEARTS, "5"), (Suit.SPADES, "3")):
        faces = [face for face in HIGH_RANKS if face != "7"] + [extra]
        deck.extend(Card(suit, face) for face in faces)
    return deck


FIVE_OF_HEARTS = Card(Suit.HEARTS, "5")
THREE_OF_SPADES = Card(Suit.SPADES, "3")


def test_the_deck() -> None:
    deck = build_deck()
    assert len(deck) == 32 and len(set(deck)) == 32
    assert FIVE_OF_HEARTS in deck and THREE_OF_SPADES in deck
    assert Card(Suit.HEARTS, "7") not in deck and Card(Suit.SPADES, "7") not in deck


@dataclass
class PlayedHand:
    tricks: dict[Side, int]
    five_hearts: Side
    three_spades: Side


def play_out(
    rng: random.Random, leader: Seat, contract: Contract, trump: Suit | None
) -> PlayedHand:
    """Deal the deck and play eight tricks by random legal play; count what each team took."""
    deck = build_deck()
    rng.shuffle(deck)
    hands = {seat: deck[seat.value * 8 : seat.value * 8 + 8] for seat in Seat}
    low = contract is Contract.LOW_NO_TRUMP
    tricks = {Side.NS: 0, Side.EW: 0}
    holders: dict[Card, Side] = {}
    for _ in range(8):
        played: list[tuple[Seat, Card]] = []
        seat = leader
        for _ in range(4):
            hand = hands[seat]
            led = played[0][1].suit if played else None
            legal = [card for card in hand if card.suit == led] or hand  # follow suit
            card = rng.choice(legal)
            hand.remove(card)
            played.append((seat, card))
            seat = seat.left
        led_suit = played[0][1].suit
        trumps = [pc for pc in played if trump is not None and pc[1].suit == trump]
        contenders = trumps or [pc for pc in played if pc[1].suit == led_suit]
        winner = max(contenders, key=lambda pc: pc[1].rank(low))[0]
        tricks[winner.team] += 1
        for _, card in played:
            holders[card] = winner.team
        leader = winner
    assert all(not hand for hand in hands.values())
    return PlayedHand(tricks, holders[FIVE_OF_HEARTS], holders[THREE_OF_SPADES])


CONTRACTS = st.sampled_from(
    [(Contract.TRUMP, suit) for suit in Suit]
    + [(Contract.NO_TRUMP, None), (Contract.LOW_NO_TRUMP, None)]
)
ANY_TRUMPS = RuleSet(no_trump=NoTrump.HIGH_AND_LOW)


def entry_for(bidder: Seat, contract: Contract, trump: Suit | None, deal: PlayedHand) -> HandEntry:
    return HandEntry(
        bidder=bidder,
        bid=7,
        contract=contract,
        trump=trump,
        bidding_team_tricks=deal.tricks[bidder.team],
        five_hearts=deal.five_hearts,
        three_spades=deal.three_spades,
    )


@PROPERTY
@given(rng=st.randoms(use_true_random=False), bidder=st.sampled_from(Seat), contract=CONTRACTS)
def test_points_of_a_real_deal(
    rng: random.Random, bidder: Seat, contract: tuple[Contract, Suit | None]
) -> None:
    deal = play_out(rng, bidder, *contract)
    assert deal.tricks[Side.NS] + deal.tricks[Side.EW] == 8
    result = preview_hand(new_game(ANY_TRUMPS, Seat.NORTH), entry_for(bidder, *contract, deal))
    for team in Side:
        expected = deal.tricks[team]
        expected += 5 if deal.five_hearts is team else 0
        expected -= 3 if deal.three_spades is team else 0
        assert result.points[team] == expected
    assert result.points.ns + result.points.ew == 10  # 8 tricks + 5 - 3


@PROPERTY
@given(rng=st.randoms(use_true_random=False), bidder=st.sampled_from(Seat), contract=CONTRACTS)
def test_points_of_a_real_deal_three_spades_option(
    rng: random.Random, bidder: Seat, contract: tuple[Contract, Suit | None]
) -> None:
    # pagat's variant: the team with the 3♠ and fewer than three tricks scores -3.
    rules = ANY_TRUMPS.with_changes(three_spades_needs_three_tricks=True)
    deal = play_out(rng, bidder, *contract)
    result = preview_hand(new_game(rules, Seat.NORTH), entry_for(bidder, *contract, deal))
    for team in Side:
        tricks = deal.tricks[team]
        if deal.three_spades is team and tricks < 3:
            assert result.points[team] == -3
        else:
            expected = tricks + (5 if deal.five_hearts is team else 0)
            expected -= 3 if deal.three_spades is team else 0
            assert result.points[team] == expected
    short = deal.tricks[deal.three_spades] < 3
    assert (result.points.ns + result.points.ew == 10) is not short


# Random valid entries for a rule set.


@st.composite
def entries(draw: st.DrawFn, rules: RuleSet) -> HandEntry:
    if rules.misdeals and draw(st.integers(0, 5)) == 0:
        reason = draw(st.sampled_from(sorted(rules.misdeals)))
        return HandEntry(kind=HandKind.MISDEAL, misdeal_reason=reason)
    contracts = [Contract.TRUMP]
    if rules.no_trump is not NoTrump.NONE:
        contracts.append(Contract.NO_TRUMP)
    if rules.no_trump is NoTrump.HIGH_AND_LOW:
        contracts.append(Contract.LOW_NO_TRUMP)
    if rules.kaiser_bid is not KaiserBid.OFF:
        contracts.append(Contract.KAISER)
    contract = draw(st.sampled_from(contracts))
    bidder = draw(st.sampled_from(Seat))
    tricks = draw(st.integers(0, 8))
    bidders = bidder.team

    def holder() -> Side:
        if tricks == 0:
            return bidders.other
        if tricks == 8:
            return bidders
        return draw(st.sampled_from(Side))

    return HandEntry(
        bidder=bidder,
        bid=12 if contract is Contract.KAISER else draw(st.integers(rules.min_bid, 12)),
        contract=contract,
        trump=draw(st.sampled_from(Suit)) if contract is Contract.TRUMP else None,
        bidding_team_tricks=tricks,
        five_hearts=holder(),
        three_spades=holder(),
        bidder_tricks=draw(st.integers(0, tricks)) if contract is Contract.KAISER else None,
    )


def rules_with_options() -> st.SearchStrategy[RuleSet]:
    return st.builds(
        lambda base, steal, kaiser, both, three: base.with_changes(
            steal_the_five=steal if base.bid_out_line is not None else StealTheFive.OFF,
            kaiser_bid=kaiser,
            both_reach_target=both,
            three_spades_needs_three_tricks=three,
        ),
        st.sampled_from(list(PRESETS.values())),
        st.sampled_from(StealTheFive),
        st.sampled_from(KaiserBid),
        st.sampled_from(BothReachTarget),
        st.booleans(),
    )


@PROPERTY
@given(data=st.data(), rules=rules_with_options(), first=st.sampled_from(Seat))
def test_replay_is_deterministic(data: st.DataObject, rules: RuleSet, first: Seat) -> None:
    played: list[HandEntry] = []
    state = new_game(rules, first)
    for _ in range(data.draw(st.integers(1, 25))):
        if state.over:
            break
        entry = data.draw(entries(rules))
        state = apply_hand(state, entry)
        played.append(entry)
    assert replay(rules, first, played) == state
    assert replay(rules, first, played) == replay(rules, first, list(played))
    assert [hand.number for hand in state.hands] == list(range(1, len(played) + 1))
    running = (0, 0)
    for hand in state.hands:
        running = (running[0] + hand.changes.ns, running[1] + hand.changes.ew)
        assert (hand.scores.ns, hand.scores.ew) == running


@PROPERTY
@given(
    data=st.data(),
    rules=rules_with_options(),
    ns=st.integers(-40, 60),
    ew=st.integers(-40, 60),
)
def test_bid_out_defenders_never_gain(
    data: st.DataObject, rules: RuleSet, ns: int, ew: int
) -> None:
    assume(rules.bid_out_line is not None)
    state = state_at(rules, ns, ew)
    entry = data.draw(entries(rules))
    assume(entry.kind is HandKind.PLAYED and entry.bidder is not None)
    result = preview_hand(state, entry)
    assert entry.bidder is not None
    defenders = entry.bidder.team.other
    line = rules.bid_out_line
    assert line is not None
    bid_out = state.scores[defenders] >= line
    assert (defenders in result.bid_out) is bid_out
    stole = rules.steal_the_five is not StealTheFive.OFF and entry.five_hearts is defenders
    if bid_out and not stole:
        assert result.changes[defenders] <= 0
        assert result.changes[defenders] == min(result.points[defenders], 0)
    else:
        assert result.changes[defenders] == result.points[defenders]


@PROPERTY
@given(
    data=st.data(),
    redeal=st.sampled_from(MisdealRedeal),
    first=st.sampled_from(Seat),
)
def test_deal_rotates_clockwise(data: st.DataObject, redeal: MisdealRedeal, first: Seat) -> None:
    rules = RuleSet(
        misdeals=frozenset(MisdealReason), misdeal_redeal=redeal, target=500, bid_out_line=None
    )
    kinds = data.draw(st.lists(st.sampled_from(HandKind), min_size=1, max_size=20))
    state = new_game(rules, first)
    moves = 0  # how many times the deal has passed to the left, counted here
    for kind in kinds:
        if kind is HandKind.MISDEAL:
            entry = HandEntry(kind=kind, misdeal_reason=MisdealReason.ALL_PASS)
        else:
            entry = data.draw(entries(rules).filter(lambda e: e.kind is HandKind.PLAYED))
        assert state.dealer.value == (first.value + moves) % 4
        state = apply_hand(state, entry)
        assert state.hands[-1].dealer.value == (first.value + moves) % 4
        if kind is HandKind.PLAYED or redeal is MisdealRedeal.PASSES_ON:
            moves += 1
    assert state.dealer.value == (first.value + moves) % 4


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    target = draw(st.integers(10, 100))
    no_trump = draw(st.sampled_from(NoTrump))
    line = draw(st.none() | st.integers(1, target - 1))
    raised = None
    if no_trump is not NoTrump.NONE:
        raised = draw(st.none() | st.integers(target + 1, target + 30))
    raised_line = None
    if raised is not None and line is not None:
        raised_line = draw(st.none() | st.integers(line + 1, raised - 1))
    min_bid = draw(st.integers(1, 12))
    return RuleSet(
        name=draw(st.text(max_size=10)),
        title=draw(st.text(max_size=20)),
        min_bid=min_bid,
        max_bid=draw(st.integers(min_bid, 12)),
        no_trump=no_trump,
        target=target,
        raised_target=raised,
        bid_out_line=line,
        raised_bid_out_line=raised_line,
        steal_the_five=draw(st.sampled_from(StealTheFive))
        if line is not None
        else StealTheFive.OFF,
        minus_line_loses=draw(st.booleans()),
        bid_to_win=draw(st.booleans()),
        no_overtricks=draw(st.booleans()),
        kaiser_bid=draw(st.sampled_from(KaiserBid)),
        three_spades_needs_three_tricks=draw(st.booleans()),
        misdeals=draw(st.frozensets(st.sampled_from(MisdealReason))),
        misdeal_redeal=draw(st.sampled_from(MisdealRedeal)),
        both_reach_target=draw(st.sampled_from(BothReachTarget)),
        time_limit_minutes=draw(st.none() | st.integers(1, 240)),
        five_bonus=draw(st.integers(0, 10)),
        three_penalty=draw(st.integers(0, 10)),
        good_card=draw(st.text(min_size=1, max_size=8)),
        bad_card=draw(st.text(min_size=1, max_size=8)),
    )


@PROPERTY
@given(rules=rule_sets() | st.sampled_from(list(PRESETS.values())))
def test_rule_set_round_trip(rules: RuleSet) -> None:
    assert rules.problems() == []
    data = json.loads(json.dumps(rules.to_dict()))
    assert RuleSet.from_dict(data) == rules
    assert rules.with_changes() == rules
