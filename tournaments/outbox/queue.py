"""Writing the messages: one row per registrant, channel and change, in the transaction that
made the change, and the Celery task asked for each once that transaction commits. A change
already told (the row exists) is not told again."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import IntegrityError, transaction

from kaiser_club import broker

from ..models import (
    MessageChannel,
    OutboxMessage,
    PushSubscription,
    Registrant,
    Registration,
)
from ..registration_selectors import Seat
from .compose import Composed, compose

log = logging.getLogger(__name__)


def tell(
    registration: Registration,
    key: str,
    *,
    only: Iterable[Registrant] | None = None,
    seat_of: dict[int, Seat] | None = None,
    placing: str = "",
) -> list[OutboxMessage]:
    """Tells the registration's players (``only``: these of them) about ``key``: an e-mail to
    each who has not stopped them, a notification to each browser that subscribed."""
    registrants = list(only) if only is not None else list(registration.registrants.all())
    written = []
    for registrant in registrants:
        registrant.registration = registration
        composed = compose(
            registrant, key, seat=(seat_of or {}).get(registrant.id), placing=placing
        )
        if not registrant.emails_stopped:
            written += _write(registrant, MessageChannel.EMAIL, key, composed, None)
        for subscription in PushSubscription.objects.filter(registrant=registrant):
            written += _write(registrant, MessageChannel.PUSH, key, composed, subscription)
    ids = [m.id for m in written]
    if ids:
        transaction.on_commit(lambda: send_all(ids))
    return written


def _write(
    registrant: Registrant,
    channel: str,
    key: str,
    composed: Composed,
    subscription: PushSubscription | None,
) -> list[OutboxMessage]:
    try:
        with transaction.atomic():
            return [
                OutboxMessage.objects.create(
                    registrant=registrant,
                    channel=channel,
                    key=key,
                    subscription=subscription,
                    subject=composed.subject,
                    body=composed.body if channel == MessageChannel.EMAIL else composed.summary,
                )
            ]
    except IntegrityError:  # outboxmessage_once: this change was told already
        return []


def send_all(message_ids: Iterable[int]) -> None:
    """Hands each message to the broker; one it cannot take waits, queued, for the sweep."""
    for message_id in message_ids:
        try:
            broker.send("outbox.send", message_id)
        except broker.Unreachable as exc:
            log.info("Message %s not sent now: %s", message_id, exc)
