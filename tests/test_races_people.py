"""Check-then-create paths of people and entries, raced on PostgreSQL with threads that meet at
a barrier just before the lock each path takes: the lock orders the writers, so the second
finds what the first made.

- the same pair entered in two events of one club at once: one team (the club's row);
- two entries of one event given the same seed at once: one keeps it, the other is told whose
  it is (the event's row);
- two invitation links asked at once for one member: one stays open (the membership's row).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any, cast

import pytest
from django.db import connection

from kaiser_club.errors import InvalidInput
from kaiser_club.members import invitations
from kaiser_club.models import Club, Invitation, Membership, Player
from kaiser_club.roles import Role
from scoring.models import Team
from tests.conftest import IN_CI
from tests.factories import ClubFactory, PlayerFactory
from tests.tournaments.helpers import staff_actor
from tests.tournaments.test_concurrency import race
from tournaments import services
from tournaments.models import Entry
from tournaments.services import entries

from .tournaments.helpers import make_event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _club() -> Club:
    return cast(Club, ClubFactory())


def _player() -> Player:
    return cast(Player, PlayerFactory())


@pytest.fixture(autouse=True)
def _on_postgresql() -> None:
    if connection.vendor != "postgresql":
        message = "row-lock races need PostgreSQL (set DATABASE_URL=postgres://...)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)


def meet_before(monkeypatch: pytest.MonkeyPatch, module: ModuleType, name: str) -> None:
    """Each racing thread waits at a barrier the first time it calls ``module.name``."""
    barrier = threading.Barrier(2, timeout=20)
    real: Callable[..., Any] = getattr(module, name)
    met: set[str] = set()

    def at_the_barrier(*args: Any, **kwargs: Any) -> Any:
        thread = threading.current_thread().name
        if thread.startswith("race") and thread not in met:
            met.add(thread)
            barrier.wait()
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, at_the_barrier)


def test_the_same_pair_entered_in_two_events_at_once_is_one_team(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club = _club()
    one, two = _player(), _player()
    first, second = make_event(teams=0, club=club), make_event(teams=0, club=club)
    meet_before(monkeypatch, entries, "lock_club")
    outcomes = race(
        lambda: services.entry_register_team_unchecked(event=first, player_one=one, player_two=two),
        lambda: services.entry_register_team_unchecked(
            event=second, player_one=two, player_two=one
        ),
    )
    assert all(isinstance(made, Entry) for made in outcomes), outcomes
    assert Team.objects.filter(club=club).count() == 1
    assert {entry.team_id for entry in outcomes} == {Team.objects.get(club=club).id}


def test_one_seed_given_twice_at_once_stays_with_one_entry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    event = make_event(teams=4, club=_club(), seeded=False)
    first, second = Entry.objects.filter(event=event).order_by("id")[:2]
    meet_before(monkeypatch, entries, "lock_event")
    actor = staff_actor()
    outcomes = race(
        lambda: services.entry_update(actor=actor, entry=first, seed=5),
        lambda: services.entry_update(actor=actor, entry=second, seed=5),
    )
    refused = [out for out in outcomes if isinstance(out, InvalidInput)]
    assert len(refused) == 1, outcomes
    assert "Seed 5 is already" in refused[0].message
    assert Entry.objects.filter(event=event, seed=5).count() == 1


def test_two_invitation_links_asked_at_once_leave_one_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    club = _club()
    membership = Membership.objects.create(club=club, player=_player(), role=Role.PLAYER)
    meet_before(monkeypatch, invitations, "lock_membership")
    outcomes = race(
        lambda: invitations.invitation_create(membership=membership),
        lambda: invitations.invitation_create(membership=membership),
    )
    assert all(isinstance(made, invitations.NewInvitation) for made in outcomes), outcomes
    still_open = Invitation.objects.filter(
        player=membership.player, accepted_at__isnull=True, revoked_at__isnull=True
    )
    assert still_open.count() == 1
