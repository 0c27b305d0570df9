"""Who may run an event: its club's organisers (staff anywhere). Every action on an event's
settings, entries, tables, rounds and results asks here before it reads or writes anything
else, so a caller that forgets to ask cannot skip the check."""

from __future__ import annotations

from kaiser_club.actors import Actor
from kaiser_club.errors import NotAllowed
from kaiser_club.models import Club
from kaiser_club.refusals import role_refused

from ..models import Event
from ..permissions import EventAction


def may_run(actor: Actor, club_id: int | None) -> bool:
    return actor.has_role(club_id=club_id, at_least=EventAction.MANAGE.value)


def require_organiser(actor: Actor, event: Event) -> None:
    """Refuses (403) anyone but an organiser of the event's club."""
    if not may_run(actor, event.club_id):
        raise role_refused(event.club)


def require_club_organiser(actor: Actor, club: Club, refusal: NotAllowed | None = None) -> None:
    """Refuses (403) anyone but an organiser of ``club``, for an action on the club's own
    things (a new event, a season): ``refusal`` says which, else the role refusal."""
    if not may_run(actor, club.id):
        raise refusal if refusal is not None else role_refused(club)
