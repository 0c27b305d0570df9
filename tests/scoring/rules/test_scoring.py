"""Scoring one hand: card points, made or failed, doubling, bid-out, steal-the-five, Kaiser."""

from __future__ import annotations

import pytest

from scoring.rules import (
    Contract,
    KaiserBid,
    PerTeam,
    RuleSet,
    StealTheFive,
    preset,
    preview_hand,
)
from scoring.rules.scoring import card_points
from tests.scoring.rules.builders import EW, NS, E, N, no_trump, played, state_at

STANDARD = preset("standard")
CLUB = preset("club")
THREE_SPADES = STANDARD.with_changes(three_spades_needs_three_tricks=True)

# (rules, tricks, took the good card, took the bad card, points, source)
CARD_POINTS = [
    (STANDARD, 4, True, True, 6, "club sheet: 4 tricks with the 5♥ and the 3♠ = 6"),
    (STANDARD, 3, False, True, 0, "club sheet: the 3♠ and two other tricks break even"),
    (STANDARD, 1, False, True, -2, 'docs/rules.md, "Scoring a hand": the 3♠ trick nets -2'),
    (STANDARD, 1, True, False, 6, 'docs/rules.md, "Scoring a hand": the 5♥ trick nets +6'),
    (STANDARD, 0, False, False, 0, 'docs/rules.md, "Scoring a hand": 0 tricks score 0'),
    (STANDARD, 8, True, True, 10, 'docs/rules.md, "Scoring a hand": all 8 tricks, both cards: 10'),
    (STANDARD, 5, False, False, 5, 'docs/rules.md, "Scoring a hand": t tricks score t'),
    (STANDARD, 5, True, False, 10, 'docs/rules.md, "Scoring a hand": t+5'),
    (STANDARD, 5, False, True, 2, 'docs/rules.md, "Scoring a hand": t-3'),
    (STANDARD, 2, True, True, 4, 'docs/rules.md, "Scoring a hand": t+2'),
    (STANDARD, 7, True, False, 12, 'docs/rules.md, "Scoring a hand": a team scores -2…12'),
    (THREE_SPADES, 1, False, True, -3, "pagat: the 3♠ with one trick, whole hand -3"),
    (THREE_SPADES, 2, False, True, -3, "pagat: the 3♠ with two tricks, whole hand -3"),
    (THREE_SPADES, 2, True, True, -3, "pagat: the 5♥ counts only with at least 3 tricks"),
    (THREE_SPADES, 3, False, True, 0, "pagat: with three tricks their score would be zero"),
    (THREE_SPADES, 4, False, True, 1, "pagat: additional tricks count one further point"),
    (THREE_SPADES, 3, True, True, 5, "pagat: the 5♥ counts +5 with at least 3 tricks"),
    (THREE_SPADES, 2, True, False, 7, "decision: without the 3♠ the 5♥ counts as usual"),
    (THREE_SPADES, 1, False, False, 1, "pagat: a team without the 3♠ counts as usual"),
    (preset("les_rois"), 1, True, True, 3, "pagat, Les Rois: K♥ +5 and K♠ -3"),
    (
        STANDARD.with_changes(five_bonus=6, good_card="K♥", bad_card="K♠"),
        1,
        True,
        False,
        7,
        "pagat, Hétu's version: a trick with the K♥ is worth +6",
    ),
]


@pytest.mark.parametrize(("rules", "tricks", "good", "bad", "points", "source"), CARD_POINTS)
def test_card_points(
    rules: RuleSet, tricks: int, good: bool, bad: bool, points: int, source: str
) -> None:
    assert card_points(rules, tricks, good, bad) == points, source


# One hand from 0-0 under the club sheet (min bid 5): (entry, points, made, changes, source).
HANDS = [
    (
        played(N, 7, 6, NS, EW),
        PerTeam(11, -1),
        True,
        PerTeam(11, -1),
        "club sheet: a made bid counts every point taken",
    ),
    (
        played(N, 7, 5, EW, EW),
        PerTeam(5, 5),
        False,
        PerTeam(-7, 5),
        "club sheet: bid 7, make 5 → -7; defenders count what they took",
    ),
    (
        played(N, 7, 5, NS, NS),
        PerTeam(7, 3),
        True,
        PerTeam(7, 3),
        "club sheet: bid 7 and take exactly 7 → +7",
    ),
    (
        played(N, 7, 6, EW, NS),
        PerTeam(3, 7),
        False,
        PerTeam(-7, 7),
        "pagat: fewer points than bid subtracts the bid",
    ),
    (
        played(N, 9, 6, EW, EW),
        PerTeam(6, 4),
        False,
        PerTeam(-9, 4),
        'docs/rules.md, "Decisions where the sources disagree": a failed bid subtracts the '
        "bid (9), not the points (6) as Denexa says",
    ),
    (
        no_trump(E, 7, 5, EW, EW),
        PerTeam(3, 7),
        True,
        PerTeam(3, 14),
        "club sheet: seven no trump made → 14",
    ),
    (
        no_trump(E, 7, 4, NS, EW),
        PerTeam(9, 1),
        False,
        PerTeam(9, -14),
        "club sheet: seven no trump failed → -14",
    ),
    (
        no_trump(N, 8, 5, NS, EW),
        PerTeam(10, 0),
        True,
        PerTeam(20, 0),
        "pagat: a made no-trump adds double the points taken (10 → 20)",
    ),
    (
        played(N, 8, 3, EW, NS, contract=Contract.NO_TRUMP),
        PerTeam(0, 10),
        False,
        PerTeam(-16, 10),
        "pagat: a failed no-trump subtracts double the bid; opponents not doubled",
    ),
    (
        played(N, 12, 8, NS, NS),
        PerTeam(10, 0),
        False,
        PerTeam(-12, 0),
        'docs/rules.md, "Scoring a hand": a bid of 12 in a suit is not made with all 8 tricks (10)',
    ),
    (
        played(N, 5, 1, EW, NS),
        PerTeam(-2, 12),
        False,
        PerTeam(-5, 12),
        "club sheet: minimum bid 5",
    ),
    (
        played(E, 5, 5, EW, NS),
        PerTeam(0, 10),
        True,
        PerTeam(0, 10),
        'docs/rules.md, "Scoring a hand": defenders add the points they took',
    ),
    (
        played(E, 6, 7, EW, NS),
        PerTeam(-2, 12),
        True,
        PerTeam(-2, 12),
        "pagat: defenders' score can go down (the 3♠ with fewer than 3 tricks)",
    ),
]


@pytest.mark.parametrize(("entry", "points", "made", "changes", "source"), HANDS)
def test_one_hand(
    entry: object, points: PerTeam, made: bool, changes: PerTeam, source: str
) -> None:
    result = preview_hand(state_at(CLUB, 0, 0), entry)  # type: ignore[arg-type]
    assert (result.points, result.made, result.changes) == (points, made, changes), source
    assert result.scores == changes


NO_OVERTRICKS = STANDARD.with_changes(no_overtricks=True)


@pytest.mark.parametrize(
    ("entry", "changes", "source"),
    [
        (played(N, 7, 4, NS, EW), PerTeam(7, 1), "pagat no overtricks: bid 7, take 9 → +7"),
        (no_trump(N, 7, 4, NS, EW), PerTeam(14, 1), "pagat no overtricks: 7 no, take 9 → +14"),
        (played(N, 7, 5, EW, NS), PerTeam(-7, 8), "pagat no overtricks: a failure is unchanged"),
    ],
)
def test_no_overtricks(entry: object, changes: PerTeam, source: str) -> None:
    result = preview_hand(state_at(NO_OVERTRICKS, 0, 0), entry)  # type: ignore[arg-type]
    assert result.changes == changes, source


# Bid-out: (rules, ns, ew, entry (NS bids), ew change, bid_out, source).
BID_OUT = [
    (
        CLUB,
        40,
        47,
        played(N, 7, 5, NS, NS),
        0,
        True,
        "club sheet: 47 vs 40, the 47 team counts no tricks",
    ),
    (CLUB, 40, 46, played(N, 7, 5, NS, NS), 3, False, "club sheet: below 47 the defenders count"),
    (STANDARD, 0, 45, played(N, 7, 5, NS, NS), 0, True, "pagat: at 45 or more, nothing added"),
    (STANDARD, 0, 44, played(N, 7, 5, NS, NS), 3, False, "pagat: below 45 they score"),
    (
        STANDARD.with_changes(bid_out_line=46),
        0,
        45,
        played(N, 7, 5, NS, NS),
        3,
        False,
        "Denexa: a score of 45 or less still adds",
    ),
    (
        STANDARD.with_changes(bid_out_line=46),
        0,
        46,
        played(N, 7, 5, NS, NS),
        0,
        True,
        "Denexa: greater than 45, only negative points count",
    ),
    (
        STANDARD,
        0,
        45,
        played(N, 7, 7, NS, EW),
        -2,
        True,
        "pagat: bid out still loses negative points",
    ),
    (
        STANDARD,
        0,
        45,
        played(N, 7, 5, EW, NS),
        0,
        True,
        "pagat: the 5♥ does not help without the option",
    ),
    (
        CLUB,
        0,
        47,
        played(N, 7, 5, EW, NS),
        8,
        True,
        "club sheet: steal the five (scores): 3 tricks + 5♥",
    ),
    (
        CLUB,
        0,
        47,
        played(N, 7, 6, EW, EW),
        4,
        True,
        "club sheet: steal the five, 2 tricks + 5♥ - 3♠",
    ),
    (
        preset("les_rois"),
        0,
        39,
        played(N, 4, 5, NS, NS),
        3,
        False,
        "pagat, Les Rois: defenders always score",
    ),
]


@pytest.mark.parametrize(("rules", "ns", "ew", "entry", "ew_change", "bid_out", "source"), BID_OUT)
def test_bid_out(
    rules: RuleSet, ns: int, ew: int, entry: object, ew_change: int, bid_out: bool, source: str
) -> None:
    result = preview_hand(state_at(rules, ns, ew), entry)  # type: ignore[arg-type]
    assert result.changes.ew == ew_change, source
    assert (EW in result.bid_out) is bid_out, source


def test_club_sheet_bid_out_example() -> None:
    # club sheet: 47 vs 40, the 40 team bids 7 and makes it: it advances to 47, the 47 team
    # counts no tricks.
    state = state_at(CLUB, 40, 47)
    result = preview_hand(state, played(N, 7, 5, NS, NS))  # NS: 5 + 5 - 3 = 7
    assert result.scores == PerTeam(47, 47)
    assert result.changes == PerTeam(7, 0)


def test_bidding_team_is_never_bid_out() -> None:
    # docs/rules.md, "Bid-out": bid-out concerns the defending team only
    result = preview_hand(state_at(CLUB, 48, 0), played(N, 7, 6, NS, EW))
    assert result.changes == PerTeam(11, -1)
    assert result.bid_out == frozenset()


KAISER = STANDARD.with_changes(kaiser_bid=KaiserBid.BIDDER_ALONE)


def kaiser(tricks: int, five: object, three: object, alone: int | None) -> object:
    return played(N, 12, tricks, five, three, contract=Contract.KAISER, bidder_tricks=alone)  # type: ignore[arg-type]


# (rules, entry, made, changes, source)
KAISER_HANDS = [
    (
        KAISER,
        kaiser(7, NS, EW, 7),
        True,
        PerTeam(24, -2),
        "pagat: seven tricks alone with the 5♥, opponents the 3♠; scored as 12 no (decision)",
    ),
    (
        KAISER,
        kaiser(7, NS, EW, 6),
        False,
        PerTeam(-24, -2),
        "pagat: the partner must take no tricks",
    ),
    (KAISER, kaiser(8, NS, NS, 8), False, PerTeam(-24, 0), "pagat: not the 3♠ (8 tricks = 10)"),
    (KAISER, kaiser(6, NS, EW, 6), False, PerTeam(-24, -1), "pagat: six tricks are 11 points"),
    (
        STANDARD.with_changes(kaiser_bid=KaiserBid.TEAM),
        kaiser(7, NS, EW, 3),
        True,
        PerTeam(24, -2),
        "pagat: the bidding team has to take 12 points in no trump",
    ),
    (
        STANDARD.with_changes(kaiser_bid=KaiserBid.TEAM),
        kaiser(7, NS, EW, None),
        True,
        PerTeam(24, -2),
        "decision: the team variant needs no bidder-alone count",
    ),
    (
        STANDARD.with_changes(kaiser_bid=KaiserBid.TEAM),
        kaiser(7, EW, NS, 7),
        False,
        PerTeam(-24, 6),
        "pagat: team Kaiser failed",
    ),
    (
        STANDARD.with_changes(kaiser_bid=KaiserBid.KAISER_40),
        kaiser(8, NS, NS, 8),
        True,
        PerTeam(40, 0),
        "pagat: Kaiser 40, all eight tricks alone scores 40",
    ),
    (
        STANDARD.with_changes(kaiser_bid=KaiserBid.KAISER_40),
        kaiser(7, NS, EW, 7),
        False,
        PerTeam(-40, -2),
        "pagat: Kaiser 40 failed loses 40",
    ),
]


@pytest.mark.parametrize(("rules", "entry", "made", "changes", "source"), KAISER_HANDS)
def test_kaiser_bid(
    rules: RuleSet, entry: object, made: bool, changes: PerTeam, source: str
) -> None:
    result = preview_hand(state_at(rules, 0, 0), entry)  # type: ignore[arg-type]
    assert (result.made, result.changes) == (made, changes), source


def test_steal_the_five_wins_scores_points_too() -> None:
    rules = STANDARD.with_changes(steal_the_five=StealTheFive.WINS)
    result = preview_hand(state_at(rules, 0, 45), played(N, 7, 6, EW, NS))
    assert result.changes == PerTeam(-7, 7)
