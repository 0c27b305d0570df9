"""Rule sets and presets: every preset's values, the JSON round trip, refused options."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from scoring.rules import (
    PRESET_TITLES,
    PRESETS,
    BothReachTarget,
    KaiserBid,
    MisdealReason,
    MisdealRedeal,
    NoTrump,
    RuleSet,
    RuleSetInvalid,
    StealTheFive,
    UnknownPreset,
    preset,
)
from scoring.rules.ruleset import OPTION_LABELS

# docs/rules.md, "Presets": one row per preset and option.
PRESET_VALUES = [
    # standard (pagat)
    ("standard", "min_bid", 6),
    ("standard", "no_trump", NoTrump.HIGH),
    ("standard", "target", 52),
    ("standard", "raised_target", None),
    ("standard", "bid_out_line", 45),
    ("standard", "steal_the_five", StealTheFive.OFF),
    ("standard", "minus_line_loses", False),
    ("standard", "misdeals", frozenset({MisdealReason.NO_HONOURS})),
    ("standard", "misdeal_redeal", MisdealRedeal.SAME_DEALER),
    ("standard", "time_limit_minutes", None),
    ("standard", "good_card", "5♥"),
    ("standard", "bad_card", "3♠"),
    # club sheet
    ("club", "min_bid", 5),
    ("club", "no_trump", NoTrump.HIGH),
    ("club", "target", 52),
    ("club", "bid_out_line", 47),
    ("club", "steal_the_five", StealTheFive.SCORES),
    ("club", "minus_line_loses", True),
    (
        "club",
        "misdeals",
        frozenset(
            {MisdealReason.NO_FACE_CARD, MisdealReason.FOUR_OF_A_KIND, MisdealReason.ALL_PASS}
        ),
    ),
    ("club", "misdeal_redeal", MisdealRedeal.PASSES_ON),
    ("club", "time_limit_minutes", None),
    # tournament (club sheet)
    ("tournament", "min_bid", 7),
    ("tournament", "no_trump", NoTrump.HIGH),
    ("tournament", "target", 52),
    ("tournament", "bid_out_line", 47),
    ("tournament", "steal_the_five", StealTheFive.SCORES),
    ("tournament", "minus_line_loses", True),
    ("tournament", "misdeals", frozenset()),
    ("tournament", "time_limit_minutes", 60),
    # saskatchewan
    ("saskatchewan", "min_bid", 7),
    ("saskatchewan", "no_trump", NoTrump.HIGH_AND_LOW),
    ("saskatchewan", "target", 52),
    ("saskatchewan", "raised_target", 62),
    ("saskatchewan", "bid_out_line", 45),
    ("saskatchewan", "raised_bid_out_line", 55),
    ("saskatchewan", "steal_the_five", StealTheFive.OFF),
    ("saskatchewan", "minus_line_loses", True),
    ("saskatchewan", "misdeals", frozenset()),
    ("saskatchewan", "time_limit_minutes", None),
    # les rois (Québec)
    ("les_rois", "min_bid", 4),
    ("les_rois", "no_trump", NoTrump.NONE),
    ("les_rois", "target", 40),
    ("les_rois", "bid_out_line", None),
    ("les_rois", "steal_the_five", StealTheFive.OFF),
    ("les_rois", "minus_line_loses", False),
    ("les_rois", "misdeals", frozenset()),
    ("les_rois", "good_card", "K♥"),
    ("les_rois", "bad_card", "K♠"),
    # joffre (Québec)
    ("joffre", "min_bid", 5),
    ("joffre", "no_trump", NoTrump.NONE),
    ("joffre", "target", 41),
    ("joffre", "bid_out_line", None),
    ("joffre", "steal_the_five", StealTheFive.OFF),
    ("joffre", "minus_line_loses", False),
    ("joffre", "misdeals", frozenset()),
    ("joffre", "good_card", "Joffre"),
    ("joffre", "bad_card", "Kaiser"),
]


@pytest.mark.parametrize(("name", "option", "expected"), PRESET_VALUES)
def test_preset_values(name: str, option: str, expected: object) -> None:
    assert getattr(preset(name), option) == expected


# Options no preset changes (docs/rules.md, "Presets": all presets have the bidding team win
# when both reach the target; none has the Kaiser bid or the other variants on).
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_preset_shared_values(name: str) -> None:
    rules = PRESETS[name]
    assert rules.name == name
    assert rules.max_bid == 12
    assert rules.both_reach_target is BothReachTarget.BIDDER
    assert rules.kaiser_bid is KaiserBid.OFF
    assert rules.bid_to_win is False
    assert rules.no_overtricks is False
    assert rules.three_spades_needs_three_tricks is False
    assert rules.five_bonus == 5
    assert rules.three_penalty == 3
    assert rules.problems() == []


def test_preset_names_and_titles() -> None:
    assert list(PRESETS) == ["standard", "club", "tournament", "saskatchewan", "les_rois", "joffre"]
    assert PRESET_TITLES == {
        "standard": "Standard (pagat)",
        "club": "Club sheet",
        "tournament": "Tournament (club sheet)",
        "saskatchewan": "Saskatchewan",
        "les_rois": "Les Rois (Québec)",
        "joffre": "Joffre (Québec)",
    }


def test_standard_is_the_default() -> None:
    assert RuleSet() == preset("standard")
    assert RuleSet.from_dict({}) == preset("standard")


def test_unknown_preset() -> None:
    with pytest.raises(UnknownPreset) as caught:
        preset("poker")
    assert isinstance(caught.value, KeyError)
    assert str(caught.value) == (
        "There is no preset named 'poker'; the presets are: "
        "standard, club, tournament, saskatchewan, les_rois, joffre."
    )
    assert caught.value.refusals[0].code == "unknown_preset"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_round_trip_through_json(name: str) -> None:
    rules = PRESETS[name]
    data = json.loads(json.dumps(rules.to_dict()))
    assert RuleSet.from_dict(data) == rules


def test_to_dict_is_plain() -> None:
    data = preset("club").to_dict()
    assert data["misdeals"] == ["all_pass", "four_of_a_kind", "no_face_card"]
    assert data["steal_the_five"] == "scores"
    assert data["misdeal_redeal"] == "passes_on"
    assert data["bid_out_line"] == 47
    assert type(data["steal_the_five"]) is str


def test_missing_keys_take_standard_values() -> None:
    rules = RuleSet.from_dict({"min_bid": 7, "kaiser_bid": "team"})
    assert rules.min_bid == 7
    assert rules.kaiser_bid is KaiserBid.TEAM
    assert rules.bid_out_line == 45  # standard's
    assert rules.misdeals == frozenset({MisdealReason.NO_HONOURS})


def test_with_changes() -> None:
    rules = preset("club").with_changes(min_bid=7, both_reach_target=BothReachTarget.HIGHER)
    assert rules.min_bid == 7
    assert rules.both_reach_target is BothReachTarget.HIGHER
    assert rules.bid_out_line == 47
    assert preset("club").min_bid == 5  # the preset itself is unchanged


def test_with_changes_is_validated() -> None:
    with pytest.raises(RuleSetInvalid) as caught:
        preset("standard").with_changes(bid_out_line=60)
    assert [(r.code, r.field) for r in caught.value.refusals] == [
        ("bid_out_line_not_below_target", "bid_out_line")
    ]
    assert isinstance(caught.value, ValueError)
    assert str(caught.value) == "The bid-out line (60) must be below the target (52)."


# from_dict: unknown keys and wrong values, each with its sentence.
BAD_VALUES = [
    ({"colour": "red"}, "unknown_option", "colour", "There is no rule option named 'colour'."),
    (
        {"min_bid": "7"},
        "wrong_type",
        "min_bid",
        "The minimum bid must be a whole number; '7' is not.",
    ),
    (
        {"target": True},
        "wrong_type",
        "target",
        "The target must be a whole number; 'True' is not.",
    ),
    (
        {"bid_out_line": 4.5},
        "wrong_type",
        "bid_out_line",
        "The bid-out line must be a whole number or empty; '4.5' is not.",
    ),
    (
        {"minus_line_loses": "yes"},
        "wrong_type",
        "minus_line_loses",
        "The minus-target-loses rule must be true or false; 'yes' is not.",
    ),
    (
        {"name": 3},
        "wrong_type",
        "name",
        "The rule set name must be text; '3' is not.",
    ),
    (
        {"no_trump": "maybe"},
        "invalid_choice",
        "no_trump",
        "'maybe' is not a choice for the no-trump bids; the choices are: none, high, high_and_low.",
    ),
    (
        {"misdeals": ["all_pass", "bad_luck"]},
        "invalid_choice",
        "misdeals",
        "'bad_luck' is not a choice for the misdeals; "
        "the choices are: no_honours, no_face_card, four_of_a_kind, all_pass.",
    ),
    (
        {"misdeals": "all_pass"},
        "wrong_type",
        "misdeals",
        "The misdeals must be a list of misdeal reasons; 'all_pass' is not.",
    ),
]


@pytest.mark.parametrize(("data", "code", "field", "message"), BAD_VALUES)
def test_from_dict_refuses(data: dict[str, object], code: str, field: str, message: str) -> None:
    with pytest.raises(RuleSetInvalid) as caught:
        RuleSet.from_dict(data)
    (refusal,) = caught.value.refusals
    assert (refusal.code, refusal.field, refusal.message) == (code, field, message)


def test_from_dict_lists_every_problem() -> None:
    with pytest.raises(RuleSetInvalid) as caught:
        RuleSet.from_dict({"colour": "red", "min_bid": "x", "kaiser_bid": "sometimes"})
    assert [r.field for r in caught.value.refusals] == ["colour", "min_bid", "kaiser_bid"]


# problems(): options that contradict each other.
PROBLEMS = [
    (
        {"min_bid": 0},
        "min_bid_out_of_range",
        "min_bid",
        "The minimum bid must be from 1 to 12, not 0.",
    ),
    (
        {"min_bid": 13},
        "min_bid_out_of_range",
        "min_bid",
        "The minimum bid must be from 1 to 12, not 13.",
    ),
    (
        {"min_bid": 8, "max_bid": 7},
        "max_bid_out_of_range",
        "max_bid",
        "The maximum bid must be from the minimum bid (8) to 12, not 7.",
    ),
    (
        {"target": 0, "bid_out_line": None},
        "target_out_of_range",
        "target",
        "The target must be at least 1 point, not 0.",
    ),
    (
        {"raised_target": 52},
        "raised_target_not_above_target",
        "raised_target",
        "The raised target (52) must be above the target (52).",
    ),
    (
        {"raised_target": 62, "no_trump": NoTrump.NONE},
        "raised_target_without_no_trump",
        "raised_target",
        "The target rises only after a made no-trump bid, but these rules have no no-trump bids.",
    ),
    (
        {"bid_out_line": 0},
        "bid_out_line_not_positive",
        "bid_out_line",
        "The bid-out line must be above 0, not 0.",
    ),
    (
        {"bid_out_line": 52},
        "bid_out_line_not_below_target",
        "bid_out_line",
        "The bid-out line (52) must be below the target (52).",
    ),
    (
        {"raised_bid_out_line": 55},
        "raised_bid_out_line_without_raised_target",
        "raised_bid_out_line",
        "A raised bid-out line needs a raised target to go with it.",
    ),
    (
        {"raised_target": 62, "bid_out_line": None, "raised_bid_out_line": 55},
        "raised_bid_out_line_without_bid_out_line",
        "raised_bid_out_line",
        "A raised bid-out line needs a bid-out line to raise.",
    ),
    (
        {"raised_target": 62, "raised_bid_out_line": 45},
        "raised_bid_out_line_not_above_line",
        "raised_bid_out_line",
        "The raised bid-out line (45) must be above the bid-out line (45).",
    ),
    (
        {"raised_target": 62, "raised_bid_out_line": 62},
        "raised_bid_out_line_not_below_target",
        "raised_bid_out_line",
        "The raised bid-out line (62) must be below the raised target (62).",
    ),
    (
        {"bid_out_line": None, "steal_the_five": StealTheFive.SCORES},
        "steal_the_five_without_bid_out",
        "steal_the_five",
        "Stealing the five only helps a team that is bid out, "
        "but these rules have no bid-out line.",
    ),
    (
        {"time_limit_minutes": 0},
        "time_limit_out_of_range",
        "time_limit_minutes",
        "The time limit must be at least 1 minute, not 0.",
    ),
    (
        {"five_bonus": -5},
        "card_value_negative",
        "five_bonus",
        "The 5♥ value must be 0 or more, not -5.",
    ),
    (
        {"three_penalty": -3},
        "card_value_negative",
        "three_penalty",
        "The 3♠ value must be 0 or more, not -3.",
    ),
]


@pytest.mark.parametrize(("changes", "code", "field", "message"), PROBLEMS)
def test_problems(changes: dict[str, object], code: str, field: str, message: str) -> None:
    rules = RuleSet(**changes)  # type: ignore[arg-type]
    (problem,) = rules.problems()
    assert (problem.code, problem.field, problem.message) == (code, field, message)
    with pytest.raises(RuleSetInvalid):
        RuleSet.from_dict(rules.to_dict())


def test_every_option_has_a_parser_and_a_label() -> None:
    names = {spec.name for spec in fields(RuleSet)}
    assert set(OPTION_LABELS) == names
    assert set(RuleSet().to_dict()) == names


def test_rule_sets_are_frozen_and_hashable() -> None:
    rules = preset("club")
    with pytest.raises(AttributeError):
        rules.min_bid = 7  # type: ignore[misc]
    assert hash(rules) == hash(preset("club").with_changes())


def test_minus_line_is_minus_the_starting_target() -> None:
    # pagat: "if the target score to win is 69, then the game is lost if a team reaches -69"
    assert preset("club").minus_line == -52
    assert preset("club").with_changes(target=69).minus_line == -69
    assert preset("standard").minus_line is None
