"""The standings cache's Celery task: recompute an event's standings off the tablet's request.

Queued by the receiver in ``cache.py`` when a committed change touched a result; safe to run
twice or late (it compares versions before it computes). Without a broker (the quick start)
Celery runs it at once, in the request.
"""

from __future__ import annotations

from celery import shared_task

from .cache import refresh_event


@shared_task(name="tournaments.refresh_standings", acks_late=True, ignore_result=True)
def refresh_standings(event_id: int) -> bool:
    return refresh_event(event_id)
