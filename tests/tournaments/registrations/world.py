"""Builders for the sign-up tests: an event that takes sign-ups, and sign-ups."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from kaiser_club.actors import Actor
from kaiser_club.models import Club
from tests.factories import ClubFactory
from tournaments import services
from tournaments.models import Entry, Event, Registrant, Registration
from tournaments.services import registrations as reg

ANYONE = Actor.of(None)


def open_event(
    *, capacity: int | None, registration: str = "open", club: Club | None = None, **settings: Any
) -> Event:
    event = services.event_create(
        club=club or cast(Club, ClubFactory()),
        name=settings.pop("name", "Open pairs"),
        date=dt.date(2026, 11, 28),
        format=settings.pop("format", "swiss"),
        rounds=3,
        check_in_required=False,
    )
    Event.objects.filter(id=event.id).update(
        registration=registration, capacity=capacity, **settings
    )
    event.refresh_from_db()
    return event


def pair(name_1: str, email_1: str, name_2: str, email_2: str) -> list[reg.Person]:
    return [reg.Person(name_1, email_1), reg.Person(name_2, email_2)]


def sign_up(event: Event, people: list[reg.Person], **kwargs: Any) -> Registration:
    kwargs.setdefault("base_url", "http://testserver")
    return reg.registration_submit(actor=ANYONE, event_id=event.id, people=people, **kwargs)


def first(registration: Registration) -> Registrant:
    return registration.registrants.get(position=1)


def entry_of(registration: Registration) -> Entry:
    registration.refresh_from_db()
    assert registration.entry is not None
    return registration.entry
