"""Answers built without building the serializer again for every object.

A ModelSerializer makes its fields from the model for every instance: for the answer to a
hand (the hand and its game, with teams and players) that was most of the time DRF spent
(~3 ms a hand). A serializer whose answer depends on the object alone (no context, no
request) can bind its readable fields once per class and reuse them. Reading is DRF's own
loop over the same fields; writing (validation) is untouched, and the schema is the same
serializer's. tests/kaiser_club/test_representation.py holds every such serializer's answer
equal to DRF's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rest_framework.fields import Field, SkipField
from rest_framework.relations import PKOnlyObject


class BoundOnce:
    """Mix into a serializer whose representation reads no context (no request, no URLs)."""

    _bound_fields: ClassVar[Sequence[Field[Any, Any, Any, Any]]]

    @classmethod
    def readable_fields(cls) -> Sequence[Field[Any, Any, Any, Any]]:
        found = cls.__dict__.get("_bound_fields")
        if found is None:
            prototype: Any = cls()
            found = tuple(prototype._readable_fields)
            cls._bound_fields = found  # the class's own: a subclass binds its own fields
        return found

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return self.answer(instance)

    @classmethod
    def answer(cls, instance: Any) -> dict[str, Any]:
        """What ``cls(instance).data`` answers, without making a serializer for the call (its
        fields' and error messages' set-up, ~0.08 ms for a hand's answer)."""
        answer: dict[str, Any] = {}
        for field in cls.readable_fields():
            try:
                attribute = field.get_attribute(instance)
            except SkipField:
                continue
            value = attribute.pk if isinstance(attribute, PKOnlyObject) else attribute
            answer[field.field_name] = (  # type: ignore[index]
                None if value is None else field.to_representation(attribute)
            )
        return answer
