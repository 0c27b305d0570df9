"""The event's row lock: every write that changes an event's rounds, tables, entries or
results takes it first, so that two of them run one after the other."""

from __future__ import annotations

from ..models import Event


def lock_event(event_id: int) -> Event:
    return Event.objects.select_for_update().get(id=event_id)
