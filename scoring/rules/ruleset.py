"""The rule set: every option of docs/rules.md, "Rule-set options", as a typed, immutable
value.

Every field defaults to the "standard" preset (pagat's rules), so ``RuleSet()`` is that
preset and :meth:`RuleSet.from_dict` fills missing keys from it. A game keeps its own copy
(``to_dict()`` is JSON-safe), so changing a preset never changes a game under way.

Decisions where the sources are silent (docs/rules.md, "Decisions where the sources
disagree", explains those a player sees):

- ``from_dict`` and ``with_changes`` refuse contradictory options too (``problems()``), not
  only unknown keys and wrong values; a plain ``RuleSet(...)`` is not checked, so that
  ``problems()`` can say what is wrong with it.
- ``raised_bid_out_line`` ``None`` with a raised target means the bid-out line stays put.
- Stealing the five needs a bid-out line (it only ever helps a bid-out team).
- ``three_penalty`` is the size of the penalty (3), subtracted from the team that takes
  the bad card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from scoring.rules.refusals import Refusal, RuleSetInvalid
from scoring.rules.terms import N_, Term
from scoring.rules.types import MisdealReason


class NoTrump(StrEnum):
    NONE = "none"
    HIGH = "high"
    HIGH_AND_LOW = "high_and_low"


class StealTheFive(StrEnum):
    """What a bid-out defending team that takes the 5♥ gets."""

    OFF = "off"
    SCORES = "scores"  # the club sheet: it scores its points anyway
    WINS = "wins"  # pagat's "bid to win": it wins the game at once


class KaiserBid(StrEnum):
    OFF = "off"
    BIDDER_ALONE = "bidder_alone"  # the bidder alone takes 12 at no-trump; wins or loses
    TEAM = "team"  # the bidding team takes 12 at no-trump; wins or loses
    KAISER_40 = "kaiser_40"  # the bidder alone takes all 8 tricks; scores ±40


class MisdealRedeal(StrEnum):
    SAME_DEALER = "same_dealer"  # pagat
    PASSES_ON = "passes_on"  # the club sheet


class BothReachTarget(StrEnum):
    BIDDER = "bidder"  # pagat (Les Rois), every preset
    HIGHER = "higher"  # Denexa: the higher score wins (equal scores: the bidder)


OPTION_LABELS: Mapping[str, Term] = {
    "name": Term(N_("rule set name")),
    "title": Term(N_("rule set title")),
    "min_bid": Term(N_("minimum bid")),
    "max_bid": Term(N_("maximum bid")),
    "no_trump": Term(N_("no-trump bids")),
    "target": Term(N_("target")),
    "raised_target": Term(N_("raised target")),
    "bid_out_line": Term(N_("bid-out line")),
    "raised_bid_out_line": Term(N_("raised bid-out line")),
    "steal_the_five": Term(N_("steal-the-five rule")),
    "minus_line_loses": Term(N_("minus-target-loses rule")),
    "bid_to_win": Term(N_("bid-to-win rule")),
    "no_overtricks": Term(N_("no-overtricks rule")),
    "kaiser_bid": Term(N_("Kaiser bid")),
    "three_spades_needs_three_tricks": Term(N_("three-of-spades rule")),
    "misdeals": Term(N_("misdeals")),
    "misdeal_redeal": Term(N_("redeal after a misdeal")),
    "both_reach_target": Term(N_("rule for both teams reaching the target")),
    "time_limit_minutes": Term(N_("time limit")),
    "five_bonus": Term(N_("good card")),
    "three_penalty": Term(N_("bad card")),
    "good_card": Term(N_("good card's name")),
    "bad_card": Term(N_("bad card's name")),
}


# The largest values a rule set may hold: what keeps every hand's points and every score, target
# and clock storable (a hand's points are its tricks, 0 to 8, plus the good card's value or less
# the bad card's), and far beyond any Kaiser game played.
MAX_TARGET = 500
MAX_CARD_VALUE = 10
MAX_TIME_LIMIT_MINUTES = 600


@dataclass(frozen=True)
class RuleSet:
    name: str = "standard"
    title: str = "Standard (pagat)"
    min_bid: int = 6
    max_bid: int = 12
    no_trump: NoTrump = NoTrump.HIGH
    target: int = 52
    raised_target: int | None = None  # target after a made no-trump bid
    bid_out_line: int | None = 45
    raised_bid_out_line: int | None = None  # bid-out line once the target is raised
    steal_the_five: StealTheFive = StealTheFive.OFF
    minus_line_loses: bool = False  # a team at minus the starting target loses
    bid_to_win: bool = False  # the defenders can never win
    no_overtricks: bool = False
    kaiser_bid: KaiserBid = KaiserBid.OFF
    three_spades_needs_three_tricks: bool = False
    misdeals: frozenset[MisdealReason] = field(
        default_factory=lambda: frozenset({MisdealReason.NO_HONOURS})
    )
    misdeal_redeal: MisdealRedeal = MisdealRedeal.SAME_DEALER
    both_reach_target: BothReachTarget = BothReachTarget.BIDDER
    time_limit_minutes: int | None = None
    five_bonus: int = 5
    three_penalty: int = 3
    good_card: str = "5♥"
    bad_card: str = "3♠"

    @property
    def minus_line(self) -> int | None:
        """The score at or below which a team loses: minus the starting target, or None."""
        return -self.target if self.minus_line_loses else None

    @property
    def pass_out_is_misdeal(self) -> bool:
        """True when the dealer may pass too (a misdeal); otherwise the dealer is forced."""
        return MisdealReason.ALL_PASS in self.misdeals

    def problems(self) -> list[Refusal]:
        """Every contradiction between the options (empty when the rule set is sound)."""
        found: list[Refusal] = []
        min_bid_valid = 1 <= self.min_bid <= 12
        if not min_bid_valid:
            found.append(Refusal("min_bid_out_of_range", "min_bid", {"min_bid": self.min_bid}))
        if not 1 <= self.max_bid <= 12 or (min_bid_valid and self.max_bid < self.min_bid):
            found.append(
                Refusal(
                    "max_bid_out_of_range",
                    "max_bid",
                    {"min_bid": self.min_bid, "max_bid": self.max_bid},
                )
            )
        if self.target < 1:
            found.append(Refusal("target_out_of_range", "target", {"target": self.target}))
        for name in ("target", "raised_target", "bid_out_line", "raised_bid_out_line"):
            value = getattr(self, name)
            if value is not None and value > MAX_TARGET:
                params = {"option": OPTION_LABELS[name], "value": value, "most": MAX_TARGET}
                found.append(Refusal("points_too_high", name, params))
        if self.raised_target is not None:
            if self.raised_target <= self.target:
                found.append(
                    Refusal(
                        "raised_target_not_above_target",
                        "raised_target",
                        {"raised_target": self.raised_target, "target": self.target},
                    )
                )
            if self.no_trump is NoTrump.NONE:
                found.append(Refusal("raised_target_without_no_trump", "raised_target", {}))
        if self.bid_out_line is not None:
            if self.bid_out_line < 1:
                found.append(
                    Refusal(
                        "bid_out_line_not_positive", "bid_out_line", {"line": self.bid_out_line}
                    )
                )
            if self.bid_out_line >= self.target:
                found.append(
                    Refusal(
                        "bid_out_line_not_below_target",
                        "bid_out_line",
                        {"line": self.bid_out_line, "target": self.target},
                    )
                )
        if self.raised_bid_out_line is not None:
            found.extend(self._raised_line_problems(self.raised_bid_out_line))
        if self.steal_the_five is not StealTheFive.OFF and self.bid_out_line is None:
            found.append(Refusal("steal_the_five_without_bid_out", "steal_the_five", {}))
        if self.time_limit_minutes is not None and self.time_limit_minutes < 1:
            found.append(
                Refusal(
                    "time_limit_out_of_range",
                    "time_limit_minutes",
                    {"minutes": self.time_limit_minutes},
                )
            )
        if self.time_limit_minutes is not None and self.time_limit_minutes > MAX_TIME_LIMIT_MINUTES:
            found.append(
                Refusal(
                    "time_limit_too_long",
                    "time_limit_minutes",
                    {"minutes": self.time_limit_minutes, "most": MAX_TIME_LIMIT_MINUTES},
                )
            )
        for name, card in (("five_bonus", self.good_card), ("three_penalty", self.bad_card)):
            value = getattr(self, name)
            if value < 0:
                found.append(Refusal("card_value_negative", name, {"card": card, "value": value}))
            elif value > MAX_CARD_VALUE:
                found.append(
                    Refusal(
                        "card_value_too_high",
                        name,
                        {"card": card, "value": value, "most": MAX_CARD_VALUE},
                    )
                )
        return found

    def _raised_line_problems(self, raised_line: int) -> list[Refusal]:
        found: list[Refusal] = []
        where = "raised_bid_out_line"
        if self.raised_target is None:
            found.append(Refusal("raised_bid_out_line_without_raised_target", where, {}))
        elif raised_line >= self.raised_target:
            found.append(
                Refusal(
                    "raised_bid_out_line_not_below_target",
                    where,
                    {"raised_line": raised_line, "raised_target": self.raised_target},
                )
            )
        if self.bid_out_line is None:
            found.append(Refusal("raised_bid_out_line_without_bid_out_line", where, {}))
        elif raised_line <= self.bid_out_line:
            found.append(
                Refusal(
                    "raised_bid_out_line_not_above_line",
                    where,
                    {"raised_line": raised_line, "line": self.bid_out_line},
                )
            )
        return found

    def to_dict(self) -> dict[str, object]:
        """A JSON-safe copy: enums as their values, the misdeal reasons as a sorted list."""
        data: dict[str, object] = {}
        for spec in fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, frozenset):
                data[spec.name] = sorted(reason.value for reason in value)
            elif isinstance(value, StrEnum):
                data[spec.name] = value.value
            else:
                data[spec.name] = value
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> RuleSet:
        """Read a rule set; missing keys take the "standard" preset's values.

        Raises :class:`RuleSetInvalid` listing every unknown key, wrong value and
        contradiction.
        """
        refusals: list[Refusal] = []
        values: dict[str, Any] = {}
        for key, raw in data.items():
            parser = _PARSERS.get(key)
            if parser is None:
                refusals.append(Refusal("unknown_option", key, {"option": key}))
                continue
            parsed = parser(key, raw)
            if isinstance(parsed, Refusal):
                refusals.append(parsed)
            else:
                values[key] = parsed
        if refusals:
            raise RuleSetInvalid(refusals)
        rules = cls(**values)
        problems = rules.problems()
        if problems:
            raise RuleSetInvalid(problems)
        return rules

    def with_changes(self, **changes: object) -> RuleSet:
        """A copy with some options changed, checked like :meth:`from_dict`."""
        return RuleSet.from_dict({**self.to_dict(), **changes})


# Parsing one option from a JSON-like value.

EXPECTED_TEXT = Term(N_("text"))
EXPECTED_A_WHOLE_NUMBER = Term(N_("a whole number"))
EXPECTED_A_WHOLE_NUMBER_OR_EMPTY = Term(N_("a whole number or empty"))
EXPECTED_TRUE_OR_FALSE = Term(N_("true or false"))
EXPECTED_MISDEAL_REASONS = Term(N_("a list of misdeal reasons"))

_Parser = Callable[[str, object], object]


def _wrong_type(key: str, raw: object, expected: Term) -> Refusal:
    return Refusal(
        "wrong_type",
        key,
        {"option": OPTION_LABELS[key], "expected": expected, "value": str(raw)},
    )


def _parse_str(key: str, raw: object) -> object:
    return raw if isinstance(raw, str) else _wrong_type(key, raw, EXPECTED_TEXT)


def _parse_int(key: str, raw: object) -> object:
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    return _wrong_type(key, raw, EXPECTED_A_WHOLE_NUMBER)


def _parse_optional_int(key: str, raw: object) -> object:
    if raw is None or (isinstance(raw, int) and not isinstance(raw, bool)):
        return raw
    return _wrong_type(key, raw, EXPECTED_A_WHOLE_NUMBER_OR_EMPTY)


def _parse_bool(key: str, raw: object) -> object:
    return raw if isinstance(raw, bool) else _wrong_type(key, raw, EXPECTED_TRUE_OR_FALSE)


def _choice(enum: type[StrEnum]) -> _Parser:
    def parse(key: str, raw: object) -> object:
        if isinstance(raw, str):
            for member in enum:
                if member.value == raw:
                    return member
        choices = ", ".join(member.value for member in enum)
        return Refusal(
            "invalid_choice",
            key,
            {"option": OPTION_LABELS[key], "value": str(raw), "choices": choices},
        )

    return parse


def _parse_misdeals(key: str, raw: object) -> object:
    if isinstance(raw, str) or not isinstance(raw, Iterable):
        return _wrong_type(key, raw, EXPECTED_MISDEAL_REASONS)
    parse_reason = _choice(MisdealReason)
    reasons: set[MisdealReason] = set()
    for item in raw:
        parsed = parse_reason(key, item)
        if isinstance(parsed, Refusal):
            return parsed
        assert isinstance(parsed, MisdealReason)
        reasons.add(parsed)
    return frozenset(reasons)


_PARSERS: Mapping[str, _Parser] = {
    "name": _parse_str,
    "title": _parse_str,
    "min_bid": _parse_int,
    "max_bid": _parse_int,
    "no_trump": _choice(NoTrump),
    "target": _parse_int,
    "raised_target": _parse_optional_int,
    "bid_out_line": _parse_optional_int,
    "raised_bid_out_line": _parse_optional_int,
    "steal_the_five": _choice(StealTheFive),
    "minus_line_loses": _parse_bool,
    "bid_to_win": _parse_bool,
    "no_overtricks": _parse_bool,
    "kaiser_bid": _choice(KaiserBid),
    "three_spades_needs_three_tricks": _parse_bool,
    "misdeals": _parse_misdeals,
    "misdeal_redeal": _choice(MisdealRedeal),
    "both_reach_target": _choice(BothReachTarget),
    "time_limit_minutes": _parse_optional_int,
    "five_bonus": _parse_int,
    "three_penalty": _parse_int,
    "good_card": _parse_str,
    "bad_card": _parse_str,
}
