"""The score sheet's rows as every page shows them (scoring/score_sheet.py): a no-trump bid, a
set, a team bid out, a team down to −52, a misdeal, a forced bid, a hand waiting for
confirmation, in the reader's language."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from scoring.models import Hand
from scoring.rules import Contract, MisdealReason, Suit
from scoring.score_sheet import SheetRow, score_sheet
from tests.factories import start_game
from tests.scoring.hands import EW, NS, E, N, S, W, misdeal, played, record

pytestmark = pytest.mark.django_db


def hands_of(game_id: int) -> list[Hand]:
    return list(Hand.objects.filter(game_id=game_id).order_by("number"))


def test_a_no_trump_bid_and_a_team_bid_out() -> None:
    game = start_game()  # tournament: target 52, bid out at 47, no-trump doubles the points
    # South bids 8 no-trump, takes every trick and both cards: 8 + 5 − 3 = 10, doubled: +20.
    record(game, played(S, 8, 8, NS, NS, contract=Contract.NO_TRUMP))
    record(game, played(S, 8, 8, NS, NS, contract=Contract.NO_TRUMP))
    record(game, played(N, 7, 5, NS, EW))  # 5 tricks + 5♥ = 10: made, N–S at 50, bid out
    # East bids 7♠ and makes it with 6 tricks and both cards (6 + 5 − 3 = 8); N–S, bid out
    # and defending, score nothing for their 2 tricks.
    record(game, played(E, 7, 6, EW, EW, trump=Suit.SPADES))
    sheet = score_sheet(game, hands_of(game.id))
    assert sheet.rows[0] == SheetRow(
        number=1,
        dealer="N",
        misdeal=False,
        bidder="South",
        contract="8 NT",
        forced=False,
        made=True,
        tricks=8,
        five="N–S",
        three="N–S",
        ns_change=20,
        ew_change=0,
        ns_score=20,
        ew_score=0,
        after_time=False,
        pending=False,
    )
    assert [(r.contract, r.made, r.ns_score, r.ew_score) for r in sheet.rows] == [
        ("8 NT", True, 20, 0),
        ("8 NT", True, 40, 0),
        ("7 ♣", True, 50, 0),
        ("7 ♠", True, 50, 8),
    ]
    assert (sheet.rows[3].bidder, sheet.rows[3].ns_change, sheet.rows[3].ew_change) == (
        "East",
        0,
        8,
    )
    assert [r.dealer for r in sheet.rows] == ["N", "E", "S", "W"]
    assert (sheet.good_card, sheet.bad_card, sheet.columns) == ("5♥", "3♠", 8)


def test_a_team_set_down_to_minus_52() -> None:
    game = start_game()  # a team at −52 loses
    record(game, played(E, 12, 0, NS, NS, contract=Contract.NO_TRUMP))  # set: −12, doubled
    record(game, played(W, 12, 0, NS, NS, contract=Contract.NO_TRUMP))
    record(game, played(S, 7, 8, NS, NS))  # made: +10
    record(game, played(W, 7, 0, NS, NS, forced=True))  # West deals, forced to 7, no trick: −7
    rows = score_sheet(game, hands_of(game.id)).rows
    assert [(r.bidder, r.contract, r.made, r.ew_change, r.ew_score) for r in rows] == [
        ("East", "12 NT", False, -24, -24),
        ("West", "12 NT", False, -24, -48),
        ("South", "7 ♣", True, 0, -48),
        ("West", "7 ♣", False, -7, -55),
    ]
    assert rows[3].forced and not rows[0].forced
    game.refresh_from_db()
    assert game.status == "finished" and game.ew_score == -55


def test_a_misdeal_has_no_bid_and_the_cards_and_words_follow_the_rules_and_the_reader() -> None:
    game = start_game(preset_name="club")
    record(game, misdeal(MisdealReason.NO_FACE_CARD))
    record(game, played(E, 7, 5, EW, NS, trump=Suit.HEARTS))
    with translation.override("fr"):
        rows = score_sheet(game, hands_of(game.id)).rows
    assert rows[0].misdeal and (rows[0].bidder, rows[0].contract, rows[0].made) == ("", "", None)
    assert rows[0].tricks is None and rows[0].ns_change == 0 == rows[0].ew_change
    assert (rows[1].dealer, rows[1].bidder, rows[1].contract) == ("E", "Est", "7 ♥")
    assert (rows[1].five, rows[1].three) == ("E–O", "N–S")


def test_the_table_sees_its_waiting_hand_last_and_an_organiser_gets_links_the_paper_totals() -> (
    None
):
    game = start_game()
    record(game, played(N, 7, 5, NS, EW))
    waiting = record(game, played(E, 7, 5, EW, NS), pending=True, entered_by_seat=1).hand
    assert waiting.status == "pending"
    sheet = score_sheet(game, hands_of(game.id), pending=waiting)
    assert [(r.number, r.pending) for r in sheet.rows] == [(1, False), (2, True)]
    assert score_sheet(game, hands_of(game.id), corrections=True).columns == 8
    paper = score_sheet(game, hands_of(game.id), paper=True)
    assert paper.columns == 10 and not paper.late_hands


def test_a_hand_played_after_time_is_marked_with_the_footnote_that_says_so() -> None:
    game = start_game()
    record(game, played(N, 7, 5, NS, EW))
    record(game, played(E, 7, 5, EW, NS))
    Hand.objects.filter(game=game, number=2).update(after_time=True)
    sheet = score_sheet(game, hands_of(game.id))
    assert sheet.late_hands and [r.after_time for r in sheet.rows] == [False, True]
    html = render_to_string("scoring/_score_sheet.html", {"sheet": sheet})
    assert '<tr data-number="2" class="after-time">' in html and "<td>2*</td>" in html
    assert "* played after time was called." in html
    assert "* played" not in render_to_string(
        "scoring/_score_sheet.html", {"sheet": score_sheet(game, hands_of(game.id)[:1])}
    )
