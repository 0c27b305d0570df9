"""The outbox's Celery tasks: they take ids and call the sending service.

A message whose sending failed is tried again later (``countdown`` growing with each try), up
to ``MAX_ATTEMPTS``; without a broker (eager: the quick start, the tests) the sweep tries it
again instead, as a retry inside the request would run at once and fail the request."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from .sending import MAX_ATTEMPTS, outbox_send, outbox_sweep

RETRY_SECONDS = 60


@shared_task(
    name="outbox.send",
    bind=True,
    acks_late=True,
    ignore_result=True,
    max_retries=MAX_ATTEMPTS,
)
def send_message_task(self: Any, message_id: int) -> None:
    if outbox_send(message_id=message_id) or self.request.is_eager:
        return
    raise self.retry(countdown=RETRY_SECONDS * 2**self.request.retries)


@shared_task(name="outbox.sweep", ignore_result=True)
def sweep_outbox_task() -> int:
    """Beat: sends again the messages still queued (a broker away, a failed try in eager
    mode). Returns how many were tried."""
    return outbox_sweep()
