"""Who may do what in an event: the least club role each action needs (the event's club)."""

from __future__ import annotations

from enum import Enum

from kaiser_club.roles import Role
from kaiser_club.selectors import AnyUser, has_role

from .models import Event


class EventAction(Enum):
    READ = Role.PLAYER  # see the event, its rounds, tables (without codes) and standings
    MANAGE = Role.ORGANISER  # everything else: settings, registration, rounds, results, codes


def may_on_event(*, user: AnyUser, action: EventAction, event: Event) -> bool:
    return has_role(user=user, club_id=event.club_id, at_least=action.value)
