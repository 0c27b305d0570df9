"""Sending a Celery task to the broker (Redis in production) as a convenience: a request that
queues a job never fails, nor waits long, because the broker is away.

``send`` sends without retries (``retry=False``: the broker's connection timeouts,
``CELERY_BROKER_CONNECTION_TIMEOUT`` and its transport options, bound the wait) and raises
``Unreachable`` when the broker cannot take the message; the caller then does without it, as
its own job requires: the standings are computed in the request, a round is generated in the
request, a PDF job waits in PostgreSQL for the sweep. An outage is noticed once
(``kaiser_club/outages.py``): for ``BROKER_OUTAGE_SECONDS`` after a failed send, ``send``
raises at once without asking the broker, so a hung Redis costs its timeout to one request,
not to every hand that ends a game.

With no broker (the quick start, the tests: ``CELERY_TASK_ALWAYS_EAGER``) the task runs at
once and its errors are its own: they propagate, as any bug should.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from . import outages
from .celery import app

WHAT = "The job broker (Celery)"


class Unreachable(Exception):
    """The broker could not take the message (or was found away a moment ago)."""


def _seconds() -> float:
    return float(getattr(settings, "BROKER_OUTAGE_SECONDS", 5.0))


def send(task_name: str, *args: Any, ask_anyway: bool = False) -> None:
    """Queues the task registered as ``task_name`` with ``args``; ``Unreachable`` when the
    broker cannot take it. By name, so a service never imports the task that calls it back
    (every task module is imported when the apps are ready). ``ask_anyway``: ask the broker
    even in an outage noticed a moment ago (a sweep, which no one waits for, and whose send is
    how the outage's end is noticed)."""
    task = app.tasks[task_name]
    if getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False):
        task.apply_async(args=args, retry=False)
        return
    address = str(task.app.conf.broker_url or "")
    if not ask_anyway and not outages.may_ask(WHAT, address, _seconds()):
        raise Unreachable(f"not asked, away a moment ago: {outages.last_error(WHAT, address)}")
    try:
        task.apply_async(args=args, retry=False)
    except (OperationalError, RedisError, OSError) as exc:  # the broker, not the message
        outages.went_away(WHAT, address, exc, _seconds())
        raise Unreachable(f"{type(exc).__name__}: {exc}") from exc
    outages.came_back(WHAT, address)
