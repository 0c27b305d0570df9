"""Club roles and the selectors every page and endpoint asks before acting."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from kaiser_club.roles import Role
from kaiser_club.selectors import (
    club_ids_with_role,
    clubs_for_user,
    has_role,
    player_for_user,
    role_in_club,
)
from tests.factories import member
from tests.scoring.hands import make_club, make_user

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("role", "includes"),
    [
        (Role.PLAYER, {Role.PLAYER}),
        (Role.SCOREKEEPER, {Role.PLAYER, Role.SCOREKEEPER}),
        (Role.ORGANISER, {Role.PLAYER, Role.SCOREKEEPER, Role.ORGANISER}),
        (Role.CLUB_ADMIN, set(Role)),
    ],
)
def test_each_role_includes_the_roles_below_it(role: Role, includes: set[Role]) -> None:
    assert {other for other in Role if role.includes(other)} == includes


def test_role_in_club() -> None:
    club, other = make_club(), make_club()
    keeper = member(club, Role.SCOREKEEPER)
    staff = make_user(is_staff=True)
    assert role_in_club(user=keeper, club_id=club.id) is Role.SCOREKEEPER
    assert role_in_club(user=keeper, club_id=other.id) is None
    assert role_in_club(user=keeper, club_id=None) is None
    assert role_in_club(user=AnonymousUser(), club_id=club.id) is None
    assert role_in_club(user=staff, club_id=other.id) is Role.CLUB_ADMIN


def test_has_role() -> None:
    club = make_club()
    organiser = member(club, Role.ORGANISER)
    assert has_role(user=organiser, club_id=club.id, at_least=Role.SCOREKEEPER)
    assert has_role(user=organiser, club_id=club.id, at_least=Role.ORGANISER)
    assert not has_role(user=organiser, club_id=club.id, at_least=Role.CLUB_ADMIN)
    assert not has_role(user=AnonymousUser(), club_id=club.id, at_least=Role.PLAYER)


def test_club_ids_with_role_and_clubs_for_user() -> None:
    home, away, elsewhere = make_club(), make_club(), make_club()
    user = member(home, Role.ORGANISER)
    user.player.memberships.create(club=away, role=Role.PLAYER)
    assert sorted(club_ids_with_role(user=user, at_least=Role.PLAYER) or []) == sorted(
        [home.id, away.id]
    )
    assert club_ids_with_role(user=user, at_least=Role.SCOREKEEPER) == [home.id]
    assert club_ids_with_role(user=AnonymousUser(), at_least=Role.PLAYER) == []
    assert club_ids_with_role(user=make_user(is_staff=True), at_least=Role.CLUB_ADMIN) is None
    assert set(clubs_for_user(user=user)) == {home, away}
    assert set(clubs_for_user(user=make_user(is_staff=True))) == {home, away, elsewhere}
    assert list(clubs_for_user(user=make_user())) == []


def test_player_for_user() -> None:
    user = member(make_club(), Role.PLAYER)
    assert player_for_user(user) == user.player
    assert player_for_user(make_user()) is None
    assert player_for_user(AnonymousUser()) is None
