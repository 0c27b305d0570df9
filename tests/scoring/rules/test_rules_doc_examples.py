"""Every figure of docs/rules.md's worked examples ("Worked examples"), checked against the
rules engine: the document a player reads and the engine that scores cannot drift apart.
The values are the document's own literals."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

import pytest

from scoring.rules import (
    Contract,
    EndReason,
    HandEntry,
    HandKind,
    HandRefused,
    MisdealReason,
    PerTeam,
    Seat,
    Side,
    Suit,
    apply_hand,
    call_time,
    new_game,
    preset,
    replay,
)

NS, EW = Side.NS, Side.EW
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def hand(
    bidder,
    bid,
    tricks,
    five,
    three,
    contract=Contract.TRUMP,
    trump=Suit.SPADES,
    forced=False,
    bidder_tricks=None,
    at=None,
):
    if contract is not Contract.TRUMP:
        trump = None
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
        completed_at=at,
    )


def at(rules, ns, ew, dealer=N):
    scores = PerTeam(ns, ew)
    line = rules.bid_out_line
    bid_out = frozenset(t for t in Side if line is not None and scores[t] >= line)
    return replace(new_game(rules, dealer), scores=scores, bid_out=bid_out)


def show(title, state):
    """The state after the example's hand (``title`` names the example where it fails)."""
    assert state.hands, title
    return state


def check(state, scores, over=False, winner=None, reason=None, target=None, line=None):
    assert state.scores == PerTeam(*scores), (state.scores, scores)
    assert (state.over, state.winner, state.end_reason) == (over, winner, reason), state
    if target is not None:
        assert state.target == target, state.target
    if line is not None:
        assert state.bid_out_line == line, state.bid_out_line


def test_every_worked_example_in_the_rules_reference() -> None:
    STANDARD = preset("standard")
    CLUB = preset("club")
    TOURNAMENT = preset("tournament")
    SASK = preset("saskatchewan")
    ROIS = preset("les_rois")

    # Example 1, made bid (standard): NS 12, EW 9; North 7 hearts; NS 6 tricks + 5♥; EW 2 + 3♠.
    s = show("1 made", apply_hand(at(STANDARD, 12, 9), hand(N, 7, 6, NS, EW, trump=Suit.HEARTS)))
    assert s.hands[-1].points == PerTeam(11, -1)
    check(s, (23, 8))

    # Example 2, failed bid (standard): NS 23, EW 8; East 8 spades;
    # EW 5 tricks + 3♠ (2); NS 3 + 5♥ (8)
    s = show("2 failed", apply_hand(at(STANDARD, 23, 8, dealer=N), hand(E, 8, 5, NS, EW)))
    assert s.hands[-1].points == PerTeam(8, 2)
    check(s, (31, 0))
    s = show(
        "2 NT variant", apply_hand(at(STANDARD, 23, 8), hand(E, 8, 5, NS, EW, Contract.NO_TRUMP))
    )
    check(s, (31, -8))
    # 2b failed no-trump: NS 31, EW 0; West 8 no; EW 5 tricks + 3♠ = 2 -> -16; NS 3 + 5♥ = 8
    s = show(
        "2b failed NT", apply_hand(at(STANDARD, 31, 0), hand(W, 8, 5, NS, EW, Contract.NO_TRUMP))
    )
    check(s, (39, -16))

    # Example 3, made no-trump raising the target (saskatchewan): NS 40, EW 38
    st = at(SASK, 40, 38)
    s = show("3a NT raise", apply_hand(st, hand(N, 7, 5, NS, EW, Contract.NO_TRUMP)))
    assert s.hands[-1].points == PerTeam(10, 0)
    check(s, (60, 38), target=62, line=55)
    assert s.bid_out == frozenset({NS})
    s = show("3b", apply_hand(s, hand(E, 7, 6, EW, NS, trump=Suit.CLUBS)))
    assert s.hands[-1].points == PerTeam(-1, 11)
    check(s, (59, 49), target=62, line=55)
    s = show("3c", apply_hand(s, hand(S, 7, 5, NS, EW, trump=Suit.DIAMONDS)))
    check(s, (69, 49), True, NS, EndReason.TARGET)
    # same first hand under standard (no raise): 60 wins at once
    s = show("3 std", apply_hand(at(STANDARD, 40, 38), hand(N, 7, 5, NS, EW, Contract.NO_TRUMP)))
    check(s, (60, 38), True, NS, EndReason.TARGET, target=52)
    # the rules' own example: 40 + 7 no with 7 points (14) = 54 plays on
    s = show("3 rules", apply_hand(at(SASK, 40, 0), hand(N, 7, 5, NS, NS, Contract.NO_TRUMP)))
    check(s, (54, 3), target=62)

    # Example 4, bid-out (club sheet, line 47): NS 40, EW 47; North 7 diamonds; NS 5 tricks + both
    s = show("4a bid-out", apply_hand(at(CLUB, 40, 47), hand(N, 7, 5, NS, NS, trump=Suit.DIAMONDS)))
    assert s.hands[-1].points == PerTeam(7, 3)
    assert s.hands[-1].bid_out == frozenset({EW})
    check(s, (47, 47))
    s = show("4b", apply_hand(s, hand(E, 7, 6, EW, NS, trump=Suit.HEARTS)))
    assert s.hands[-1].points == PerTeam(-1, 11)
    check(s, (46, 58), True, EW, EndReason.TARGET)
    # standard (45): the same first hand
    s = show("4 std", apply_hand(at(STANDARD, 40, 47), hand(N, 7, 5, NS, NS)))
    check(s, (47, 47))

    # Example 5, steal the five (club sheet, scores): NS 48, EW 30; East 8 spades;
    # EW 6 tricks + 3♠ (3): failed -8; NS 2 tricks + 5♥ (7), bid out but stole it: +7 -> 55 wins
    s = show("5a steal", apply_hand(at(CLUB, 48, 30), hand(E, 8, 6, NS, EW)))
    assert s.hands[-1].points == PerTeam(7, 3)
    check(s, (55, 22), True, NS, EndReason.TARGET)
    s = show("5a std", apply_hand(at(STANDARD, 48, 30), hand(E, 8, 6, NS, EW)))
    check(s, (48, 22))
    # 5b: NS 47, EW 30; East 7; EW 7 tricks (7) made; NS 1 trick with both cards (3)
    s = show("5b scores", apply_hand(at(CLUB, 47, 30), hand(E, 7, 7, NS, NS)))
    assert s.hands[-1].points == PerTeam(3, 7)
    check(s, (50, 37))
    WINS = CLUB.with_changes(steal_the_five="wins")
    s = show("5b wins", apply_hand(at(WINS, 47, 30), hand(E, 7, 7, NS, NS)))
    check(s, (50, 37), True, NS, EndReason.STEAL_THE_FIVE)
    s = show(
        "5b off",
        apply_hand(at(CLUB.with_changes(steal_the_five="off"), 47, 30), hand(E, 7, 7, NS, NS)),
    )
    check(s, (47, 37))

    # Example 6, a game ended on time (tournament preset), from 0-0, dealer North first.
    T = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)

    def t(h, m):
        return datetime(2025, 3, 1, h, m, tzinfo=UTC)

    seven = [
        hand(E, 7, 5, EW, NS, trump=Suit.CLUBS, at=t(19, 8)),
        hand(S, 8, 6, NS, EW, trump=Suit.HEARTS, at=t(19, 16)),
        hand(W, 7, 4, NS, EW, trump=Suit.SPADES, at=t(19, 24)),
        hand(E, 7, 6, EW, NS, trump=Suit.DIAMONDS, at=t(19, 32)),
        hand(S, 7, 5, NS, NS, trump=Suit.CLUBS, at=t(19, 41)),
        hand(W, 8, 5, EW, NS, trump=Suit.HEARTS, at=t(19, 49)),
        hand(N, 7, 7, NS, EW, trump=Suit.SPADES, at=t(19, 57)),
    ]
    st = replay(TOURNAMENT, N, seven)
    assert [(h.scores.ns, h.scores.ew) for h in st.hands] == [
        (0, 10),
        (11, 9),
        (20, 2),
        (19, 13),
        (26, 16),
        (26, 26),
        (38, 24),
    ]
    assert not st.over and st.dealer is W  # hand 8 is West's deal
    st = call_time(st, T)
    assert st.awaiting_hand_in_play
    h8 = hand(N, 8, 4, EW, EW, trump=Suit.SPADES, at=t(20, 4))
    st = show("6 hand 8 (in play)", apply_hand(st, h8))
    assert st.hands[-1].after_time and st.hands[-1].points == PerTeam(4, 6)
    check(st, (30, 30))
    h9 = hand(E, 7, 6, EW, NS, trump=Suit.CLUBS, at=t(20, 11))
    st = show("6 hand 9", apply_hand(st, h9))
    assert st.hands[-1].points == PerTeam(-1, 11)
    check(st, (29, 41), True, EW, EndReason.TIME)
    # variant: hand 7 finished at 20:01 -> it is the hand in play; NS 38-24 win on time
    late = [*seven[:6], replace(seven[6], completed_at=t(20, 1))]
    st = call_time(replay(TOURNAMENT, N, late), T)
    check(st, (38, 24), True, NS, EndReason.TIME)
    # variant: the hand in play ends the game by the rules -> the target, not time
    st = call_time(replay(TOURNAMENT, N, seven), T)
    st = apply_hand(st, hand(N, 7, 5, NS, NS, Contract.NO_TRUMP, at=t(20, 4)))  # NS 7 x2 -> 52
    check(st, (52, 27), True, NS, EndReason.TARGET)
    # misdeal after time is refused in the tournament preset
    with pytest.raises(HandRefused):
        apply_hand(
            call_time(replay(TOURNAMENT, N, seven), T),
            HandEntry(kind=HandKind.MISDEAL, misdeal_reason=MisdealReason.NO_FACE_CARD),
        )

    # Example 7, both teams reach the target (Les Rois, target 40, no bid-out): NS 38, EW 39
    s = show("7 both", apply_hand(at(ROIS, 38, 39), hand(N, 5, 5, EW, EW)))
    assert s.hands[-1].points == PerTeam(5, 5)
    check(s, (43, 44), True, NS, EndReason.TARGET)
    s = show(
        "7 higher",
        apply_hand(
            at(ROIS.with_changes(both_reach_target="higher"), 38, 39), hand(N, 5, 5, EW, EW)
        ),
    )
    check(s, (43, 44), True, EW, EndReason.TARGET)

    # Example 8, the minus line (club sheet): NS -47, EW 20; North 7; NS 4 tricks + 3♠ (1) fails
    s = show("8 minus", apply_hand(at(CLUB, -47, 20), hand(N, 7, 4, EW, NS)))
    assert s.hands[-1].points == PerTeam(1, 9)
    check(s, (-54, 29), True, EW, EndReason.MINUS_LINE)
    s = show("8 std", apply_hand(at(STANDARD, -47, 20), hand(N, 7, 4, EW, NS)))
    check(s, (-54, 29))
    # the minus line does not move with the target (saskatchewan): -52 even when target is 62
    s = apply_hand(at(SASK, 0, -45), hand(N, 7, 5, NS, NS, Contract.NO_TRUMP))
    s = show("8 sask", apply_hand(s, hand(E, 12, 3, EW, NS)))
    check(s, (16, -54), True, NS, EndReason.MINUS_LINE)

    # Example 9, Kaiser bid (standard + bidder alone): NS 20, EW 35
    K = STANDARD.with_changes(kaiser_bid="bidder_alone")
    kai = hand(N, 12, 7, NS, EW, Contract.KAISER, bidder_tricks=7)
    s = show("9 kaiser made", apply_hand(at(K, 20, 35), kai))
    check(s, (44, 33), True, NS, EndReason.KAISER_BID)
    s = show("9 kaiser partner took one", apply_hand(at(K, 20, 35), replace(kai, bidder_tricks=6)))
    check(s, (-4, 33), True, EW, EndReason.KAISER_BID)
    s = show(
        "9 kaiser team",
        apply_hand(
            at(STANDARD.with_changes(kaiser_bid="team"), 20, 35), replace(kai, bidder_tricks=6)
        ),
    )
    check(s, (44, 33), True, NS, EndReason.KAISER_BID)
    K40 = STANDARD.with_changes(kaiser_bid="kaiser_40")
    s = show(
        "9 kaiser 40",
        apply_hand(at(K40, 20, 35), hand(N, 12, 8, NS, NS, Contract.KAISER, bidder_tricks=8)),
    )
    check(s, (60, 35), True, NS, EndReason.TARGET)
    s = show(
        "9 kaiser 40 failed",
        apply_hand(at(K40, 20, 35), hand(N, 12, 7, NS, EW, Contract.KAISER, bidder_tricks=7)),
    )
    check(s, (-20, 33))

    # Example 10, three of spades option: North 6; NS 6 tricks (6); EW 2 tricks + 5♥ + 3♠
    TS = STANDARD.with_changes(three_spades_needs_three_tricks=True)
    s = show("10 three spades", apply_hand(at(TS, 10, 10), hand(N, 6, 6, EW, EW)))
    assert s.hands[-1].points == PerTeam(6, -3)
    check(s, (16, 7))
    s = show("10 std", apply_hand(at(STANDARD, 10, 10), hand(N, 6, 6, EW, EW)))
    check(s, (16, 14))

    # Example 11, no overtricks: North 7 makes 11 -> +7; at no-trump +14
    NO = STANDARD.with_changes(no_overtricks=True)
    s = show("11 no overtricks", apply_hand(at(NO, 10, 10), hand(N, 7, 6, NS, EW)))
    check(s, (17, 9))
    s = show(
        "11 no overtricks NT", apply_hand(at(NO, 10, 10), hand(N, 7, 6, NS, EW, Contract.NO_TRUMP))
    )
    check(s, (24, 9))

    # Example 12, bid to win (standard, no bid-out line): NS 0, EW 50; North 7 makes 7; EW 3 -> 53
    BTW = STANDARD.with_changes(bid_out_line=None, bid_to_win=True)
    s = show("12 bid to win", apply_hand(at(BTW, 0, 50), hand(N, 7, 5, NS, NS)))
    check(s, (7, 53))
    s = show(
        "12 bid to win off",
        apply_hand(at(STANDARD.with_changes(bid_out_line=None), 0, 50), hand(N, 7, 5, NS, NS)),
    )
    check(s, (7, 53), True, EW, EndReason.TARGET)
    # bid to win + steal wins: the defenders still win by stealing
    BS = CLUB.with_changes(bid_to_win=True, steal_the_five="wins")
    s = show("12 btw + steal wins", apply_hand(at(BS, 47, 30), hand(E, 7, 7, NS, NS)))
    # bid to win + bidders fall to the minus line: defenders win
    s = show(
        "12 btw + minus",
        apply_hand(at(CLUB.with_changes(bid_to_win=True), -47, 20), hand(N, 7, 4, EW, NS)),
    )

    # Misdeals: who deals next
    s = apply_hand(
        new_game(CLUB, N),
        HandEntry(kind=HandKind.MISDEAL, misdeal_reason=MisdealReason.NO_FACE_CARD),
    )
    assert s.dealer is E
    s = apply_hand(
        new_game(STANDARD, N),
        HandEntry(kind=HandKind.MISDEAL, misdeal_reason=MisdealReason.NO_HONOURS),
    )
    assert s.dealer is N
    # "Misdeals": the standard preset takes only a deal with no honours
    for reason in (MisdealReason.FOUR_OF_A_KIND, MisdealReason.ALL_PASS):
        with pytest.raises(HandRefused):
            apply_hand(
                new_game(STANDARD, N), HandEntry(kind=HandKind.MISDEAL, misdeal_reason=reason)
            )
    # a forced bid: the dealer's, at the minimum, in no-trump too ("Tournament rules")
    s = apply_hand(new_game(TOURNAMENT, N), hand(N, 7, 5, NS, EW, Contract.NO_TRUMP, forced=True))
    check(s, (20, 0))  # NS 5 tricks + 5♥ = 10, made: doubled; EW 3 tricks - 3♠ = 0
    for entry in [hand(E, 7, 5, NS, EW, forced=True), hand(N, 8, 5, NS, EW, forced=True)]:
        with pytest.raises(HandRefused):
            apply_hand(new_game(TOURNAMENT, N), entry)
    with pytest.raises(HandRefused):  # the club preset has no forced bid
        apply_hand(new_game(CLUB, N), hand(N, 5, 5, NS, EW, forced=True))
    with pytest.raises(HandRefused):  # eight tricks, yet East-West took the 3♠
        apply_hand(new_game(STANDARD, N), hand(N, 7, 8, NS, EW))
    with pytest.raises(HandRefused):  # below the tournament's minimum of 7
        apply_hand(new_game(TOURNAMENT, N), hand(N, 6, 5, NS, EW))
    # 12 in a suit can be made: 7 tricks + 5♥, opponents take the 3♠ = 12
    s = show("12 in a suit", apply_hand(at(STANDARD, 0, 0), hand(N, 12, 7, NS, EW)))
    check(s, (12, -2))
    s = show("12 in a suit, all 8", apply_hand(at(STANDARD, 0, 0), hand(N, 12, 8, NS, NS)))
    check(s, (-12, 0))
    # point range and the sum of 10
    from scoring.rules.scoring import card_points

    vals = {
        card_points(STANDARD, t_, g, b)
        for t_ in range(9)
        for g in (False, True)
        for b in (False, True)
        if not (t_ == 0 and (g or b)) and not (t_ == 8 and not (g and b))
    }
    assert (min(vals), max(vals)) == (-2, 12)
