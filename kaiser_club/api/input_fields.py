"""Input serializers that build their fields once per class and language, not per request.

DRF gives every serializer instance its own fields: a deep copy of the declared ones (each
field made again from its arguments), bound to that instance. For the hand's input (fifteen
fields) that copy was three quarters of the ~0.28 ms DRF spent checking a hand. Checking a
value does not change a field, so a serializer given only data (no instance, no context, not
partial, not nested in another) can share fields bound once to an instance of its class with
the same nothing: the same fields, the same root's ``partial`` and ``context``, the same
answers.

One thing in a field does keep state: DRF words a range or length refusal ("Ensure this value
is less than or equal to 99.") with ``lazy_format``, which keeps the text it first makes, in
the language of the request that first needed it. So fields are shared per language, and
those texts are made while the fields are bound (under a lock), in that language: no request
writes to a shared field afterwards. tests/kaiser_club/test_input_fields.py holds every such
serializer's validated data and errors equal to DRF's own over generated bodies, in English and
in French, one language after the other.
"""

from __future__ import annotations

import threading
from typing import Any

from django.utils import translation
from django.utils.functional import cached_property
from rest_framework import serializers
from rest_framework.utils.formatting import lazy_format

_binding = threading.Lock()


class FieldsBoundOnce:
    """Mix into a ``Serializer`` whose fields read no context (no request, no related
    queryset scoped by it). With an instance, a context, ``partial`` or a parent: DRF's own
    fields."""

    @cached_property
    def fields(self) -> Any:
        own = serializers.Serializer.fields.func  # type: ignore[attr-defined]
        this: Any = self
        if this.instance is not None or this._context or this.partial or this.parent is not None:
            return own(self)
        cls = type(self)
        language = translation.get_language()
        shared: dict[str | None, Any] | None = cls.__dict__.get("_fields_bound_once")
        found = None if shared is None else shared.get(language)
        if found is None:
            with _binding:
                shared = cls.__dict__.get("_fields_bound_once")
                if shared is None:
                    shared = {}
                    cls._fields_bound_once = shared  # type: ignore[attr-defined]
                found = shared.get(language)
                if found is None:
                    found = own(cls())  # bound to a serializer given nothing, as this one
                    _settle_messages(found)
                    shared[language] = found
        return found


def _settle_messages(fields: Any) -> None:
    """Makes every ``lazy_format`` refusal text of these fields now, in this language."""
    for field in fields.values():
        for validator in field.validators:
            message = getattr(validator, "message", None)
            if isinstance(message, lazy_format):
                str(message)
