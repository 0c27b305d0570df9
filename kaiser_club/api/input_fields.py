"""Input serializers that build their fields once per class, not once per request.

DRF gives every serializer instance its own fields: a deep copy of the declared ones (each
field made again from its arguments), bound to that instance. For the hand's input (fifteen
fields) that copy was three quarters of the ~0.28 ms DRF spent checking a hand. Checking a
value does not change a field, so a serializer given only data (no instance, no context, not
partial) can share fields bound once to an instance of its class with the same nothing: the
same fields, the same root's ``partial`` and ``context``, the same answers.
tests/kaiser_club/test_input_fields.py holds every such serializer's validated data and
errors equal to DRF's own over generated bodies.
"""

from __future__ import annotations

import threading
from typing import Any

from django.utils.functional import cached_property
from rest_framework import serializers

_binding = threading.Lock()


class FieldsBoundOnce:
    """Mix into a ``Serializer`` whose fields read no context (no request, no related
    queryset scoped by it). With an instance, a context or ``partial``, DRF's own fields."""

    @cached_property
    def fields(self) -> Any:
        own = serializers.Serializer.fields.func  # type: ignore[attr-defined]
        this: Any = self
        if this.instance is not None or this._context or this.partial:
            return own(self)
        cls = type(self)
        shared = cls.__dict__.get("_fields_bound_once")
        if shared is None:
            with _binding:
                shared = cls.__dict__.get("_fields_bound_once")
                if shared is None:
                    shared = own(cls())  # bound to a serializer given nothing, as this one
                    cls._fields_bound_once = shared  # type: ignore[attr-defined]
        return shared
