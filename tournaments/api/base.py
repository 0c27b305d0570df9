"""What every events endpoint shares: find the event the URL names and check the role."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse
from rest_framework.request import Request
from rest_framework.views import APIView

from kaiser_club.errors import NotFound
from kaiser_club.sentences import N_

from ..models import Entry, Event, Pairing, Round, Table
from ..permissions import EventAction
from ..selectors import event_for, pairing_in, round_in

ERRORS: dict[int | str, Any] = {
    400: OpenApiResponse(description="The request breaks a rule; the message says which."),
    403: OpenApiResponse(description="Your role in this club does not allow this."),
    404: OpenApiResponse(description="No such event (or one you cannot see)."),
    409: OpenApiResponse(description="The event moved on; the message says what is in the way."),
}


class EventView(APIView):
    """Reads need a player of the event's club; writes an organiser."""

    def event(self, request: Request, pk: int | str, *, write: bool | None = None) -> Event:
        if write is None:
            write = request.method not in ("GET", "HEAD", "OPTIONS")
        action = EventAction.MANAGE if write else EventAction.READ
        return event_for(user=request.user, event_id=int(pk), action=action)

    def event_seen(self, request: Request, pk: int | str) -> Event:
        """The event, if the user may see it (404 otherwise), for a write whose service takes
        the actor and decides who may make it."""
        return event_for(user=request.user, event_id=int(pk), action=EventAction.READ)


def round_of(event: Event, number: int | str) -> Round:
    return round_in(event=event, number=number)


def pairing_of(event: Event, pairing_id: int | str) -> Pairing:
    return pairing_in(event=event, pairing_id=pairing_id)


def entry_of(event: Event, entry_id: int | str) -> Entry:
    found = Entry.objects.filter(event=event, id=int(entry_id)).select_related("team").first()
    if found is None:
        raise NotFound(
            N_("%(name)s has no entry %(entry_id)s.", name=event.name, entry_id=entry_id)
        )
    return found


def table_of(event: Event, table_id: int | str) -> Table:
    found = Table.objects.filter(event=event, id=int(table_id)).first()
    if found is None:
        raise NotFound(
            N_("%(name)s has no table %(table_id)s.", name=event.name, table_id=table_id)
        )
    return found
