"""A game over several hands: the end of a game, the target raise, the deal, the clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from scoring.rules import (
    BothReachTarget,
    Contract,
    EndReason,
    HandEntry,
    HandRefused,
    KaiserBid,
    MisdealReason,
    PerTeam,
    RuleSet,
    Seat,
    Side,
    StealTheFive,
    apply_hand,
    call_time,
    forfeit,
    new_game,
    preset,
    replay,
)
from tests.scoring.rules.builders import (
    EW,
    NS,
    E,
    N,
    S,
    W,
    misdeal,
    no_trump,
    played,
    state_at,
)

STANDARD = preset("standard")
CLUB = preset("club")
TOURNAMENT = preset("tournament")
SASKATCHEWAN = preset("saskatchewan")
LES_ROIS = preset("les_rois")

# (rules, ns, ew, entry, scores after, over, winner, reason, source)
ENDINGS = [
    (
        CLUB,
        45,
        0,
        played(N, 7, 5, NS, NS),
        PerTeam(52, 3),
        True,
        NS,
        EndReason.TARGET,
        "club sheet: the object is to score 52 points",
    ),
    (
        CLUB,
        44,
        0,
        played(N, 7, 5, NS, NS),
        PerTeam(51, 3),
        False,
        None,
        None,
        "club sheet: 51 plays on",
    ),
    (
        CLUB,
        -45,
        0,
        played(N, 7, 5, EW, NS),
        PerTeam(-52, 8),
        True,
        EW,
        EndReason.MINUS_LINE,
        "club sheet: a team at minus 52 automatically loses",
    ),
    (
        STANDARD,
        -45,
        0,
        played(N, 7, 5, EW, NS),
        PerTeam(-52, 8),
        False,
        None,
        None,
        "pagat: without the option minus 52 plays on",
    ),
    (
        CLUB,
        0,
        -50,
        played(N, 7, 7, NS, EW),
        PerTeam(12, -52),
        True,
        NS,
        EndReason.MINUS_LINE,
        'docs/rules.md, "The end of a game", step 5: the defenders fell to the minus line',
    ),
    (
        CLUB,
        10,
        47,
        played(N, 7, 5, EW, NS),
        PerTeam(3, 55),
        True,
        EW,
        EndReason.TARGET,
        "club sheet: a bid-out team that steals the five advances to win",
    ),
    (
        STANDARD.with_changes(steal_the_five=StealTheFive.WINS),
        10,
        45,
        played(N, 7, 6, EW, NS),
        PerTeam(3, 52),
        True,
        EW,
        EndReason.STEAL_THE_FIVE,
        "pagat: capturing the 5 from the bidders wins the game for you",
    ),
    (
        STANDARD.with_changes(steal_the_five=StealTheFive.WINS),
        10,
        46,
        played(N, 7, 7, EW, EW),
        PerTeam(17, 49),
        True,
        EW,
        EndReason.STEAL_THE_FIVE,
        "pagat: stealing the five wins at once, whatever the score (NS made its bid)",
    ),
    (
        STANDARD.with_changes(steal_the_five=StealTheFive.WINS),
        10,
        30,
        played(N, 7, 7, EW, NS),
        PerTeam(3, 36),
        False,
        None,
        None,
        "pagat: a team that is not bid out does not win by the five",
    ),
    (
        STANDARD.with_changes(bid_out_line=None),
        0,
        50,
        played(N, 7, 5, NS, NS),
        PerTeam(7, 53),
        True,
        EW,
        EndReason.TARGET,
        'docs/rules.md, "The end of a game", step 4: the defenders reached the target',
    ),
    (
        STANDARD.with_changes(bid_out_line=None, bid_to_win=True),
        0,
        50,
        played(N, 7, 5, NS, NS),
        PerTeam(7, 53),
        False,
        None,
        None,
        "pagat bid to win: the non-bidding side cannot win, even above the target",
    ),
    (
        LES_ROIS,
        33,
        38,
        played(N, 4, 5, NS, NS),
        PerTeam(40, 41),
        True,
        NS,
        EndReason.TARGET,
        "pagat, Les Rois: if both reach 40 on the same deal, the bidding team wins",
    ),
    (
        LES_ROIS.with_changes(both_reach_target=BothReachTarget.HIGHER),
        33,
        38,
        played(N, 4, 5, NS, NS),
        PerTeam(40, 41),
        True,
        EW,
        EndReason.TARGET,
        "Denexa: the partnership with the higher score wins",
    ),
    (
        LES_ROIS.with_changes(both_reach_target=BothReachTarget.HIGHER),
        34,
        38,
        played(N, 4, 5, NS, NS),
        PerTeam(41, 41),
        True,
        NS,
        EndReason.TARGET,
        "decision: higher score, equal scores go to the bidding team",
    ),
    (
        LES_ROIS.with_changes(both_reach_target=BothReachTarget.HIGHER),
        38,
        33,
        played(N, 4, 5, NS, NS),
        PerTeam(45, 36),
        True,
        NS,
        EndReason.TARGET,
        "Denexa: the higher score wins (the bidders here)",
    ),
    (
        preset("joffre"),
        34,
        0,
        played(N, 5, 5, NS, NS),
        PerTeam(41, 3),
        True,
        NS,
        EndReason.TARGET,
        "pagat, Joffre: the target score to win is 41",
    ),
    (
        STANDARD,
        40,
        0,
        no_trump(N, 7, 5, NS, NS),
        PerTeam(54, 3),
        True,
        NS,
        EndReason.TARGET,
        "pagat: without the raise, 40 + 7 no (14) = 54 wins",
    ),
    (
        SASKATCHEWAN,
        40,
        0,
        no_trump(N, 7, 5, NS, NS),
        PerTeam(54, 3),
        False,
        None,
        None,
        'docs/rules.md, "No-trump and the raised target": a team at 40 that makes 7 no (54) '
        "plays on; the target is now 62",
    ),
    (
        SASKATCHEWAN,
        40,
        0,
        played(N, 7, 5, NS, NS, contract=Contract.LOW_NO_TRUMP),
        PerTeam(54, 3),
        False,
        None,
        None,
        "pagat: low no-trump is scored like no-trump (and raises the target)",
    ),
    (
        SASKATCHEWAN,
        40,
        -45,
        no_trump(N, 7, 5, NS, NS),
        PerTeam(54, -42),
        False,
        None,
        None,
        'docs/rules.md, "No-trump and the raised target": the target raise comes before '
        "any win is checked",
    ),
    (
        SASKATCHEWAN,
        45,
        0,
        played(N, 7, 5, NS, NS),
        PerTeam(52, 3),
        True,
        NS,
        EndReason.TARGET,
        "pagat: 52 wins while no no-trump has been made",
    ),
]


@pytest.mark.parametrize(
    ("rules", "ns", "ew", "entry", "scores", "over", "winner", "reason", "source"), ENDINGS
)
def test_end_of_game(
    rules: RuleSet,
    ns: int,
    ew: int,
    entry: HandEntry,
    scores: PerTeam,
    over: bool,
    winner: Side | None,
    reason: EndReason | None,
    source: str,
) -> None:
    state = apply_hand(state_at(rules, ns, ew), entry)
    assert state.scores == scores, source
    assert (state.over, state.winner, state.end_reason) == (over, winner, reason), source


def test_target_raise_to_62_and_bid_out_line_to_55() -> None:
    # docs/rules.md, "No-trump and the raised target", and pagat: after a made no-trump the
    # target is 62; the bid-out line rises by 10 (Wikipedia), here 45 -> 55.
    state = apply_hand(state_at(SASKATCHEWAN, 40, 50), no_trump(N, 7, 5, NS, NS))
    assert state.target == 62
    assert state.bid_out_line == 55
    assert state.hands[-1].target == 62
    assert state.bid_out == frozenset()  # 54 and 50 are below 55
    state = apply_hand(state, played(E, 7, 3, EW, EW))  # EW fails: NS 5 -> 59, EW -7 -> 43
    assert state.scores == PerTeam(59, 43)
    assert state.target == 62
    assert state.bid_out == frozenset({NS})
    state = apply_hand(state, played(S, 7, 5, NS, NS))  # 59 + 7 = 66
    assert (state.over, state.winner, state.end_reason) == (True, NS, EndReason.TARGET)


def test_target_raises_once() -> None:
    state = apply_hand(state_at(SASKATCHEWAN, 0, 0), no_trump(N, 7, 5, NS, NS))
    state = apply_hand(state, no_trump(E, 7, 5, EW, EW))
    assert state.target == 62
    assert state.bid_out_line == 55


def test_failed_no_trump_does_not_raise_the_target() -> None:
    state = apply_hand(state_at(SASKATCHEWAN, 0, 0), no_trump(N, 7, 4, EW, NS))
    assert (state.target, state.bid_out_line) == (52, 45)


def test_minus_line_does_not_move_with_the_target() -> None:
    # docs/rules.md, "The minus line": the line is minus the starting target (-52), even
    # after the raise to 62
    state = apply_hand(state_at(SASKATCHEWAN, 0, -45), no_trump(N, 7, 5, NS, NS))
    assert state.scores == PerTeam(14, -42)  # NS 7 made x2; EW 3
    assert state.target == 62 and not state.over
    state = apply_hand(state, played(E, 12, 3, EW, NS))  # EW 3+5=8 fails 12; NS 5-3=2
    assert state.scores == PerTeam(16, -54)
    assert (state.over, state.winner, state.end_reason) == (True, NS, EndReason.MINUS_LINE)


def test_bid_out_example_47_vs_40() -> None:
    # club sheet: 47 for one team and 40 for the other; the 40 team bids 7 and makes it:
    # it advances to 47, the 47 team counts no tricks.
    state = apply_hand(state_at(CLUB, 40, 47), played(N, 7, 5, NS, NS))
    assert state.scores == PerTeam(47, 47)
    assert state.bid_out == frozenset({NS, EW})
    assert not state.over


@pytest.mark.parametrize(
    ("rules", "entry", "over", "winner", "source"),
    [
        (
            STANDARD.with_changes(kaiser_bid=KaiserBid.BIDDER_ALONE),
            played(N, 12, 7, NS, EW, contract=Contract.KAISER, bidder_tricks=7),
            True,
            NS,
            "pagat: a Kaiser bid wins the game if successful",
        ),
        (
            STANDARD.with_changes(kaiser_bid=KaiserBid.BIDDER_ALONE),
            played(N, 12, 7, NS, EW, contract=Contract.KAISER, bidder_tricks=5),
            True,
            EW,
            "pagat: and loses the game if unsuccessful",
        ),
        (
            STANDARD.with_changes(kaiser_bid=KaiserBid.TEAM),
            played(N, 12, 7, NS, EW, contract=Contract.KAISER),
            True,
            NS,
            "pagat: the team Kaiser bid wins if it succeeds",
        ),
        (
            STANDARD.with_changes(kaiser_bid=KaiserBid.TEAM),
            played(N, 12, 6, NS, EW, contract=Contract.KAISER),
            True,
            EW,
            "pagat: if they fail they lose it",
        ),
    ],
)
def test_kaiser_bid_ends_the_game(
    rules: RuleSet, entry: HandEntry, over: bool, winner: Side, source: str
) -> None:
    state = apply_hand(new_game(rules, N), entry)
    assert (state.over, state.winner, state.end_reason) == (
        over,
        winner,
        EndReason.KAISER_BID,
    ), source


def test_kaiser_40_scores_and_plays_on() -> None:
    rules = STANDARD.with_changes(kaiser_bid=KaiserBid.KAISER_40)
    entry = played(N, 12, 8, NS, NS, contract=Contract.KAISER, bidder_tricks=8)
    state = apply_hand(new_game(rules, N), entry)
    assert state.scores == PerTeam(40, 0)  # pagat: Kaiser 40 scores 40 points
    assert not state.over
    state = apply_hand(state, played(E, 7, 3, NS, EW))  # EW 3-3=0 fails; NS 5+5=10 -> 50
    assert state.scores == PerTeam(50, -7)
    assert not state.over


# The deal: (rules, entries, dealer of each hand, next dealer, source)
DEALS = [
    (STANDARD, [played(W, 7, 5, NS, NS)], [N], E, "pagat: the turn to deal passes to the left"),
    (
        STANDARD,
        [played(W), played(N), played(E), played(S)],
        [N, E, S, W],
        N,
        "pagat: deal and play are clockwise",
    ),
    (
        STANDARD,
        [misdeal(MisdealReason.NO_HONOURS), played(W)],
        [N, N],
        E,
        "pagat: the cards are dealt again by the same dealer",
    ),
    (
        CLUB,
        [misdeal(MisdealReason.ALL_PASS), played(W, 5)],
        [N, E],
        S,
        "club sheet: the hand is never re-dealt by the same player",
    ),
    (
        CLUB,
        [misdeal(MisdealReason.NO_FACE_CARD), misdeal(MisdealReason.FOUR_OF_A_KIND)],
        [N, E],
        S,
        "club sheet: whenever a hand is dealt over again the cards pass on",
    ),
]


@pytest.mark.parametrize(("rules", "entries", "dealers", "next_dealer", "source"), DEALS)
def test_deal_rotation(
    rules: RuleSet,
    entries: list[HandEntry],
    dealers: list[Seat],
    next_dealer: Seat,
    source: str,
) -> None:
    state = replay(rules, N, entries)
    assert [hand.dealer for hand in state.hands] == dealers, source
    assert state.dealer is next_dealer, source
    assert [hand.number for hand in state.hands] == list(range(1, len(entries) + 1))


def test_misdeal_result() -> None:
    state = apply_hand(state_at(CLUB, 10, 20), misdeal(MisdealReason.ALL_PASS))
    (hand,) = state.hands
    assert hand.made is None
    assert hand.bidding_team is None
    assert hand.points == PerTeam(0, 0)
    assert hand.changes == PerTeam(0, 0)
    assert hand.scores == PerTeam(10, 20)


def test_forced_bid_must_be_the_new_dealers() -> None:
    state = apply_hand(new_game(TOURNAMENT, N), played(W))
    assert state.dealer is E
    apply_hand(state, played(E, 7, forced=True))
    with pytest.raises(HandRefused):
        apply_hand(state, played(N, 7, forced=True))


def test_new_game() -> None:
    state = new_game(CLUB, S)
    assert state.scores == PerTeam(0, 0)
    assert state.dealer is S and state.first_dealer is S
    assert (state.target, state.bid_out_line) == (52, 47)
    assert state.bid_out == frozenset()
    assert (state.over, state.winner, state.end_reason) == (False, None, None)
    assert state.next_number == 1
    assert state.hands == ()
    assert (state.time_called_at, state.awaiting_hand_in_play) == (None, False)


def test_new_game_refuses_inconsistent_rules() -> None:
    from scoring.rules import RuleSetInvalid

    with pytest.raises(RuleSetInvalid):
        new_game(RuleSet(bid_out_line=60), N)


def test_replay_matches_applying_one_by_one() -> None:
    entries = [
        played(E, 7, 5, NS, NS),
        misdeal(MisdealReason.NO_HONOURS),
        no_trump(S, 8, 6, NS, EW),
        played(W, 6, 2, EW, NS),
    ]
    state = new_game(STANDARD, W)
    for entry in entries:
        state = apply_hand(state, entry)
    assert replay(STANDARD, W, entries) == state
    assert state.scores == PerTeam(30, -1)  # hand by hand: 5/-7, 0/0, 22/-1, 3/7


def test_a_running_game() -> None:
    # A club game hand by hand; the running scores are worked out by hand in the comments.
    entries = [
        played(E, 7, 5, EW, NS),  # EW 5+5=10 made; NS 3-3=0 -> 0/10
        played(S, 6, 6, NS, EW),  # NS 6+5=11 made; EW 2-3=-1 -> 11/9
        no_trump(W, 8, 6, EW, NS),  # EW 6+5=11 made, doubled 22; NS 2-3=-1 -> 10/31
        played(N, 9, 4, NS, EW),  # NS 4+5=9 made; EW 4-3=1 -> 19/32
        played(E, 10, 6, EW, EW),  # EW 6+5-3=8 fails 10; NS 2 -> 21/22
        no_trump(S, 9, 7, NS, EW),  # NS 7+5=12 made, doubled 24; EW 1-3=-2 -> 45/20
        played(W, 7, 5, EW, EW),  # EW 5+5-3=7 made; NS 3 (45 < 47) -> 48/27
        played(W, 7, 5, EW, EW),  # EW 7 made; NS bid out at 48 (club sheet: 47) -> 48/34
        played(S, 6, 5, NS, NS),  # NS 7 made -> 55: North-South wins
    ]
    state = replay(CLUB, N, entries)
    assert [h.scores for h in state.hands] == [
        PerTeam(0, 10),
        PerTeam(11, 9),
        PerTeam(10, 31),
        PerTeam(19, 32),
        PerTeam(21, 22),
        PerTeam(45, 20),
        PerTeam(48, 27),
        PerTeam(48, 34),
        PerTeam(55, 37),
    ]
    assert [h.dealer for h in state.hands] == [N, E, S, W, N, E, S, W, N]
    assert state.hands[7].bid_out == frozenset({NS})
    assert state.hands[7].changes == PerTeam(0, 7)
    assert (state.over, state.winner, state.end_reason) == (True, NS, EndReason.TARGET)


# The clock (docs/rules.md, "The clock": a decision).
T = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
BEFORE = T - timedelta(minutes=5)
AFTER = T + timedelta(minutes=5)
LATER = T + timedelta(minutes=12)


def timed(entry: HandEntry, at: datetime | None) -> HandEntry:
    from dataclasses import replace

    return replace(entry, completed_at=at)


def test_call_time_awaits_the_hand_in_play() -> None:
    state = apply_hand(new_game(TOURNAMENT, N), timed(played(E, 7, 5, EW, EW), BEFORE))
    state = call_time(state, T)
    assert state.time_called_at == T
    assert state.awaiting_hand_in_play is True
    assert not state.over
    assert state.scores == PerTeam(3, 7)


def test_hand_in_play_then_higher_score_wins_on_time() -> None:
    state = call_time(new_game(TOURNAMENT, N), T)
    state = apply_hand(state, timed(played(E, 7, 5, EW, EW), BEFORE))  # completed before T
    assert state.awaiting_hand_in_play and not state.hands[-1].after_time
    state = apply_hand(state, timed(played(S, 7, 5, NS, NS), AFTER))  # the hand in play
    assert state.hands[-1].after_time
    assert state.scores == PerTeam(10, 10)  # 3/7 then NS 7 made, EW 3
    assert not state.over  # tied: one more hand
    assert state.awaiting_hand_in_play is False
    state = apply_hand(state, timed(played(W, 7, 5, NS, NS), LATER))  # EW fails: 15/3
    assert state.scores == PerTeam(15, 3)
    assert (state.over, state.winner, state.end_reason) == (True, NS, EndReason.TIME)
    with pytest.raises(HandRefused) as refused:
        apply_hand(state, played(N, 7))
    (refusal,) = refused.value.refusals
    assert (refusal.code, refusal.field) == ("time_over", None)
    assert refusal.message == (
        "Time is up and the hand in play is finished: North–South won on time, "
        "so no more hands are played."
    )


def test_hand_in_play_with_unequal_scores_ends_the_game() -> None:
    entries = [timed(played(E, 7, 5, EW, EW), BEFORE), timed(played(S, 7, 5, EW, EW), AFTER)]
    state = replay(TOURNAMENT, N, entries, time_called_at=T)
    assert state.scores == PerTeam(-4, 12)  # 3/7, then NS fails -7, EW 5
    assert (state.over, state.winner, state.end_reason) == (True, EW, EndReason.TIME)


def test_hand_in_play_that_reaches_the_target_wins_by_target() -> None:
    state = state_at(TOURNAMENT, 48, 0)
    state = call_time(state, T)
    state = apply_hand(state, timed(played(N, 7, 5, NS, NS), AFTER))
    assert (state.over, state.winner, state.end_reason) == (True, NS, EndReason.TARGET)


def test_hand_without_completion_time_counts_before_the_call() -> None:
    state = replay(TOURNAMENT, N, [played(E, 7, 5, EW, EW)], time_called_at=T)
    assert not state.over and state.awaiting_hand_in_play
    assert state.hands[-1].after_time is False


def test_late_call_places_recorded_hands() -> None:
    state = apply_hand(new_game(TOURNAMENT, N), timed(played(E, 7, 5, EW, EW), BEFORE))
    state = apply_hand(state, timed(played(S, 7, 5, EW, EW), AFTER))
    assert not state.over
    state = call_time(state, T)  # time was called before the second hand was completed
    assert (state.over, state.winner, state.end_reason) == (True, EW, EndReason.TIME)


def test_call_time_twice_or_after_the_end_changes_nothing() -> None:
    state = call_time(new_game(TOURNAMENT, N), T)
    assert call_time(state, LATER) == state
    over = forfeit(new_game(TOURNAMENT, N), NS)
    assert call_time(over, T) == over


def test_misdeal_after_time_is_not_the_hand_in_play() -> None:
    state = call_time(state_at(CLUB, 10, 0), T)
    state = apply_hand(state, misdeal(MisdealReason.ALL_PASS, completed_at=AFTER))
    assert not state.over and state.awaiting_hand_in_play
    state = apply_hand(state, played(E, 5, 3, NS, NS))  # the re-deal is after time
    assert state.hands[-1].after_time
    assert (state.over, state.winner, state.end_reason) == (True, NS, EndReason.TIME)


def test_forfeit() -> None:
    state = forfeit(apply_hand(new_game(CLUB, N), played(E, 7, 5, EW, EW)), EW)
    assert (state.over, state.winner, state.end_reason) == (True, NS, EndReason.FORFEIT)
    with pytest.raises(HandRefused) as caught:
        forfeit(state, NS)
    assert caught.value.refusals[0].code == "game_over"
    with pytest.raises(HandRefused):
        apply_hand(state, played(S))


def test_replay_with_forfeit() -> None:
    state = replay(CLUB, N, [played(E, 7, 5, EW, EW)], forfeited_by=NS)
    assert (state.winner, state.end_reason) == (EW, EndReason.FORFEIT)
    assert len(state.hands) == 1
