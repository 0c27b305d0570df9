"""Invitation links: made by a club admin, opened by the person, who makes an account (or uses
the one they have) and so becomes the member's player record's user."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from kaiser_club.errors import Conflict, InvalidInput, NotFound
from kaiser_club.members import invitations, services
from kaiser_club.models import Club, Invitation, Membership, Player
from kaiser_club.roles import Role
from tests.factories import member, start_game
from tests.kaiser_club.club_helpers import join, new_club

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def club() -> Club:
    return new_club(name="Regina Kaiser Club", slug="regina")


@pytest.fixture
def admin(club: Club) -> Any:
    return member(club, Role.CLUB_ADMIN, username="olga")


@pytest.fixture
def walter(club: Club) -> Membership:
    return services.member_add(club=club, name="Walter Kowalchuk", email="w@example.org")


def link_path(token: str) -> str:
    return reverse("invitation", kwargs={"token": token})


def test_only_a_digest_of_the_token_is_stored(walter: Membership) -> None:
    made = invitations.invitation_create(membership=walter)
    stored = Invitation.objects.get()
    assert made.token not in stored.token_digest
    assert stored.token_digest == invitations.token_digest(made.token)
    assert abs(stored.expires_at - stored.created_at - timedelta(days=14)) < timedelta(seconds=5)


def test_the_whole_way_through_the_pages(
    client: Any, club: Club, admin: Any, walter: Membership
) -> None:
    client.force_login(admin)
    url = reverse("clubs:member-invite", kwargs={"slug": "regina", "membership_id": walter.id})
    page = client.post(url).content.decode()
    link = re.search(r'value="(http://testserver/invitations/[^"]+/)"', page)
    assert link is not None
    client.logout()

    page = client.get(link.group(1)).content.decode()
    assert "Join Regina Kaiser Club" in page and "Walter Kowalchuk" in page
    answer = client.post(
        link.group(1),
        {"username": "walter", "password1": "card-table-42", "password2": "card-table-42"},
        follow=True,
    )
    assert "Welcome to Regina Kaiser Club. You sign in as walter from now on." in (
        answer.content.decode()
    )
    walter.player.refresh_from_db()
    user = User.objects.get(username="walter")
    assert walter.player.user == user
    assert user.email == "w@example.org"
    assert answer.context["user"] == user  # signed in
    invitation = Invitation.objects.get()
    assert invitation.accepted_by == user and invitation.accepted_at is not None

    client.logout()
    again = client.get(link.group(1))
    assert again.status_code == 400
    assert "This invitation was already used, on" in again.content.decode()


def test_sign_up_form_errors(client: Any, walter: Membership) -> None:
    made = invitations.invitation_create(membership=walter)
    User.objects.create_user("taken", password="x")
    answer = client.post(
        link_path(made.token), {"username": "walter", "password1": "abc", "password2": "abc"}
    )
    assert answer.status_code == 400
    assert "This password is too short" in answer.content.decode()
    answer = client.post(
        link_path(made.token),
        {"username": "taken", "password1": "card-table-42", "password2": "card-table-42"},
    )
    assert answer.status_code == 400 and "already exists" in answer.content.decode()
    assert Player.objects.get(id=walter.player_id).user is None


def test_refusals(walter: Membership) -> None:
    with pytest.raises(NotFound, match="This invitation link is not known"):
        invitations.invitation_check(token="nonsense")
    first = invitations.invitation_create(membership=walter)
    second = invitations.invitation_create(membership=walter)
    with pytest.raises(InvalidInput, match="replaced by a newer link or withdrawn"):
        invitations.invitation_check(token=first.token)
    later = timezone.now() + timedelta(days=15)
    with pytest.raises(InvalidInput, match="This invitation expired on"):
        invitations.invitation_check(token=second.token, now=later)
    assert invitations.invitation_check(token=second.token).player == walter.player


def test_no_invitation_for_a_member_who_already_signs_in(club: Club, admin: Any) -> None:
    with pytest.raises(Conflict, match="olga already signs in with an account"):
        invitations.invitation_create(membership=Membership.objects.get(player__user=admin))


def test_a_removed_member_cannot_use_the_link(walter: Membership) -> None:
    made = invitations.invitation_create(membership=walter)
    services.member_remove(membership=walter)
    with pytest.raises(InvalidInput, match="is no longer a member of Regina Kaiser Club"):
        invitations.invitation_check(token=made.token)


def test_signed_in_without_a_player_record(client: Any, walter: Membership) -> None:
    made = invitations.invitation_create(membership=walter)
    user = User.objects.create_user("wk", password="x")
    client.force_login(user)
    assert "Accept to become this player" in client.get(link_path(made.token)).content.decode()
    answer = client.post(link_path(made.token))
    assert answer.status_code == 302
    assert Player.objects.get(user=user) == walter.player


def test_signed_in_with_a_player_record_of_another_club_merges(
    client: Any, club: Club, walter: Membership
) -> None:
    """The person plays at Saint-Boniface with an account; Regina added them as a new member
    and invited them: accepting joins Regina's record to theirs, games and all."""
    elsewhere = new_club(name="Saint-Boniface")
    user = member(elsewhere, Role.ORGANISER, username="walterk")
    own = Player.objects.get(user=user)
    game = start_game(club=club)
    game.north = walter.player
    game.save()
    made = invitations.invitation_create(membership=walter)
    client.force_login(user)
    page = client.get(link_path(made.token)).content.decode()
    assert "You already have a player record, walterk." in page
    client.post(link_path(made.token))
    assert not Player.objects.filter(id=walter.player_id).exists()
    assert set(Membership.objects.filter(player=own).values_list("club__name", "role")) == {
        ("Regina Kaiser Club", "player"),
        ("Saint-Boniface", "organiser"),
    }
    game.refresh_from_db()
    assert game.north_id == own.id


def test_an_unknown_link_page(client: Any) -> None:
    answer = client.get(link_path("not-a-token"))
    assert answer.status_code == 404
    assert "This invitation link is not known" in answer.content.decode()


def test_the_member_list_says_a_link_is_open(
    client: Any, club: Club, admin: Any, walter: Membership
) -> None:
    invitations.invitation_create(membership=walter)
    join(club, Player.objects.create(name="Nobody Invited"))
    client.force_login(admin)
    page = client.get(reverse("clubs:detail", kwargs={"slug": "regina"})).content.decode()
    assert page.count("a link is open") == 1


def test_accepting_refused_when_the_two_records_sat_at_one_game(
    client: Any, club: Club, walter: Membership
) -> None:
    """The signed-in person's own record sat at a game with the invited record: they are two
    people, so the link is not theirs; nothing changes and the page says why."""
    user = member(club, Role.PLAYER, username="someone")
    own = Player.objects.get(user=user)
    game = start_game(club=club)
    game.north, game.east = own, walter.player
    game.save()
    made = invitations.invitation_create(membership=walter)
    client.force_login(user)
    answer = client.post(link_path(made.token), follow=True)
    assert "these are two different people; nothing was merged" in answer.content.decode()
    assert Player.objects.filter(id=walter.player_id, user__isnull=True).exists()
    assert Invitation.objects.get().accepted_at is None
