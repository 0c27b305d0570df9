"""Sending one message of the outbox: an e-mail through Django's mail backend (SMTP, as
configured by Django's own settings), or a browser notification through Web Push.

The message's row is locked while it is sent, so two deliveries of its task send it once; a
sent message is never sent again. A failure is counted on the row, with its error, and the
message stays queued for the next try, until ``MAX_ATTEMPTS``."""

from __future__ import annotations

import logging
import smtplib
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone

from ..models import MessageChannel, MessageStatus, OutboxMessage
from ..registration_selectors import own_page_url, stop_emails_url
from .push import PushGone, PushUnsent, push

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
SWEEP_AFTER = timedelta(minutes=2)


def _email(message: OutboxMessage) -> None:
    stop = stop_emails_url(message.registrant)
    EmailMessage(
        subject=message.subject,
        body=message.body,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[message.registrant.email],
        headers={"List-Unsubscribe": f"<{stop}>"},
    ).send()


def _deliver(message: OutboxMessage) -> None:
    if message.channel == MessageChannel.EMAIL:
        _email(message)
    elif message.subscription is not None:
        push(
            message.subscription,
            title=message.subject,
            body=message.body,
            url=own_page_url(message.registrant),
        )


@transaction.atomic
def outbox_send(*, message_id: int) -> bool:
    """Sends the message if it is still queued. False when this try failed and another is
    due."""
    message = (
        OutboxMessage.objects.select_for_update(of=("self",))
        .select_related("registrant__registration", "subscription")
        .filter(id=message_id)
        .first()
    )
    if message is None or message.status != MessageStatus.QUEUED:
        return True
    message.attempts += 1
    try:
        _deliver(message)
    except PushGone as exc:  # the browser unsubscribed: no later message goes there either
        message.status, message.error = MessageStatus.FAILED, str(exc)[:300]
        message.save(update_fields=["status", "error", "attempts"])
        if message.subscription is not None:
            message.subscription.delete()
        return True
    except (smtplib.SMTPException, OSError, PushUnsent) as exc:
        log.warning("Message %s not sent (try %s): %s", message.id, message.attempts, exc)
        message.error = f"{type(exc).__name__}: {exc}"[:300]
        if message.attempts >= MAX_ATTEMPTS:
            message.status = MessageStatus.FAILED
        message.save(update_fields=["status", "error", "attempts"])
        return message.status == MessageStatus.FAILED
    message.status, message.error, message.sent_at = MessageStatus.SENT, "", timezone.now()
    message.save(update_fields=["status", "error", "attempts", "sent_at"])
    return True


def outbox_sweep() -> int:
    """Tries again every message still queued a while after it was written."""
    due = OutboxMessage.objects.filter(
        status=MessageStatus.QUEUED, created_at__lte=timezone.now() - SWEEP_AFTER
    ).values_list("id", flat=True)
    ids = list(due[:500])
    for message_id in ids:
        outbox_send(message_id=message_id)
    return len(ids)
