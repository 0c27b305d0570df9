"""Refusals: why the rules engine will not take an entry or an option, as sentences.

A :class:`Refusal` is data (a code, the field it concerns, plain parameters); its
:attr:`Refusal.message` fills the English template of its code from :data:`MESSAGES`. The
Django side translates the same templates by code, so every code has a template here and
every parameter is a plain ``int`` or ``str``.

The engine's errors form one family, :class:`RulesError`, each carrying its refusals:
:class:`HandRefused` (a hand the game cannot take), :class:`RuleSetInvalid` (an inconsistent
rule set, also a ``ValueError``) and :class:`UnknownPreset` (also a ``KeyError``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from types import MappingProxyType

from scoring.rules.types import Contract, MisdealReason, Seat, Team

TEAM_NAMES: Mapping[Team, str] = MappingProxyType({Team.NS: "North-South", Team.EW: "East-West"})
SEAT_NAMES: Mapping[Seat, str] = MappingProxyType(
    {Seat.NORTH: "North", Seat.EAST: "East", Seat.SOUTH: "South", Seat.WEST: "West"}
)
CONTRACT_NAMES: Mapping[Contract, str] = MappingProxyType(
    {
        Contract.TRUMP: "A bid in a suit",
        Contract.NO_TRUMP: "A no-trump bid",
        Contract.LOW_NO_TRUMP: "A low no-trump bid",
        Contract.KAISER: "A Kaiser bid",
    }
)
MISDEAL_REASON_NAMES: Mapping[MisdealReason, str] = MappingProxyType(
    {
        MisdealReason.NO_HONOURS: "a hand with no ace, no face card, no 5♥ and no 3♠",
        MisdealReason.NO_FACE_CARD: "a hand without a face card",
        MisdealReason.FOUR_OF_A_KIND: "a hand with all four 8s, 9s or 10s",
        MisdealReason.ALL_PASS: "everyone passing",
    }
)

MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        # The game as a whole.
        "game_over": "This game is over: {winner} won.",
        "time_over": (
            "Time is up and the hand in play is finished: {winner} won on time, "
            "so no more hands are played."
        ),
        # A misdeal.
        "misdeal_not_allowed": (
            "This game has no misdeals (tournament rules): every hand is played, "
            "so enter the bid and the tricks."
        ),
        "misdeal_reason_required": "Enter why the hand was thrown in.",
        "misdeal_reason_not_allowed": "This game does not allow a misdeal for {reason}.",
        "misdeal_reason_on_played_hand": (
            "A played hand has no misdeal reason; leave the reason empty or record a misdeal."
        ),
        # The bid.
        "bidder_required": "Enter who won the bidding.",
        "bid_required": "Enter the bid.",
        "bid_below_minimum": "Bid {bid} is below this game's minimum of {minimum}.",
        "bid_above_maximum": "Bid {bid} is above this game's maximum of {maximum}.",
        "kaiser_bid_not_allowed": "This game does not allow a Kaiser bid.",
        "kaiser_bid_must_be_12": "A Kaiser bid is a bid of 12, not {bid}.",
        "no_trump_not_allowed": "This game has no no-trump bids: choose a trump suit.",
        "low_no_trump_not_allowed": "This game has no low no-trump bids.",
        "trump_required": "Choose the trump suit for a bid in a suit.",
        "trump_not_allowed": "{contract} has no trump suit: leave the trump suit empty.",
        "forced_not_dealer": (
            "A forced bid is the dealer's: {dealer} deals this hand, not {bidder}."
        ),
        "forced_not_minimum": "A forced bid is exactly the minimum of {minimum}, not {bid}.",
        "forced_not_allowed": (
            "In this game the dealer may pass too and the hand is a misdeal, "
            "so there are no forced bids: record a misdeal instead."
        ),
        # The tricks and the two scoring cards.
        "tricks_required": "Enter how many tricks the bidding team took.",
        "tricks_out_of_range": "The bidding team took {tricks} tricks? A team takes 0 to 8.",
        "card_holder_required": "Enter which team took the {card}.",
        "card_without_tricks": (
            "{team} took no tricks, so it cannot have taken the {card}: "
            "{other} took all eight tricks and both cards."
        ),
        "bidder_tricks_required": "Enter how many tricks the Kaiser bidder took alone.",
        "bidder_tricks_out_of_range": (
            "The bidder took {bidder_tricks} tricks alone? The team took {tricks}, "
            "so the bidder took 0 to {tricks}."
        ),
        "bidder_tricks_not_allowed": (
            "Tricks taken by the bidder alone are entered only for a Kaiser bid: leave them empty."
        ),
        # Rule sets and presets.
        "unknown_preset": "There is no preset named '{name}'; the presets are: {choices}.",
        "unknown_option": "There is no rule option named '{option}'.",
        "wrong_type": "The {option} must be {expected}; '{value}' is not.",
        "invalid_choice": (
            "'{value}' is not a choice for the {option}; the choices are: {choices}."
        ),
        "min_bid_out_of_range": "The minimum bid must be from 1 to 12, not {min_bid}.",
        "max_bid_out_of_range": (
            "The maximum bid must be from the minimum bid ({min_bid}) to 12, not {max_bid}."
        ),
        "target_out_of_range": "The target must be at least 1 point, not {target}.",
        "raised_target_not_above_target": (
            "The raised target ({raised_target}) must be above the target ({target})."
        ),
        "raised_target_without_no_trump": (
            "The target rises only after a made no-trump bid, "
            "but these rules have no no-trump bids."
        ),
        "bid_out_line_not_positive": "The bid-out line must be above 0, not {line}.",
        "bid_out_line_not_below_target": (
            "The bid-out line ({line}) must be below the target ({target})."
        ),
        "raised_bid_out_line_without_raised_target": (
            "A raised bid-out line needs a raised target to go with it."
        ),
        "raised_bid_out_line_without_bid_out_line": (
            "A raised bid-out line needs a bid-out line to raise."
        ),
        "raised_bid_out_line_not_above_line": (
            "The raised bid-out line ({raised_line}) must be above the bid-out line ({line})."
        ),
        "raised_bid_out_line_not_below_target": (
            "The raised bid-out line ({raised_line}) must be below the raised target "
            "({raised_target})."
        ),
        "steal_the_five_without_bid_out": (
            "Stealing the five only helps a team that is bid out, "
            "but these rules have no bid-out line."
        ),
        "time_limit_out_of_range": "The time limit must be at least 1 minute, not {minutes}.",
        "card_value_negative": "The {card} value must be 0 or more, not {value}.",
        "card_value_too_high": "The {card} value can be at most {most}, not {value}.",
        "points_too_high": "The {option} can be at most {most} points, not {value}.",
        "time_limit_too_long": "The time limit can be at most {most} minutes, not {minutes}.",
    }
)


@dataclass(frozen=True)
class Refusal:
    """One reason why an entry or an option is refused.

    ``field`` names the attribute concerned (a ``HandEntry`` or ``RuleSet`` attribute), or
    is ``None`` for the game as a whole.
    """

    code: str
    field: str | None = None
    params: Mapping[str, object] = dataclass_field(default_factory=dict)

    @property
    def message(self) -> str:
        return MESSAGES[self.code].format(**self.params)

    def __str__(self) -> str:
        return self.message


class RulesError(Exception):
    """The family of the rules engine's errors; each carries the refusals behind it."""

    def __init__(self, refusals: Iterable[Refusal]) -> None:
        self.refusals: tuple[Refusal, ...] = tuple(refusals)
        super().__init__(str(self))

    def __str__(self) -> str:
        return " ".join(refusal.message for refusal in self.refusals)


class HandRefused(RulesError):
    """A hand the game cannot take, with every reason."""


class RuleSetInvalid(RulesError, ValueError):
    """A rule set with an unknown option, a wrong value or options that contradict."""


class UnknownPreset(RulesError, KeyError):
    """No preset of that name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return RulesError.__str__(self)
