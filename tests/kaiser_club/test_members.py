"""Club members: add, change roles, remove, the member list and who may do what."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from kaiser_club.errors import Conflict, InvalidInput
from kaiser_club.members import services
from kaiser_club.models import Club, Membership, Player
from kaiser_club.roles import Role
from tests.factories import member, start_game
from tests.kaiser_club.club_helpers import join, new_club

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return new_club(name="Regina Kaiser Club", slug="regina")


@pytest.fixture
def admin(club: Club) -> Any:
    return member(club, Role.CLUB_ADMIN, username="olga")


def test_add_a_member(club: Club) -> None:
    membership = services.member_add(club=club, name="  Walter   Kowalchuk ", email="w@example.org")
    assert membership.player.name == "Walter Kowalchuk"
    assert membership.role == Role.PLAYER
    assert membership.player.user is None


def test_add_refuses_a_bad_email_and_an_email_already_in_the_club(club: Club) -> None:
    with pytest.raises(InvalidInput, match="'w@' is not an email address"):
        services.member_add(club=club, name="Walter", email="w@")
    services.member_add(club=club, name="Walter", email="w@example.org")
    with pytest.raises(Conflict, match=r"W@example\.org is already the email of a member"):
        services.member_add(club=club, name="Walt", email="W@example.org")


def test_a_person_can_belong_to_several_clubs(club: Club) -> None:
    other = new_club()
    membership = services.member_add(club=club, name="Marie")
    services.member_add_existing(club=other, player=membership.player, role=Role.ORGANISER)
    roles = dict(
        Membership.objects.filter(player=membership.player).values_list("club__slug", "role")
    )
    assert roles == {"regina": "player", other.slug: "organiser"}
    with pytest.raises(Conflict, match="Marie is already a member of"):
        services.member_add_existing(club=other, player=membership.player)


def test_change_role_and_the_last_club_admin(club: Club, admin: Any) -> None:
    admin_membership = Membership.objects.get(player__user=admin)
    with pytest.raises(InvalidInput, match="olga is the only club admin of Regina Kaiser Club"):
        services.member_change_role(membership=admin_membership, role=Role.PLAYER)
    other = services.member_add(club=club, name="Ron", role=Role.PLAYER)
    services.member_change_role(membership=other, role=Role.CLUB_ADMIN)
    services.member_change_role(membership=admin_membership, role=Role.ORGANISER)
    admin_membership.refresh_from_db()
    assert admin_membership.role == Role.ORGANISER


def test_remove_keeps_the_player_and_their_games(club: Club, admin: Any) -> None:
    game = start_game(club=club)
    player = game.north
    membership = join(club, player)
    services.member_remove(membership=membership)
    assert not Membership.objects.filter(id=membership.id).exists()
    assert Player.objects.filter(id=player.id).exists()
    game.refresh_from_db()
    assert game.north_id == player.id
    with pytest.raises(InvalidInput, match="only club admin"):
        services.member_remove(membership=Membership.objects.get(player__user=admin))


# Pages


def test_member_list_shows_emails_to_club_admins_only(client: Any, club: Club, admin: Any) -> None:
    services.member_add(club=club, name="Walter", email="walter@example.org")
    url = reverse("clubs:detail", kwargs={"slug": club.slug})
    client.force_login(admin)
    page = client.get(url).content.decode()
    assert "walter@example.org" in page and "Invitation link" in page
    client.force_login(member(club, Role.ORGANISER))
    page = client.get(url).content.decode()
    assert "Walter" in page and "walter@example.org" not in page
    assert "Invitation link" not in page


def test_add_page(client: Any, club: Club, admin: Any) -> None:
    client.force_login(admin)
    url = reverse("clubs:member-add", kwargs={"slug": club.slug})
    answer = client.post(
        url, {"new-name": "Doris Peters", "new-email": "", "new-role": "scorekeeper"}
    )
    assert answer.status_code == 302
    assert Membership.objects.get(club=club, player__name="Doris Peters").role == "scorekeeper"
    answer = client.post(url, {"new-name": "", "new-role": "player"})
    assert answer.status_code == 200 and "This field is required" in answer.content.decode()


def test_add_a_player_of_another_club_the_admin_runs(client: Any, club: Club, admin: Any) -> None:
    other = new_club(name="Saint-Boniface")
    join(other, Player.objects.get(user=admin), Role.CLUB_ADMIN)
    theirs = services.member_add(club=other, name="Marcel Fontaine")
    client.force_login(admin)
    url = reverse("clubs:member-add", kwargs={"slug": club.slug})
    assert "Marcel Fontaine" in client.get(url).content.decode()
    answer = client.post(url, {"existing-player": theirs.player_id, "existing-role": "player"})
    assert answer.status_code == 302
    assert Membership.objects.filter(club=club, player=theirs.player).exists()


def test_role_change_with_htmx_answers_the_row(client: Any, club: Club, admin: Any) -> None:
    membership = services.member_add(club=club, name="Ken")
    client.force_login(admin)
    url = reverse("clubs:member-role", kwargs={"slug": club.slug, "membership_id": membership.id})
    answer = client.post(url, {"role": "organiser"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    body = answer.content.decode()
    assert body.lstrip().startswith("<tr") and 'value="organiser" selected' in body
    own = Membership.objects.get(player__user=admin)
    url = reverse("clubs:member-role", kwargs={"slug": club.slug, "membership_id": own.id})
    answer = client.post(url, {"role": "player"}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 400 and "only club admin" in answer.content.decode()


def test_role_change_without_javascript_redirects(client: Any, club: Club, admin: Any) -> None:
    membership = services.member_add(club=club, name="Ken")
    client.force_login(admin)
    url = reverse("clubs:member-role", kwargs={"slug": club.slug, "membership_id": membership.id})
    answer = client.post(url, {"role": "scorekeeper"}, follow=True)
    assert "Ken is now Scorekeeper." in answer.content.decode()


def test_remove_page(client: Any, club: Club, admin: Any) -> None:
    membership = services.member_add(club=club, name="Ed")
    client.force_login(admin)
    url = reverse("clubs:member-remove", kwargs={"slug": club.slug, "membership_id": membership.id})
    assert "Remove Ed from Regina Kaiser Club?" in client.get(url).content.decode()
    answer = client.post(url, follow=True)
    assert "Ed is no longer a member of Regina Kaiser Club; their games are kept." in (
        answer.content.decode()
    )


@pytest.mark.parametrize("size", [3, 30])
def test_member_list_query_count_is_flat(
    client: Any, club: Club, admin: Any, size: int, django_assert_num_queries: Any
) -> None:
    for i in range(size):
        services.member_add(club=club, name=f"Member {i}", email=f"m{i}@example.org")
    client.force_login(admin)
    url = reverse("clubs:detail", kwargs={"slug": club.slug})
    # session, user, club, role, members (with their open invitations)
    with django_assert_num_queries(5):
        answer = client.get(url)
    assert answer.status_code == 200
    assert answer.content.decode().count('<tr id="member-') == size + 1
