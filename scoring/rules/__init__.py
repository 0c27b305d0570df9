"""The rules of Kaiser, in pure Python (no Django): rule sets, presets, hand validation,
hand scoring, the end of a game and the clock. See docs/rules.md for the rules themselves."""

from scoring.rules.game import (
    GameState,
    apply_hand,
    call_time,
    forfeit,
    new_game,
    preview_hand,
    replay,
    resume,
)
from scoring.rules.presets import PRESET_TITLES, PRESETS, preset
from scoring.rules.refusals import (
    MESSAGES,
    HandRefused,
    Refusal,
    RulesError,
    RuleSetInvalid,
    UnknownPreset,
)
from scoring.rules.results import HandResult, PerTeam
from scoring.rules.ruleset import (
    BothReachTarget,
    KaiserBid,
    MisdealRedeal,
    NoTrump,
    RuleSet,
    StealTheFive,
)
from scoring.rules.scoring import score_hand
from scoring.rules.terms import N_, Term
from scoring.rules.types import (
    Contract,
    EndReason,
    HandEntry,
    HandKind,
    MisdealReason,
    Seat,
    Side,
    Suit,
)
from scoring.rules.validation import validate_hand

__all__ = [
    "MESSAGES",
    "N_",
    "PRESETS",
    "PRESET_TITLES",
    "BothReachTarget",
    "Contract",
    "EndReason",
    "GameState",
    "HandEntry",
    "HandKind",
    "HandRefused",
    "HandResult",
    "KaiserBid",
    "MisdealReason",
    "MisdealRedeal",
    "NoTrump",
    "PerTeam",
    "Refusal",
    "RuleSet",
    "RuleSetInvalid",
    "RulesError",
    "Seat",
    "Side",
    "StealTheFive",
    "Suit",
    "Term",
    "UnknownPreset",
    "apply_hand",
    "call_time",
    "forfeit",
    "new_game",
    "preset",
    "preview_hand",
    "replay",
    "resume",
    "score_hand",
    "validate_hand",
]
