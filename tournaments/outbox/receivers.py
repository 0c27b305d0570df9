"""What the players are told without anyone asking: a round drawn, the final placings; and a
withdrawn entry's place, which goes to the head of the waiting list. Each runs once the change
has committed. Within ``quiet()`` (an event's import, which writes rounds, a finished event and
withdrawn entries that are the old server's news, not this one's) nothing is told or promoted."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save

from ..choices import EntryStatus, EventStatus, RegistrationMode
from ..models import (
    Entry,
    Event,
    Pairing,
    Registrant,
    Registration,
    RegistrationStatus,
    Round,
)
from ..registration_selectors import (
    Seat,
    own_page,
    registrants_in_round,
    seat_in,
    seats_in_round,
)
from ..selectors import PAIRING_RELATED
from ..services.registrations import promote_waiting
from ..signals import match_opened
from .queue import tell

_QUIET: ContextVar[bool] = ContextVar("outbox_quiet", default=False)


@contextmanager
def quiet() -> Iterator[None]:
    """Rows saved within tell no one anything and promote no one from the waiting list."""
    token = _QUIET.set(True)
    try:
        yield
    finally:
        _QUIET.reset(token)


def round_drawn(round_id: int) -> None:
    """Tells each registrant seated in the round where to sit."""
    round_ = Round.objects.filter(id=round_id).select_related("event").first()
    if round_ is None or round_.event.registration == RegistrationMode.CLOSED:
        return
    with transaction.atomic():
        for registrant, seat in seats_in_round(round_, registrants_in_round(round_)):
            _tell_seat(registrant, seat)


def match_ready(pairing_id: int) -> None:
    """Tells the players of a bracket match whose teams became known after its round was
    drawn (a winner carried on) where to sit, from the match itself; those told already with
    the round are not told again (one message per player and round)."""
    pairing = (
        Pairing.objects.filter(id=pairing_id).select_related(*PAIRING_RELATED, "round").first()
    )
    if pairing is None or pairing.round is None:
        return
    entries = [e for e in (pairing.home_id, pairing.away_id) if e is not None]
    registrants = (
        Registrant.objects.filter(
            registration__entry_id__in=entries, registration__event_id=pairing.event_id
        )
        .exclude(messages__key=f"round-{pairing.round_id}")
        .select_related("registration", "player")
    )
    with transaction.atomic():
        for registrant in registrants:
            _tell_seat(registrant, seat_in(registrant, pairing))


def _tell_seat(registrant: Registrant, seat: Seat) -> None:
    tell(
        registrant.registration,
        f"round-{seat.round_.id}",
        only=[registrant],
        seat_of={registrant.id: seat},
    )


def _match_opened(sender: Any, event: Event, pairing_id: int, **kwargs: Any) -> None:
    if event.registration != RegistrationMode.CLOSED and not _QUIET.get():
        transaction.on_commit(partial(match_ready, pairing_id))


def final_placings(event_id: int) -> None:
    """Tells every registered player their final placing."""
    registrants = Registrant.objects.filter(
        registration__event_id=event_id, registration__status=RegistrationStatus.REGISTERED
    ).select_related("registration__event", "registration__entry", "player")
    with transaction.atomic():
        for registrant in registrants:
            registration: Registration = registrant.registration
            tell(registration, "final", only=[registrant], placing=own_page(registrant).placing)


def _round_saved(sender: Any, instance: Round, created: bool, **kwargs: Any) -> None:
    if created and not _QUIET.get():
        transaction.on_commit(partial(round_drawn, instance.id))


def _event_saved(sender: Any, instance: Event, **kwargs: Any) -> None:
    if instance.registration == RegistrationMode.CLOSED or _QUIET.get():
        return
    if instance.status == EventStatus.FINISHED:
        transaction.on_commit(partial(final_placings, instance.id))
    elif instance.capacity is not None:  # perhaps a larger capacity
        transaction.on_commit(partial(_promote, instance.id))


def _entry_saved(sender: Any, instance: Entry, **kwargs: Any) -> None:
    if instance.status == EntryStatus.WITHDRAWN and not _QUIET.get():
        transaction.on_commit(partial(_promote, instance.event_id))


def _promote(event_id: int) -> None:
    if Registration.objects.filter(event_id=event_id, status=RegistrationStatus.WAITING).exists():
        promote_waiting(event_id=event_id)


def connect() -> None:
    post_save.connect(_round_saved, sender=Round, dispatch_uid="outbox-round-drawn")
    post_save.connect(_event_saved, sender=Event, dispatch_uid="outbox-event-saved")
    post_save.connect(_entry_saved, sender=Entry, dispatch_uid="outbox-entry-withdrawn")
    match_opened.connect(_match_opened, dispatch_uid="outbox-match-opened")
