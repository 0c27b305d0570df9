"""The rule-set form: one field per option, each with its label and, where the option is a
closed set, its choices in the user's language (never a typed code such as ``high``)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.rules.ruleset import (
    BothReachTarget,
    KaiserBid,
    MisdealRedeal,
    NoTrump,
    StealTheFive,
)
from scoring.rules.types import MisdealReason
from scoring.words import preset_title

__all__ = ["RulesForm", "choice_label", "option_label", "preset_title"]

LABELS: dict[str, Any] = {
    "min_bid": _("Minimum bid"),
    "max_bid": _("Maximum bid"),
    "no_trump": _("No-trump bids"),
    "target": _("Target (points to win)"),
    "raised_target": _("Target after a made no-trump bid"),
    "bid_out_line": _("Bid-out line"),
    "raised_bid_out_line": _("Bid-out line once the target is raised"),
    "steal_the_five": _("Stealing the five"),
    "minus_line_loses": _("A team at minus the target loses"),
    "bid_to_win": _("Bid to win (the defenders never win)"),
    "no_overtricks": _("No overtricks"),
    "kaiser_bid": _("The Kaiser bid"),
    "three_spades_needs_three_tricks": _("The bad card counts only with three tricks"),
    "misdeals": _("Misdeals"),
    "misdeal_redeal": _("Who deals again after a misdeal"),
    "both_reach_target": _("When both teams reach the target"),
    "time_limit_minutes": _("Time limit (minutes)"),
    "five_bonus": _("Good card's bonus"),
    "three_penalty": _("Bad card's penalty"),
    "good_card": _("Good card"),
    "bad_card": _("Bad card"),
}

CHOICES: dict[str, list[tuple[str, Any]]] = {
    "no_trump": [
        (NoTrump.NONE, _("None")),
        (NoTrump.HIGH, _("High (doubles the points)")),
        (NoTrump.HIGH_AND_LOW, _("High and low")),
    ],
    "steal_the_five": [
        (StealTheFive.OFF, _("Off")),
        (StealTheFive.SCORES, _("A bid-out defending team that takes it scores its points")),
        (StealTheFive.WINS, _("A bid-out defending team that takes it wins the game")),
    ],
    "kaiser_bid": [
        (KaiserBid.OFF, _("Off")),
        (KaiserBid.BIDDER_ALONE, _("The bidder alone takes 12 at no-trump")),
        (KaiserBid.TEAM, _("The bidding team takes 12 at no-trump")),
        (KaiserBid.KAISER_40, _("The bidder alone takes all 8 tricks, ±40")),
    ],
    "misdeal_redeal": [
        (MisdealRedeal.SAME_DEALER, _("The same dealer")),
        (MisdealRedeal.PASSES_ON, _("The deal passes to the left")),
    ],
    "both_reach_target": [
        (BothReachTarget.BIDDER, _("The bidding team wins")),
        (BothReachTarget.HIGHER, _("The higher score wins (equal: the bidders)")),
    ],
    "misdeals": [
        (MisdealReason.NO_HONOURS, _("No ace, face card, 5♥ or 3♠")),
        (MisdealReason.NO_FACE_CARD, _("No face card")),
        (MisdealReason.FOUR_OF_A_KIND, _("Four 8s, 9s or 10s")),
        (MisdealReason.ALL_PASS, _("Everyone passed")),
    ],
}


def option_label(key: str) -> Any:
    return LABELS.get(key, key.replace("_", " "))


def choice_label(key: str, value: Any) -> Any:
    """An option's value in words: its choice's label, yes/no, or the number itself."""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return ", ".join(str(choice_label(key, v)) for v in value) or _("none")
    if value is None:
        return _("none")
    for code, label in CHOICES.get(key, []):
        if code == value:
            return label
    return value


class RulesForm(forms.Form):
    """One field per option of the event's rule set, shaped after its current value."""

    def __init__(self, *args: Any, rules: dict[str, Any], **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.current = rules
        for key, value in rules.items():
            if key in ("name", "title"):
                continue
            field: forms.Field
            if key in CHOICES and isinstance(value, list):
                field = forms.MultipleChoiceField(
                    required=False,
                    choices=[(str(c), label) for c, label in CHOICES[key]],
                    initial=value,
                    widget=forms.CheckboxSelectMultiple,
                )
            elif key in CHOICES:
                field = forms.ChoiceField(
                    choices=[(str(c), label) for c, label in CHOICES[key]], initial=value
                )
            elif isinstance(value, bool):
                field = forms.BooleanField(required=False, initial=value)
            elif isinstance(value, int) or value is None:
                field = forms.IntegerField(required=False, initial=value)
            else:
                field = forms.CharField(required=False, initial=value)
            field.label = option_label(key)
            self.fields[key] = field

    def changes(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in self.cleaned_data.items():
            before = self.current.get(key)
            if isinstance(before, list):
                value = sorted(value or [])
                before = sorted(before)
            if value != before:
                out[key] = value
        return out
