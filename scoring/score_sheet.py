"""A game's score sheet, one row per hand, worded once for every page that shows it: the club's
game page, the organiser's game page, the public game page, the table page and the PDF.

Every surface renders ``templates/scoring/_score_sheet.html`` with the ``ScoreSheet`` built
here; what differs between them (a link to correct each hand for an organiser, the hand waiting
for confirmation at the table, the paper's columns for the changes and the totals) is a
parameter of ``score_sheet``, not another template."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from .choices import ContractChoice, HandKindChoice, HandStatus, TeamChoice
from .models import Game, Hand
from .rows_and_rules import game_rules

SUIT_SIGNS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}


def seat_name(seat: int) -> str:
    return [_("North"), _("East"), _("South"), _("West")][seat]


def seat_letter(seat: int) -> str:
    return [_("N"), _("E"), _("S"), _("W")][seat]


def team_short(team: str) -> str:
    return _("N–S") if team == TeamChoice.NS else _("E–W")


def contract_label(bid: int | None, contract: str, trump: str) -> str:
    """A bid as a sheet writes it: "7 ♣", "9 NT", "8 low NT", "Kaiser"."""
    if contract == ContractChoice.KAISER:
        return _("Kaiser")
    if contract == ContractChoice.NO_TRUMP:
        return f"{bid} {_('NT')}"
    if contract == ContractChoice.LOW_NO_TRUMP:
        return f"{bid} {_('low NT')}"
    return f"{bid} {SUIT_SIGNS.get(trump, '')}".strip()


@dataclass(frozen=True)
class SheetRow:
    """One hand on the sheet, its words in the reader's language."""

    number: int
    dealer: str  # the dealer's seat, as a letter
    misdeal: bool
    bidder: str  # the bidder's seat, in a word; "" for a misdeal
    contract: str
    forced: bool
    made: bool | None  # None for a misdeal
    tricks: int | None  # the bidding partnership's
    five: str  # the partnership that took the good card (5♥ or the rules' own), or ""
    three: str  # the bad card's
    ns_change: int
    ew_change: int
    ns_score: int
    ew_score: int
    after_time: bool
    pending: bool  # waiting for the other partnership to confirm it: no score counted yet


@dataclass(frozen=True)
class ScoreSheet:
    rows: tuple[SheetRow, ...]
    good_card: str  # the columns' headings, the rules' names of the two cards
    bad_card: str
    corrections: bool = False  # each hand's number links to its correction (the organiser's)
    paper: bool = False  # each side's change and total in columns of their own (the PDF)

    @property
    def columns(self) -> int:
        return 10 if self.paper else 8

    @property
    def late_hands(self) -> bool:
        return any(row.after_time for row in self.rows)


def sheet_row(hand: Hand) -> SheetRow:
    misdeal = hand.kind == HandKindChoice.MISDEAL
    return SheetRow(
        number=hand.number,
        dealer=seat_letter(hand.dealer),
        misdeal=misdeal,
        bidder=seat_name(hand.bidder) if hand.bidder is not None and not misdeal else "",
        contract="" if misdeal else contract_label(hand.bid, hand.contract, hand.trump),
        forced=hand.forced and not misdeal,
        made=None if misdeal else hand.made,
        tricks=None if misdeal else hand.bidding_team_tricks,
        five=team_short(hand.five_hearts) if hand.five_hearts else "",
        three=team_short(hand.three_spades) if hand.three_spades else "",
        ns_change=hand.ns_change,
        ew_change=hand.ew_change,
        ns_score=hand.ns_score,
        ew_score=hand.ew_score,
        after_time=hand.after_time,
        pending=hand.status == HandStatus.PENDING,
    )


def score_sheet_rows(hands: Iterable[Hand]) -> list[SheetRow]:
    """The rows of ``hands``, in the order given (a reader gives them by number)."""
    return [sheet_row(hand) for hand in hands]


def score_sheet(
    game: Game,
    hands: Iterable[Hand],
    *,
    pending: Hand | None = None,
    corrections: bool = False,
    paper: bool = False,
) -> ScoreSheet:
    """The sheet of ``game`` from its confirmed ``hands``; ``pending``, the hand waiting for
    confirmation, last (the table page only: no other reader sees it before it counts)."""
    rules = game_rules(game)
    rows = score_sheet_rows([*hands, *([pending] if pending is not None else [])])
    return ScoreSheet(
        rows=tuple(rows),
        good_card=rules.good_card,
        bad_card=rules.bad_card,
        corrections=corrections,
        paper=paper,
    )
