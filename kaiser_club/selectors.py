"""Reads about people and their roles. Every page and endpoint asks these before acting."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from .models import Club, Membership, Player
from .roles import Role

AnyUser = User | AnonymousUser


def player_for_user(user: AnyUser) -> Player | None:
    if not user.is_authenticated:
        return None
    return Player.objects.filter(user=user).first()


def role_in_club(*, user: AnyUser, club_id: int | None) -> Role | None:
    """The user's role in the club; staff act as club admins everywhere."""
    if not user.is_authenticated or club_id is None:
        return None
    if getattr(user, "is_staff", False):
        return Role.CLUB_ADMIN
    role = (
        Membership.objects.filter(club_id=club_id, player__user=user)
        .values_list("role", flat=True)
        .first()
    )
    return Role(role) if role else None


def has_role(*, user: AnyUser, club_id: int | None, at_least: Role) -> bool:
    role = role_in_club(user=user, club_id=club_id)
    return role is not None and role.includes(at_least)


def club_ids_with_role(*, user: AnyUser, at_least: Role) -> list[int] | None:
    """Clubs where the user holds at least the role; None means every club (staff)."""
    if not user.is_authenticated:
        return []
    if getattr(user, "is_staff", False):
        return None
    allowed = [r.value for r in Role if r.includes(at_least)]
    return list(
        Membership.objects.filter(player__user=user, role__in=allowed).values_list(
            "club_id", flat=True
        )
    )


def clubs_for_user(*, user: AnyUser) -> QuerySet[Club]:
    ids = club_ids_with_role(user=user, at_least=Role.PLAYER)
    qs = Club.objects.all()
    return qs if ids is None else qs.filter(id__in=ids)
