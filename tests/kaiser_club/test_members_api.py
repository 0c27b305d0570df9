"""The members API: list, add, change a role, remove; errors as sentences."""

from __future__ import annotations

from typing import Any

import pytest

from kaiser_club.members import services
from kaiser_club.models import Club, Membership, Player
from kaiser_club.roles import Role
from tests.factories import member
from tests.kaiser_club.club_helpers import new_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return new_club(name="Regina Kaiser Club", slug="regina")


def test_list_shows_emails_to_club_admins_only(api_client: Any, club: Club) -> None:
    services.member_add(club=club, name="Walter", email="w@example.org")
    url = f"/api/clubs/{club.id}/members/"
    api_client.force_authenticate(member(club, Role.CLUB_ADMIN, username="olga"))
    rows = api_client.get(url).json()
    assert [(r["name"], r["role"], r["email"], r["has_account"]) for r in rows] == [
        ("olga", "club_admin", "", True),
        ("Walter", "player", "w@example.org", False),
    ]
    api_client.force_authenticate(member(club, Role.SCOREKEEPER, username="sam"))
    rows = api_client.get(url).json()
    assert "email" not in rows[0] and len(rows) == 3


def test_add_change_remove(api_client: Any, club: Club) -> None:
    api_client.force_authenticate(member(club, Role.CLUB_ADMIN, username="olga"))
    url = f"/api/clubs/{club.id}/members/"
    created = api_client.post(url, {"name": "Ron Bear", "email": "ron@example.org"}, format="json")
    assert created.status_code == 201
    body = created.json()
    assert (body["name"], body["role"], body["email"]) == ("Ron Bear", "player", "ron@example.org")
    one = f"{url}{body['id']}/"
    changed = api_client.patch(one, {"role": "organiser"}, format="json")
    assert changed.status_code == 200 and changed.json()["role"] == "organiser"
    assert api_client.delete(one).status_code == 204
    assert not Membership.objects.filter(id=body["id"]).exists()
    assert Player.objects.filter(name="Ron Bear").exists()


def test_errors_are_sentences(api_client: Any, club: Club) -> None:
    admin = member(club, Role.CLUB_ADMIN, username="olga")
    api_client.force_authenticate(admin)
    url = f"/api/clubs/{club.id}/members/"
    services.member_add(club=club, name="Ron", email="ron@example.org")
    clash = api_client.post(url, {"name": "Ronald", "email": "ron@example.org"}, format="json")
    assert clash.status_code == 409
    assert clash.json()["email"] == [
        "ron@example.org is already the email of a member of Regina Kaiser Club."
    ]
    bad = api_client.post(url, {"name": "", "role": "boss"}, format="json")
    assert bad.status_code == 400 and set(bad.json()) == {"name", "role"}
    own = Membership.objects.get(player__user=admin)
    last = api_client.patch(f"{url}{own.id}/", {"role": "player"}, format="json")
    assert last.status_code == 400
    assert last.json()["detail"] == (
        "olga is the only club admin of Regina Kaiser Club; make another member club admin "
        "before you make them Player."
    )
    assert api_client.patch(f"{url}999999/", {"role": "player"}, format="json").status_code == 404


def test_roles(api_client: Any, club: Club) -> None:
    url = f"/api/clubs/{club.id}/members/"
    api_client.force_authenticate(member(club, Role.ORGANISER))
    assert api_client.get(url).status_code == 200
    refused = api_client.post(url, {"name": "X"}, format="json")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "This needs the Club admin role in Regina Kaiser Club."
    api_client.force_authenticate(member(new_club(), Role.CLUB_ADMIN))
    assert api_client.get(url).status_code == 404


@pytest.mark.parametrize("size", [3, 30])
def test_list_query_count_is_flat(
    api_client: Any, club: Club, size: int, django_assert_num_queries: Any
) -> None:
    for i in range(size):
        services.member_add(club=club, name=f"M{i}")
    api_client.force_authenticate(member(club, Role.PLAYER))
    with django_assert_num_queries(3):  # club, role, members
        assert len(api_client.get(f"/api/clubs/{club.id}/members/").json()) == size + 1
