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

import functools
import inspect
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django.core.exceptions import ObjectDoesNotExist
from rest_framework.fields import Field, SkipField
from rest_framework.relations import PKOnlyObject

# (the field, the one attribute it reads when DRF's own reading of it is a plain look-up)
_Reader = tuple[Field[Any, Any, Any, Any], str | None]


class BoundOnce:
    """Mix into a serializer whose representation reads no context (no request, no URLs)."""

    _bound_fields: ClassVar[Sequence[Field[Any, Any, Any, Any]]]
    _bound_readers: ClassVar[Sequence[_Reader]]

    @classmethod
    def readable_fields(cls) -> Sequence[Field[Any, Any, Any, Any]]:
        found = cls.__dict__.get("_bound_fields")
        if found is None:
            prototype: Any = cls()
            found = tuple(prototype._readable_fields)
            cls._bound_fields = found  # the class's own: a subclass binds its own fields
        return found

    @classmethod
    def readers(cls) -> Sequence[_Reader]:
        """Each readable field, with the attribute it reads when reading it is a plain look-up
        (one attribute, DRF's own ``get_attribute``): ~70 fields a hand's answer, where DRF's
        look-up (a Mapping check through the ABC, a callable check) cost ~0.04 ms."""
        found = cls.__dict__.get("_bound_readers")
        if found is None:
            found = tuple((field, _plain_attribute(field)) for field in cls.readable_fields())
            cls._bound_readers = found
        return found

    def to_representation(self, instance: Any) -> dict[str, Any]:
        return self.answer(instance)

    @classmethod
    def answer(cls, instance: Any) -> dict[str, Any]:
        """What ``cls(instance).data`` answers, without making a serializer for the call (its
        fields' and error messages' set-up, ~0.08 ms for a hand's answer)."""
        answer: dict[str, Any] = {}
        mapping = isinstance(instance, Mapping)
        for field, name in cls.readers():
            try:
                attribute = _read(field, name, instance, mapping)
            except SkipField:
                continue
            value = attribute.pk if isinstance(attribute, PKOnlyObject) else attribute
            answer[field.field_name] = (  # type: ignore[index]
                None if value is None else field.to_representation(attribute)
            )
        return answer


def _plain_attribute(field: Field[Any, Any, Any, Any]) -> str | None:
    attrs = field.source_attrs
    if len(attrs) == 1 and type(field).get_attribute is Field.get_attribute:
        return str(attrs[0])
    return None  # a dotted source, "*", or a field that reads in its own way (relations)


def _read(field: Field[Any, Any, Any, Any], name: str | None, instance: Any, mapping: bool) -> Any:
    """``field.get_attribute(instance)``, the plain look-up done here as DRF's
    ``fields.get_attribute`` does it: a related row that is gone reads None, a callable that is
    not a function or method (a related manager) is the value itself. A function or method to
    call, and a look-up that fails, are DRF's to settle (its defaults, SkipField, messages):
    the attribute is then read again there."""
    if name is not None:
        try:
            value = instance[name] if mapping else getattr(instance, name)
        except ObjectDoesNotExist:
            return None
        except (KeyError, AttributeError):
            pass
        else:
            if not _may_be_called(value):
                return value
    return field.get_attribute(instance)


def _may_be_called(value: Any) -> bool:
    """Whether DRF's ``is_simple_callable`` may call it (or refuse it, a built-in): any other
    value, callable or not, DRF shows as it is."""
    return (
        inspect.isbuiltin(value)
        or inspect.isfunction(value)
        or inspect.ismethod(value)
        or isinstance(value, functools.partial)
    )
