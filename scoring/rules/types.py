"""The vocabulary of the rules engine: seats, sides, suits, what a scorekeeper enters.

Pure Python: nothing here imports Django. These types are the contract between the rules
engine and the Django side (models store them; services pass them in).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import IntEnum, StrEnum


class Side(StrEnum):
    """A side of the table: North-South or East-West (the partnership seated there)."""

    NS = "ns"
    EW = "ew"

    @property
    def other(self) -> Side:
        return Side.EW if self is Side.NS else Side.NS


class Seat(IntEnum):
    """Seats in clockwise order; the player to a seat's left is the next one clockwise."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def team(self) -> Side:
        return Side.NS if self in (Seat.NORTH, Seat.SOUTH) else Side.EW

    @property
    def left(self) -> Seat:
        """The next seat clockwise: the next dealer, the first to bid."""
        return Seat((self.value + 1) % 4)

    @property
    def partner(self) -> Seat:
        return Seat((self.value + 2) % 4)


class Suit(StrEnum):
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"


class Contract(StrEnum):
    """How the winning bid is played."""

    TRUMP = "trump"
    NO_TRUMP = "no_trump"
    LOW_NO_TRUMP = "low_no_trump"
    KAISER = "kaiser"


class HandKind(StrEnum):
    PLAYED = "played"
    MISDEAL = "misdeal"


class MisdealReason(StrEnum):
    NO_HONOURS = "no_honours"  # pagat: no ace, no face card, no 5♥, no 3♠
    NO_FACE_CARD = "no_face_card"  # club sheet: not one face card (aces count)
    FOUR_OF_A_KIND = "four_of_a_kind"  # all four 8s, 9s or 10s
    ALL_PASS = "all_pass"  # everyone passed and the dealer may pass too


class EndReason(StrEnum):
    TARGET = "target"
    MINUS_LINE = "minus_line"
    KAISER_BID = "kaiser_bid"
    STEAL_THE_FIVE = "steal_the_five"
    TIME = "time"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class HandEntry:
    """What a scorekeeper records for one hand (docs/rules.md, "Recording a hand").

    The dealer is not entered: the engine knows whose deal it is. For a misdeal only
    ``kind`` and ``misdeal_reason`` matter. ``completed_at`` is when the hand was finished at
    the table; the clock rule uses it to place the hand before or after time was called.
    """

    kind: HandKind = HandKind.PLAYED
    bidder: Seat | None = None
    bid: int | None = None
    contract: Contract = Contract.TRUMP
    trump: Suit | None = None
    forced: bool = False
    bidding_team_tricks: int | None = None
    five_hearts: Side | None = None
    three_spades: Side | None = None
    bidder_tricks: int | None = None
    misdeal_reason: MisdealReason | None = None
    completed_at: datetime | None = None
