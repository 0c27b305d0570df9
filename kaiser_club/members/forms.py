"""Forms of the members pages. They check the shape of the input; the services check the rules."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ..models import Player
from ..roles import Role


class MemberAddForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    email = forms.EmailField(label=_("Email"), required=False, max_length=254)
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.PLAYER)


class PlayerChoiceField(forms.ModelChoiceField):  # type: ignore[type-arg]
    """Records by name, email and id: two records of one name are told apart."""

    def label_from_instance(self, obj: Player) -> str:
        label = f"{obj.name} <{obj.email}>" if obj.email else obj.name
        return f"{label} (#{obj.id})"


class MemberAddExistingForm(forms.Form):
    player = PlayerChoiceField(label=_("Player"), queryset=Player.objects.none())
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.PLAYER)

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["player"]
        assert isinstance(field, PlayerChoiceField)
        field.queryset = players


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)


class CsvUploadForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(
        label=_("…or paste the rows"), required=False, widget=forms.Textarea(attrs={"rows": 8})
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not data.get("file") and not (data.get("text") or "").strip():
            raise forms.ValidationError(_("Choose a CSV file, or paste its rows."))
        return data


class CsvConfirmForm(forms.Form):
    text = forms.CharField(widget=forms.HiddenInput, strip=False)


class MergeForm(forms.Form):
    keep = PlayerChoiceField(label=_("Keep this record"), queryset=Player.objects.none())
    duplicate = PlayerChoiceField(
        label=_("…and merge this one into it"), queryset=Player.objects.none()
    )
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, players: QuerySet[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("keep", "duplicate"):
            field = self.fields[name]
            assert isinstance(field, PlayerChoiceField)
            field.queryset = players

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        keep, duplicate = data.get("keep"), data.get("duplicate")
        if keep is not None and keep == duplicate:
            raise forms.ValidationError(_("Pick two different player records to merge."))
        return data


class InvitationSignUpForm(UserCreationForm):  # type: ignore[type-arg]
    """A new sign-in account: user name and password twice, with Django's password checks."""
