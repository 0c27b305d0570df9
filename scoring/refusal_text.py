"""The rules engine's refusals in the reader's language.

The engine (``scoring.rules``, no Django) gives each refusal a code and plain parameters, and
fills an English template from ``scoring.rules.MESSAGES``. Here every code has the same
template marked for translation, with the same ``{placeholders}``; the English ``msgid`` is
the engine's text itself, so English answers are unchanged. Parameters that are names the
engine prints in English (teams, seats, contracts, misdeal reasons, rule options) are
translated too.

``refusal_message(refusal)`` gives the sentence in the active language (the request's, under
``LocaleMiddleware``), which is what ``HandNotAccepted`` sends to the API and the table page.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .rules import Refusal

TEMPLATES: Mapping[str, Promise] = {
    # The game as a whole.
    "game_over": _("This game is over: {winner} won."),
    "time_over": _(
        "Time is up and the hand in play is finished: {winner} won on time, "
        "so no more hands are played."
    ),
    # A misdeal.
    "misdeal_not_allowed": _(
        "This game has no misdeals (tournament rules): every hand is played, "
        "so enter the bid and the tricks."
    ),
    "misdeal_reason_required": _("Enter why the hand was thrown in."),
    "misdeal_reason_not_allowed": _("This game does not allow a misdeal for {reason}."),
    "misdeal_reason_on_played_hand": _(
        "A played hand has no misdeal reason; leave the reason empty or record a misdeal."
    ),
    # The bid.
    "bidder_required": _("Enter who won the bidding."),
    "bid_required": _("Enter the bid."),
    "bid_below_minimum": _("Bid {bid} is below this game's minimum of {minimum}."),
    "bid_above_maximum": _("Bid {bid} is above this game's maximum of {maximum}."),
    "kaiser_bid_not_allowed": _("This game does not allow a Kaiser bid."),
    "kaiser_bid_must_be_12": _("A Kaiser bid is a bid of 12, not {bid}."),
    "no_trump_not_allowed": _("This game has no no-trump bids: choose a trump suit."),
    "low_no_trump_not_allowed": _("This game has no low no-trump bids."),
    "trump_required": _("Choose the trump suit for a bid in a suit."),
    "trump_not_allowed": _("{contract} has no trump suit: leave the trump suit empty."),
    "forced_not_dealer": _("A forced bid is the dealer's: {dealer} deals this hand, not {bidder}."),
    "forced_not_minimum": _("A forced bid is exactly the minimum of {minimum}, not {bid}."),
    "forced_not_allowed": _(
        "In this game the dealer may pass too and the hand is a misdeal, "
        "so there are no forced bids: record a misdeal instead."
    ),
    # The tricks and the two scoring cards.
    "tricks_required": _("Enter how many tricks the bidding team took."),
    "tricks_out_of_range": _("The bidding team took {tricks} tricks? A team takes 0 to 8."),
    "card_holder_required": _("Enter which team took the {card}."),
    "card_without_tricks": _(
        "{team} took no tricks, so it cannot have taken the {card}: "
        "{other} took all eight tricks and both cards."
    ),
    "bidder_tricks_required": _("Enter how many tricks the Kaiser bidder took alone."),
    "bidder_tricks_out_of_range": _(
        "The bidder took {bidder_tricks} tricks alone? The team took {tricks}, "
        "so the bidder took 0 to {tricks}."
    ),
    "bidder_tricks_not_allowed": _(
        "Tricks taken by the bidder alone are entered only for a Kaiser bid: leave them empty."
    ),
    # Rule sets and presets.
    "unknown_preset": _("There is no preset named '{name}'; the presets are: {choices}."),
    "unknown_option": _("There is no rule option named '{option}'."),
    "wrong_type": _("The {option} must be {expected}; '{value}' is not."),
    "invalid_choice": _("'{value}' is not a choice for the {option}; the choices are: {choices}."),
    "min_bid_out_of_range": _("The minimum bid must be from 1 to 12, not {min_bid}."),
    "max_bid_out_of_range": _(
        "The maximum bid must be from the minimum bid ({min_bid}) to 12, not {max_bid}."
    ),
    "target_out_of_range": _("The target must be at least 1 point, not {target}."),
    "raised_target_not_above_target": _(
        "The raised target ({raised_target}) must be above the target ({target})."
    ),
    "raised_target_without_no_trump": _(
        "The target rises only after a made no-trump bid, but these rules have no no-trump bids."
    ),
    "bid_out_line_not_positive": _("The bid-out line must be above 0, not {line}."),
    "bid_out_line_not_below_target": _(
        "The bid-out line ({line}) must be below the target ({target})."
    ),
    "raised_bid_out_line_without_raised_target": _(
        "A raised bid-out line needs a raised target to go with it."
    ),
    "raised_bid_out_line_without_bid_out_line": _(
        "A raised bid-out line needs a bid-out line to raise."
    ),
    "raised_bid_out_line_not_above_line": _(
        "The raised bid-out line ({raised_line}) must be above the bid-out line ({line})."
    ),
    "raised_bid_out_line_not_below_target": _(
        "The raised bid-out line ({raised_line}) must be below the raised target ({raised_target})."
    ),
    "steal_the_five_without_bid_out": _(
        "Stealing the five only helps a team that is bid out, but these rules have no bid-out line."
    ),
    "time_limit_out_of_range": _("The time limit must be at least 1 minute, not {minutes}."),
    "card_value_negative": _("The {card} value must be 0 or more, not {value}."),
    "card_value_too_high": _("The {card} value can be at most {most}, not {value}."),
    "points_too_high": _("The {option} can be at most {most} points, not {value}."),
    "time_limit_too_long": _("The time limit can be at most {most} minutes, not {minutes}."),
}

# Names the engine puts into its sentences in English (scoring.rules.refusals' *_NAMES,
# scoring.rules.ruleset.OPTION_LABELS and the expected types of an option).
PARAM_VALUES: Mapping[str, Promise] = {
    # Teams and seats.
    "North-South": _("North-South"),
    "East-West": _("East-West"),
    "North": _("North"),
    "East": _("East"),
    "South": _("South"),
    "West": _("West"),
    # Contracts (they open a sentence).
    "A bid in a suit": _("A bid in a suit"),
    "A no-trump bid": _("A no-trump bid"),
    "A low no-trump bid": _("A low no-trump bid"),
    "A Kaiser bid": _("A Kaiser bid"),
    # Misdeal reasons.
    "a hand with no ace, no face card, no 5♥ and no 3♠": _(
        "a hand with no ace, no face card, no 5♥ and no 3♠"
    ),
    "a hand without a face card": _("a hand without a face card"),
    "a hand with all four 8s, 9s or 10s": _("a hand with all four 8s, 9s or 10s"),
    "everyone passing": _("everyone passing"),
    # Rule options.
    "rule set name": _("rule set name"),
    "rule set title": _("rule set title"),
    "minimum bid": _("minimum bid"),
    "maximum bid": _("maximum bid"),
    "no-trump bids": _("no-trump bids"),
    "target": _("target"),
    "raised target": _("raised target"),
    "bid-out line": _("bid-out line"),
    "raised bid-out line": _("raised bid-out line"),
    "steal-the-five rule": _("steal-the-five rule"),
    "minus-target-loses rule": _("minus-target-loses rule"),
    "bid-to-win rule": _("bid-to-win rule"),
    "no-overtricks rule": _("no-overtricks rule"),
    "Kaiser bid": _("Kaiser bid"),
    "three-of-spades rule": _("three-of-spades rule"),
    "misdeals": _("misdeals"),
    "redeal after a misdeal": _("redeal after a misdeal"),
    "rule for both teams reaching the target": _("rule for both teams reaching the target"),
    "time limit": _("time limit"),
    "good card": _("good card"),
    "bad card": _("bad card"),
    "good card's name": _("good card's name"),
    "bad card's name": _("bad card's name"),
    # What an option must be.
    "text": _("text"),
    "a whole number": _("a whole number"),
    "a whole number or empty": _("a whole number or empty"),
    "true or false": _("true or false"),
}


def _param(value: object) -> object:
    if isinstance(value, str) and value in PARAM_VALUES:
        return str(PARAM_VALUES[value])
    return value


def refusal_message(refusal: Refusal) -> str:
    """The refusal's sentence in the active language (English: the engine's own text)."""
    template = TEMPLATES.get(refusal.code)
    if template is None:  # a code added to the engine and not yet here: its English text
        return refusal.message
    params = {name: _param(value) for name, value in refusal.params.items()}
    return str(template).format(**params)
