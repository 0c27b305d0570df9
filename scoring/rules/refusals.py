"""Refusals: why the rules engine will not take an entry or an option, as sentences.

A :class:`Refusal` is data (a code, the field it concerns, parameters); its
:attr:`Refusal.template` is the English template of its code in :data:`MESSAGES`, marked
``N_`` with named ``%(placeholders)s``, and :attr:`Refusal.message` fills it in English. A
parameter is an ``int``, a ``str`` (a value as entered) or a :class:`Term` (a name the engine
says: a team, a seat, a contract). The Django side renders a refusal (template and params)
in the reader's language (``kaiser_club.sentences.render``).

The engine's errors form one family, :class:`RulesError`, each carrying its refusals:
:class:`HandRefused` (a hand the game cannot take), :class:`RuleSetInvalid` (an inconsistent
rule set, also a ``ValueError``) and :class:`UnknownPreset` (also a ``KeyError``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from types import MappingProxyType

from scoring.rules.terms import N_, Term
from scoring.rules.types import Contract, MisdealReason, Seat, Side

TEAM_NAMES: Mapping[Side, Term] = MappingProxyType(
    {Side.NS: Term(N_("North–South")), Side.EW: Term(N_("East–West"))}
)
SEAT_NAMES: Mapping[Seat, Term] = MappingProxyType(
    {
        Seat.NORTH: Term(N_("North")),
        Seat.EAST: Term(N_("East")),
        Seat.SOUTH: Term(N_("South")),
        Seat.WEST: Term(N_("West")),
    }
)
CONTRACT_NAMES: Mapping[Contract, Term] = MappingProxyType(
    {
        Contract.TRUMP: Term(N_("A bid in a suit")),
        Contract.NO_TRUMP: Term(N_("A no-trump bid")),
        Contract.LOW_NO_TRUMP: Term(N_("A low no-trump bid")),
        Contract.KAISER: Term(N_("A Kaiser bid")),
    }
)
MISDEAL_REASON_NAMES: Mapping[MisdealReason, Term] = MappingProxyType(
    {
        MisdealReason.NO_HONOURS: Term(N_("a hand with no ace, no face card, no 5♥ and no 3♠")),
        MisdealReason.NO_FACE_CARD: Term(N_("a hand without a face card")),
        MisdealReason.FOUR_OF_A_KIND: Term(N_("a hand with all four 8s, 9s or 10s")),
        MisdealReason.ALL_PASS: Term(N_("everyone passing")),
    }
)

MESSAGES: Mapping[str, str] = MappingProxyType(
    {
        # The game as a whole.
        "game_over": N_("This game is over: %(winner)s won."),
        "time_over": N_(
            "Time is up and the hand in play is finished: %(winner)s won on time, "
            "so no more hands are played."
        ),
        # A misdeal.
        "misdeal_not_allowed": N_(
            "This game has no misdeals (tournament rules): every hand is played, "
            "so enter the bid and the tricks."
        ),
        "misdeal_reason_required": N_("Enter why the hand was thrown in."),
        "misdeal_reason_not_allowed": N_("This game does not allow a misdeal for %(reason)s."),
        "misdeal_reason_on_played_hand": N_(
            "A played hand has no misdeal reason; leave the reason empty or record a misdeal."
        ),
        # The bid.
        "bidder_required": N_("Enter who won the bidding."),
        "bid_required": N_("Enter the bid."),
        "bid_below_minimum": N_("Bid %(bid)s is below this game's minimum of %(minimum)s."),
        "bid_above_maximum": N_("Bid %(bid)s is above this game's maximum of %(maximum)s."),
        "kaiser_bid_not_allowed": N_("This game does not allow a Kaiser bid."),
        "kaiser_bid_must_be_12": N_("A Kaiser bid is a bid of 12, not %(bid)s."),
        "no_trump_not_allowed": N_("This game has no no-trump bids: choose a trump suit."),
        "low_no_trump_not_allowed": N_("This game has no low no-trump bids."),
        "trump_required": N_("Choose the trump suit for a bid in a suit."),
        "trump_not_allowed": N_("%(contract)s has no trump suit: leave the trump suit empty."),
        "forced_not_dealer": N_(
            "A forced bid is the dealer's: %(dealer)s deals this hand, not %(bidder)s."
        ),
        "forced_not_minimum": N_(
            "A forced bid is exactly the minimum of %(minimum)s, not %(bid)s."
        ),
        "forced_not_allowed": N_(
            "In this game the dealer may pass too and the hand is a misdeal, "
            "so there are no forced bids: record a misdeal instead."
        ),
        # The tricks and the two scoring cards.
        "tricks_required": N_("Enter how many tricks the bidding team took."),
        "tricks_out_of_range": N_("The bidding team took %(tricks)s tricks? A team takes 0 to 8."),
        "card_holder_required": N_("Enter which team took the %(card)s."),
        "card_without_tricks": N_(
            "%(team)s took no tricks, so it cannot have taken the %(card)s: "
            "%(other)s took all eight tricks and both cards."
        ),
        "bidder_tricks_required": N_("Enter how many tricks the Kaiser bidder took alone."),
        "bidder_tricks_out_of_range": N_(
            "The bidder took %(bidder_tricks)s tricks alone? The team took %(tricks)s, "
            "so the bidder took 0 to %(tricks)s."
        ),
        "bidder_tricks_not_allowed": N_(
            "Tricks taken by the bidder alone are entered only for a Kaiser bid: leave them empty."
        ),
        # Rule sets and presets.
        "unknown_preset": N_("There is no preset named '%(name)s'; the presets are: %(choices)s."),
        "unknown_option": N_("There is no rule option named '%(option)s'."),
        "wrong_type": N_("The %(option)s must be %(expected)s; '%(value)s' is not."),
        "invalid_choice": N_(
            "'%(value)s' is not a choice for the %(option)s; the choices are: %(choices)s."
        ),
        "min_bid_out_of_range": N_("The minimum bid must be from 1 to 12, not %(min_bid)s."),
        "max_bid_out_of_range": N_(
            "The maximum bid must be from the minimum bid (%(min_bid)s) to 12, not %(max_bid)s."
        ),
        "target_out_of_range": N_("The target must be at least 1 point, not %(target)s."),
        "raised_target_not_above_target": N_(
            "The raised target (%(raised_target)s) must be above the target (%(target)s)."
        ),
        "raised_target_without_no_trump": N_(
            "The target rises only after a made no-trump bid, "
            "but these rules have no no-trump bids."
        ),
        "bid_out_line_not_positive": N_("The bid-out line must be above 0, not %(line)s."),
        "bid_out_line_not_below_target": N_(
            "The bid-out line (%(line)s) must be below the target (%(target)s)."
        ),
        "raised_bid_out_line_without_raised_target": N_(
            "A raised bid-out line needs a raised target to go with it."
        ),
        "raised_bid_out_line_without_bid_out_line": N_(
            "A raised bid-out line needs a bid-out line to raise."
        ),
        "raised_bid_out_line_not_above_line": N_(
            "The raised bid-out line (%(raised_line)s) must be above the bid-out line (%(line)s)."
        ),
        "raised_bid_out_line_not_below_target": N_(
            "The raised bid-out line (%(raised_line)s) must be below the raised target "
            "(%(raised_target)s)."
        ),
        "steal_the_five_without_bid_out": N_(
            "Stealing the five only helps a team that is bid out, "
            "but these rules have no bid-out line."
        ),
        "time_limit_out_of_range": N_("The time limit must be at least 1 minute, not %(minutes)s."),
        "card_value_negative": N_("The %(card)s value must be 0 or more, not %(value)s."),
        "card_value_too_high": N_("The %(card)s value can be at most %(most)s, not %(value)s."),
        "points_too_high": N_("The %(option)s can be at most %(most)s points, not %(value)s."),
        "time_limit_too_long": N_(
            "The time limit can be at most %(most)s minutes, not %(minutes)s."
        ),
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
    def template(self) -> str:
        return MESSAGES[self.code]

    @property
    def message(self) -> str:
        """In English."""
        return self.template % {
            name: str(value) if isinstance(value, Term) else value
            for name, value in self.params.items()
        }

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
