"""The roles matrix's sign-up ids: the world's event opened for sign-ups on approval, with one
pair signed up (pending)."""

from __future__ import annotations

from typing import Any

from kaiser_club.actors import Actor
from tournaments.models import Event
from tournaments.services import registrations as reg


def sign_up_ids(ids: Any) -> dict[str, Any]:
    Event.objects.filter(id=ids["event"]).update(registration="approval")
    registration = reg.registration_submit(
        actor=Actor.of(None),
        event_id=ids["event"],
        people=[reg.Person("Ann Sign", "ann@x.org"), reg.Person("Bo Sign", "bo@x.org")],
        base_url="http://testserver",
    )
    return {
        "open_event": ids["event"],
        "registration": registration.id,
        "secret": registration.registrants.get(position=1).secret,
    }
