"""The tie-break order as a numbered list: each metric, in the user's language, with its place
(1, 2, 3…; empty: not used). Works without JavaScript; ``static/tournaments/tiebreaks.js``
only adds buttons that move a row up or down and renumber the list."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from .choices import Tiebreak


class TiebreakOrderWidget(forms.Widget):
    template_name = "tournaments/_tiebreak_order.html"

    def get_context(self, name: str, value: Any, attrs: Any) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        if isinstance(value, Mapping):  # the places typed, shown again with the form's errors
            places = {key: str(place) for key, place in value.items()}
        else:
            chosen = value if isinstance(value, list | tuple) else _split(value)
            places = {key: str(n) for n, key in enumerate(chosen, start=1)}
        ordered = sorted(
            Tiebreak.choices,
            key=lambda c: (int(places[c[0]]) if places.get(c[0], "").isdigit() else 99, c[0]),
        )
        context["widget"]["rows"] = [
            {"key": key, "label": label, "place": places.get(key, ""), "name": f"{name}_{key}"}
            for key, label in ordered
        ]
        return context

    def render(self, name: str, value: Any, attrs: Any = None, renderer: Any = None) -> SafeString:
        """Rendered by the project's templates (the form renderer only reads Django's own)."""
        context = self.get_context(name, value, attrs)
        return mark_safe(render_to_string(self.template_name, context))

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        places = {
            key: (data.get(f"{name}_{key}") or "").strip()
            for key in Tiebreak.values
            if f"{name}_{key}" in data
        }
        if places:
            return places
        return data.get(name)  # a client that posts the ids in order, comma-separated

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return name not in data and not any(f"{name}_{key}" in data for key in Tiebreak.values)


def _split(text: Any) -> list[str]:
    return [part.strip() for part in str(text or "").split(",") if part.strip()]


class TiebreakOrderField(forms.Field):
    widget = TiebreakOrderWidget
    default_error_messages = {
        "required": _("Give at least one tie-break a place (1 for the first)."),
    }

    def to_python(self, value: Any) -> list[str]:
        if isinstance(value, Mapping):
            return self._from_places(value)
        chosen = value if isinstance(value, Sequence) and not isinstance(value, str) else None
        names = list(chosen) if chosen is not None else _split(value)
        unknown = [n for n in names if n not in Tiebreak.values]
        if unknown:
            raise forms.ValidationError(
                _("%(names)s: not a tie-break this app knows."),
                params={"names": ", ".join(unknown)},
            )
        if len(set(names)) != len(names):
            raise forms.ValidationError(_("Each tie-break counts once."))
        return names

    def _from_places(self, places: Mapping[str, str]) -> list[str]:
        labels = dict(Tiebreak.choices)
        numbered: dict[int, str] = {}
        for key, text in places.items():
            if not text:
                continue
            if not text.isdigit() or not 1 <= int(text) <= len(Tiebreak.values):
                raise forms.ValidationError(
                    _("%(metric)s: its place is a number from 1 to %(n)s, or empty."),
                    params={"metric": labels[key], "n": len(Tiebreak.values)},
                )
            place = int(text)
            if place in numbered:
                raise forms.ValidationError(
                    _("%(one)s and %(other)s both have place %(place)s: give each its own."),
                    params={"one": labels[numbered[place]], "other": labels[key], "place": place},
                )
            numbered[place] = key
        return [numbered[place] for place in sorted(numbered)]

    def validate(self, value: Any) -> None:
        if not value and self.required:
            raise forms.ValidationError(self.error_messages["required"], code="required")


def tiebreak_words(keys: Sequence[str]) -> str:
    """A tie-break order as a person reads it: "Wins, then Point difference"."""
    labels = dict(Tiebreak.choices)
    return ", ".join(str(labels.get(key, key)) for key in keys)
