"""The named presets of docs/rules.md, "Presets"; an organiser starts from one and changes
any option."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from scoring.rules.refusals import Refusal, UnknownPreset
from scoring.rules.ruleset import MisdealRedeal, NoTrump, RuleSet, StealTheFive
from scoring.rules.types import MisdealReason

STANDARD = RuleSet()  # pagat; every field's default

CLUB = RuleSet(
    name="club",
    title="Club sheet",
    min_bid=5,
    target=52,
    bid_out_line=47,  # "within five points of winning"
    steal_the_five=StealTheFive.SCORES,
    minus_line_loses=True,
    misdeals=frozenset(
        {MisdealReason.NO_FACE_CARD, MisdealReason.FOUR_OF_A_KIND, MisdealReason.ALL_PASS}
    ),
    misdeal_redeal=MisdealRedeal.PASSES_ON,
)

TOURNAMENT = RuleSet(
    name="tournament",
    title="Tournament (club sheet)",
    min_bid=7,
    bid_out_line=47,
    steal_the_five=StealTheFive.SCORES,
    minus_line_loses=True,
    misdeals=frozenset(),  # every hand is played; a pass-out is a forced dealer bid
    misdeal_redeal=MisdealRedeal.PASSES_ON,
    time_limit_minutes=60,
)

SASKATCHEWAN = RuleSet(
    name="saskatchewan",
    title="Saskatchewan",
    min_bid=7,
    no_trump=NoTrump.HIGH_AND_LOW,
    raised_target=62,
    bid_out_line=45,
    raised_bid_out_line=55,
    minus_line_loses=True,
    misdeals=frozenset(),
)

LES_ROIS = RuleSet(
    name="les_rois",
    title="Les Rois (Québec)",
    min_bid=4,
    no_trump=NoTrump.NONE,
    target=40,
    bid_out_line=None,
    misdeals=frozenset(),
    good_card="K♥",  # assumed: the source lost its suit signs
    bad_card="K♠",
)

JOFFRE = RuleSet(
    name="joffre",
    title="Joffre (Québec)",
    min_bid=5,
    no_trump=NoTrump.NONE,
    target=41,
    bid_out_line=None,
    misdeals=frozenset(),
    good_card="Joffre",
    bad_card="Kaiser",
)

PRESETS: Mapping[str, RuleSet] = MappingProxyType(
    {rules.name: rules for rules in (STANDARD, CLUB, TOURNAMENT, SASKATCHEWAN, LES_ROIS, JOFFRE)}
)
PRESET_TITLES: Mapping[str, str] = MappingProxyType(
    {name: rules.title for name, rules in PRESETS.items()}
)


def preset(name: str) -> RuleSet:
    """The preset of that name; raises :class:`UnknownPreset` naming the ones there are."""
    try:
        return PRESETS[name]
    except KeyError:
        raise UnknownPreset(
            [Refusal("unknown_preset", None, {"name": name, "choices": ", ".join(PRESETS)})]
        ) from None
