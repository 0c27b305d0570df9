"""A hand as a page form: the organiser's correction of a past hand, or the next hand entered
from the paper sheet.

The form shows the hand's fields as choices in the reader's language; the values are read by
the games API's own serializer (``HandEntrySerializer``), so the page and the API parse a hand
the same way and hand the same ``HandEntry`` to the same service
(``scoring.services.hand_correct_by``, ``hand_record_by``)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.db.models import TextChoices
from django.utils.translation import gettext_lazy as _

from kaiser_club.request_limits import LARGEST_ID

from .api.serializers import HAND_NUMBER_MAX, HandEntrySerializer
from .choices import (
    ContractChoice,
    HandKindChoice,
    MisdealReasonChoice,
    SeatChoice,
    SuitChoice,
    TeamChoice,
)
from .models import Game, Hand
from .rows_and_rules import entry_fields, hand_to_entry
from .rules import HandEntry, KaiserBid, NoTrump, RuleSet

NONE = [("", "—")]


def _choices(options: Any) -> list[tuple[Any, Any]]:
    return NONE + list(options.choices)


class HandForm(forms.Form):
    """One hand's fields, as the games API reads them (``HandEntrySerializer``), offering only
    what the game's rules allow."""

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=HAND_NUMBER_MAX)
    # Not required where the API is not: it takes a played hand and a trump contract.
    kind = forms.ChoiceField(label=_("Hand"), choices=HandKindChoice.choices, required=False)
    bidder = forms.TypedChoiceField(
        label=_("Bidder"), choices=_choices(SeatChoice), required=False, coerce=int
    )
    bid = forms.IntegerField(label=_("Bid"), required=False, min_value=0, max_value=99)
    contract = forms.ChoiceField(
        label=_("Contract"), choices=ContractChoice.choices, required=False
    )
    trump = forms.ChoiceField(label=_("Trump"), choices=_choices(SuitChoice), required=False)
    forced = forms.BooleanField(label=_("Forced bid"), required=False)
    bidding_team_tricks = forms.IntegerField(
        label=_("Tricks taken by the bidding partnership"),
        required=False,
        min_value=0,
        max_value=99,
    )
    five_hearts = forms.ChoiceField(
        label=_("5♥ taken by"), choices=_choices(TeamChoice), required=False
    )
    three_spades = forms.ChoiceField(
        label=_("3♠ taken by"), choices=_choices(TeamChoice), required=False
    )
    bidder_tricks = forms.IntegerField(
        label=_("Tricks the Kaiser bidder took alone"), required=False, min_value=0, max_value=99
    )
    misdeal_reason = forms.ChoiceField(
        label=_("Misdeal"), choices=_choices(MisdealReasonChoice), required=False
    )
    entry: HandEntry

    def __init__(self, *args: Any, rules: RuleSet | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if rules is not None:
            self._offer_only_what(rules)

    def _offer_only_what(self, rules: RuleSet) -> None:
        """Nothing the game's rules refuse outright: no low no-trump, Kaiser bid or misdeal
        reason where its rule set has none (the service refuses them anyway)."""
        contracts = {ContractChoice.TRUMP.value}
        if rules.no_trump is not NoTrump.NONE:
            contracts.add(ContractChoice.NO_TRUMP.value)
        if rules.no_trump is NoTrump.HIGH_AND_LOW:
            contracts.add(ContractChoice.LOW_NO_TRUMP.value)
        if rules.kaiser_bid is not KaiserBid.OFF:
            contracts.add(ContractChoice.KAISER.value)
        else:
            del self.fields["bidder_tricks"]
        self._keep("contract", ContractChoice, contracts)
        if not rules.misdeals:
            self._keep("kind", HandKindChoice, {HandKindChoice.PLAYED.value})
            del self.fields["misdeal_reason"]
        else:
            reasons = {reason.value for reason in rules.misdeals}
            self._keep("misdeal_reason", MisdealReasonChoice, reasons, blank=True)
        if rules.pass_out_is_misdeal:
            del self.fields["forced"]  # a pass-out is a misdeal: no bid is forced
        bid = self.fields["bid"]
        bid.widget.attrs.update({"min": rules.min_bid, "max": rules.max_bid})

    def _keep(
        self, name: str, options: type[TextChoices], values: set[str], *, blank: bool = False
    ) -> None:
        field = self.fields[name]
        assert isinstance(field, forms.ChoiceField)
        kept = [(value, label) for value, label in options.choices if value in values]
        field.choices = (NONE if blank else []) + kept

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        body = {
            name: value
            for name, value in cleaned.items()
            if name in HandEntrySerializer().fields and value not in (None, "")
        }
        incoming = HandEntrySerializer(data=body)  # the API's reading of the same fields
        if not incoming.is_valid():
            for name, problems in incoming.errors.items():
                self.add_error(name if name in self.fields else None, [str(p) for p in problems])
            return cleaned
        self.entry = incoming.to_entry()
        return cleaned


class HandCorrectionForm(HandForm):
    """The organiser's correction of a past hand, with its reason (``hand_correct_by``)."""

    version = forms.IntegerField(
        widget=forms.HiddenInput, required=False, min_value=1, max_value=LARGEST_ID
    )
    rollback = forms.BooleanField(
        label=_("Roll back the later games if the winner changes"),
        required=False,
        help_text=_(
            "At an event, when the winner has already played on: their later games are undone "
            "and the bracket goes on from the corrected result."
        ),
    )
    reason = forms.CharField(
        label=_("Reason for the correction"),
        max_length=300,
        required=False,  # the service asks for it, in the same words as through the API
        help_text=_("Kept in the game's history."),
    )

    @classmethod
    def for_hand(
        cls, hand: Hand, *, version: int, rules: RuleSet | None = None
    ) -> HandCorrectionForm:
        """The form filled with what was entered for ``hand``."""
        fields = entry_fields(hand_to_entry(hand))
        fields.pop("completed_at", None)
        return cls(initial={**fields, "number": hand.number, "version": version}, rules=rules)


class PaperHandForm(HandForm):
    """The next hand of a game its table cannot enter, from the paper sheet
    (``hand_record_by``): the id it was entered with makes sending it twice harmless."""

    client_id = forms.CharField(widget=forms.HiddenInput, max_length=36)

    def clean_client_id(self) -> uuid.UUID:
        try:
            return uuid.UUID(self.cleaned_data["client_id"])
        except ValueError:
            raise forms.ValidationError(
                _("This form could not be read: reload the page and enter the hand again.")
            ) from None

    @classmethod
    def next_of(cls, game: Game, *, rules: RuleSet | None = None) -> PaperHandForm:
        return cls(initial={"number": game.hand_count + 1, "client_id": uuid.uuid4()}, rules=rules)
