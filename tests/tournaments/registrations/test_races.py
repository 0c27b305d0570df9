"""Races on the last place and on a promotion, on PostgreSQL (threads at a barrier, each in
its own connection): the event's row lock counts the places, so one sign-up gets the place and
the other waits, and a place freed goes to one registration only."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from tests.conftest import IN_CI
from tournaments.choices import EntryStatus
from tournaments.models import Entry, Event, Registration, RegistrationStatus
from tournaments.services import registrations as reg

from .world import open_event, pair, sign_up

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        message = "row-lock races need PostgreSQL (set DATABASE_URL=postgres://...)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


def race(*calls: Callable[[], Any]) -> list[Any]:
    """Runs the calls at once, each in its own thread and connection; what each returned or
    raised, in order."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def body(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = call()
        except Exception as exc:  # the outcome under test
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=body, args=(n, c)) for n, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes


def active_entries(event: Event) -> int:
    return Entry.objects.filter(event=event).exclude(status=EntryStatus.WITHDRAWN).count()


@pytest.mark.parametrize("attempt", range(3))
def test_two_sign_ups_for_the_last_place_one_place_one_waiting_list(attempt: int) -> None:
    event = open_event(capacity=2)
    sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    outcomes = race(
        lambda: sign_up(event, pair("C", "c@x.org", "D", "d@x.org")),
        lambda: sign_up(event, pair("E", "e@x.org", "F", "f@x.org")),
    )
    assert all(isinstance(o, Registration) for o in outcomes), outcomes
    assert sorted(o.status for o in outcomes) == ["registered", "waiting"]
    assert active_entries(event) == 2


def test_one_e_mail_signing_up_twice_at_once_is_one_sign_up() -> None:
    event = open_event(capacity=4)
    outcomes = race(
        lambda: sign_up(event, pair("C", "c@x.org", "D", "d@x.org")),
        lambda: sign_up(event, pair("C", "c@x.org", "E", "e@x.org")),
    )
    assert sum(isinstance(o, Registration) for o in outcomes) == 1, outcomes
    assert Registration.objects.filter(event=event).count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_a_place_freed_is_promoted_once_however_many_promote_at_once(attempt: int) -> None:
    event = open_event(capacity=1)
    sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    head = sign_up(event, pair("C", "c@x.org", "D", "d@x.org"))
    sign_up(event, pair("E", "e@x.org", "F", "f@x.org"))
    Event.objects.filter(id=event.id).update(capacity=2)  # one more place, no one told yet
    outcomes = race(
        lambda: reg.promote_waiting(event_id=event.id),
        lambda: reg.promote_waiting(event_id=event.id),
    )
    promoted = [r.id for o in outcomes for r in o]
    assert promoted == [head.id]
    assert active_entries(event) == 2
    assert Registration.objects.filter(event=event, status=RegistrationStatus.WAITING).count() == 1


def test_a_withdrawal_and_a_newcomer_at_once_leave_the_place_to_the_waiting_list() -> None:
    event = open_event(capacity=1)
    registered = sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    head = sign_up(event, pair("C", "c@x.org", "D", "d@x.org"))
    outcomes = race(
        lambda: reg.registration_withdraw(registrant=registered.registrants.get(position=1)),
        lambda: sign_up(event, pair("E", "e@x.org", "F", "f@x.org")),
    )
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    head.refresh_from_db()
    assert head.status == RegistrationStatus.REGISTERED  # promoted once the withdrawal committed
    assert outcomes[1].status == RegistrationStatus.WAITING
    assert active_entries(event) == 1
