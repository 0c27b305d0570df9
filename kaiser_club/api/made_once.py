"""A read-only answer's serializer made once per process, answering through DRF's public
``to_representation``.

DRF makes a serializer's fields for every serializer instance, a ModelSerializer's from its
model: for the hand's answer (the hand and its game, with teams and players: eight model
serializers) that is ~2 ms a request, twenty times the representation itself. Representing an
object reads the serializer's fields and the object and changes neither (DRF's own
``ListSerializer`` represents every object of a list with one child serializer), so one
serializer, made and bound once (its ``fields`` and its nested serializers', under a lock), can
answer every request of the process, in any thread. Only the public API is used: the
serializer made with no argument, its ``fields``, ``ListSerializer.child`` and
``to_representation(instance)``, what ``.data`` calls.

For a serializer whose answer reads no context (no request: no hyperlinks, nothing scoped to
the reader) and only for answers, never to check input (a check keeps its errors on the
serializer). tests/scoring/api/test_recorded_answer.py holds the answer equal to
``Serializer(instance).data``, in each language and from several threads at once.
"""

from __future__ import annotations

import threading
from typing import Any

from rest_framework import serializers


class MadeOnce:
    def __init__(self, serializer_class: type[serializers.Serializer[Any]]) -> None:
        self.serializer_class = serializer_class
        self._lock = threading.Lock()
        self._serializer: serializers.Serializer[Any] | None = None

    def answer(self, instance: Any) -> dict[str, Any]:
        """What ``serializer_class(instance).data`` answers."""
        serializer = self._serializer
        if serializer is None:
            with self._lock:
                if self._serializer is None:
                    self._serializer = _bound(self.serializer_class())
                serializer = self._serializer
        return dict(serializer.to_representation(instance))


def _bound(serializer: serializers.Serializer[Any]) -> serializers.Serializer[Any]:
    """The serializer with its fields, and its nested serializers' fields, made now."""
    for field in serializer.fields.values():
        nested = field.child if isinstance(field, serializers.ListSerializer) else field
        if isinstance(nested, serializers.Serializer):
            _bound(nested)
    return serializer
