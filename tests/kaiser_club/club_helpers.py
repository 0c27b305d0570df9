"""Typed helpers for the members tests (factory_boy's calls are typed as the factory)."""

from __future__ import annotations

from typing import Any

from kaiser_club.models import Club, Membership, Player
from kaiser_club.roles import Role
from tests.factories import ClubFactory, MembershipFactory


def new_club(**fields: Any) -> Club:
    club = ClubFactory(**fields)
    assert isinstance(club, Club)
    return club


def join(club: Club, player: Player, role: Role = Role.PLAYER) -> Membership:
    membership = MembershipFactory(club=club, player=player, role=role)
    assert isinstance(membership, Membership)
    return membership
