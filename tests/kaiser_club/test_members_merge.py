"""Merging two player records of one person: everything moves in one transaction, or nothing
does, with a message that says why."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from kaiser_club.actors import Actor
from kaiser_club.errors import Conflict, InvalidInput, NotAllowed
from kaiser_club.members.merge import _refuse_unique_clash, player_merge
from kaiser_club.models import Club, Invitation, Membership, Player
from kaiser_club.roles import Role
from kaiser_club.sentences import render
from scoring.models import Game, Team
from tests.factories import member, start_game
from tests.kaiser_club.club_helpers import join, new_club

pytestmark = pytest.mark.django_db
User = get_user_model()


def staff() -> Actor:
    return Actor.of(User.objects.create_user(f"staff{User.objects.count()}", is_staff=True))


@pytest.fixture
def club() -> Club:
    return new_club(name="Regina Kaiser Club", slug="regina")


def seat(game: Game, seat_name: str, player: Player) -> None:
    """Puts ``player`` in a seat (and in that seat's team), as if the game had been started so."""
    team = game.ns_team if seat_name in ("north", "south") else game.ew_team
    old = getattr(game, seat_name)
    for field in ("player_one", "player_two"):
        if getattr(team, field) == old:
            setattr(team, field, player)
    team.save()
    setattr(game, seat_name, player)
    game.save()


def test_everything_moves_to_the_record_kept(club: Club) -> None:
    other = new_club(name="Saint-Boniface")
    keep = Player.objects.create(name="Walter Kowalchuk", email="")
    dup = Player.objects.create(name="Walt Kowalchuk", email="walt@example.org")
    join(club, keep, Role.PLAYER)
    join(club, dup, Role.ORGANISER)
    join(other, dup, Role.SCOREKEEPER)
    first, second = start_game(club=club), start_game(club=other)
    seat(first, "north", keep)
    seat(second, "east", dup)
    user = User.objects.create_user("walt", password="x")
    dup.user = user
    dup.save()

    report = player_merge(actor=staff(), keep_id=keep.id, duplicate_id=dup.id)

    assert not Player.objects.filter(id=dup.id).exists()
    keep.refresh_from_db()
    assert (keep.user, keep.email) == (user, "walt@example.org")
    assert set(Membership.objects.filter(player=keep).values_list("club__name", "role")) == {
        ("Regina Kaiser Club", "organiser"),  # the higher of player and organiser
        ("Saint-Boniface", "scorekeeper"),
    }
    second.refresh_from_db()
    assert second.east == keep
    assert Team.objects.get(id=second.ew_team_id).player_one == keep
    assert report.moved[Game] == 1 and report.moved[Team] == 1
    assert report.summary() == (
        "Walt Kowalchuk was merged into Walter Kowalchuk (1 membership, 1 team, 1 game "
        "moved). Both were members of Regina Kaiser Club; one membership remains, as "
        "Organiser. Walter Kowalchuk now signs in with Walt Kowalchuk's account."
    )


def test_two_people_at_one_game_are_not_merged(club: Club) -> None:
    game = start_game(club=club)
    north, east = game.north, game.east
    with pytest.raises(Conflict) as refused:
        player_merge(actor=staff(), keep_id=north.id, duplicate_id=east.id)
    assert refused.value.message == (
        f"{north.name} and {east.name} both appear in the same game: “{game}”. One person "
        "cannot take two places there, so these are two different people; nothing was merged."
    )
    assert Player.objects.filter(id__in=[north.id, east.id]).count() == 2


def test_partners_in_one_team_are_not_merged() -> None:
    team = Team.objects.create(
        player_one=Player.objects.create(name="Ann"), player_two=Player.objects.create(name="Bob")
    )
    with pytest.raises(Conflict, match="Bob and Ann both appear in the same team"):
        player_merge(actor=staff(), keep_id=team.player_two_id, duplicate_id=team.player_one_id)


def test_two_accounts_are_not_merged() -> None:
    one = Player.objects.create(name="Ann", user=User.objects.create_user("ann1"))
    two = Player.objects.create(name="Ann", user=User.objects.create_user("ann2"))
    with pytest.raises(Conflict, match="each sign in with their own account"):
        player_merge(actor=staff(), keep_id=one.id, duplicate_id=two.id)


def test_the_same_record_twice() -> None:
    one = Player.objects.create(name="Ann")
    with pytest.raises(InvalidInput, match="Pick two different player records"):
        player_merge(actor=staff(), keep_id=one.id, duplicate_id=one.id)


def test_open_invitations_of_the_duplicate_do_not_survive(club: Club) -> None:
    from kaiser_club.members.invitations import invitation_check, invitation_create

    keep, dup = Player.objects.create(name="Ann"), Player.objects.create(name="Ann B")
    join(club, keep)
    made = invitation_create(membership=join(new_club(), dup))
    player_merge(actor=staff(), keep_id=keep.id, duplicate_id=dup.id)
    assert not Invitation.objects.exists()
    with pytest.raises(Exception, match="not known"):
        invitation_check(token=made.token)


def test_a_unique_rule_of_another_model_is_checked_before_anything_moves(club: Club) -> None:
    """The check that guards other apps' unique rules (one entry per event and player, say),
    shown on the one such rule kaiser_club has: one membership per club."""
    keep, dup = Player.objects.create(name="Ann"), Player.objects.create(name="Ann B")
    join(club, keep)
    join(club, dup)
    with pytest.raises(Conflict, match="each have their own membership where only one"):
        _refuse_unique_clash(keep, dup, Membership, Membership._meta.get_field("player"))


# Who may merge: the service decides, whichever page or caller asks


def test_a_club_admin_of_every_club_involved_may_merge(club: Club) -> None:
    admin = member(club, Role.CLUB_ADMIN, username="olga")
    other = new_club(name="Saint-Boniface")
    keep, dup = Player.objects.create(name="Ron Bear"), Player.objects.create(name="R. Bear")
    join(club, keep)
    join(club, dup)
    join(other, dup)
    # A club the admin is not in is not named to them.
    with pytest.raises(NotAllowed, match="a member of a club you are not in") as refused:
        player_merge(actor=Actor.of(admin), keep_id=keep.id, duplicate_id=dup.id)
    assert "Saint-Boniface" not in refused.value.message
    assert Player.objects.filter(id=dup.id).exists()
    # A club the admin is in, with a lower role, is named.
    join(other, Player.objects.get(user=admin), Role.ORGANISER)
    with pytest.raises(NotAllowed, match="Saint-Boniface: you are not a club admin there"):
        player_merge(actor=Actor.of(admin), keep_id=keep.id, duplicate_id=dup.id)
    assert Player.objects.filter(id=dup.id).exists()
    Membership.objects.filter(club=other, player__user=admin).update(role=Role.CLUB_ADMIN)
    player_merge(actor=Actor.of(admin), keep_id=keep.id, duplicate_id=dup.id)
    assert not Player.objects.filter(id=dup.id).exists()


def test_a_record_of_no_club_the_actor_runs_is_refused_without_its_name(club: Club) -> None:
    organiser = member(club, Role.ORGANISER, username="otto")
    admin = member(club, Role.CLUB_ADMIN, username="olga")
    keep, stranger = Player.objects.create(name="Ron Bear"), Player.objects.create(name="Zed")
    join(club, keep)
    with pytest.raises(NotAllowed) as refused:
        player_merge(actor=Actor.of(admin), keep_id=keep.id, duplicate_id=stranger.id)
    assert refused.value.message == (
        f"Player {stranger.id} is not a member, a former member or a visitor of a club where "
        "you are a club admin, so you cannot merge this record; nothing was merged."
    )
    join(club, stranger)
    with pytest.raises(NotAllowed):  # an organiser is not a club admin
        player_merge(actor=Actor.of(organiser), keep_id=keep.id, duplicate_id=stranger.id)
    assert Player.objects.filter(id=stranger.id).exists()


# The page


def test_merge_page_asks_then_merges(client: Any, club: Club) -> None:
    admin = member(club, Role.CLUB_ADMIN, username="olga")
    keep, dup = Player.objects.create(name="Ron Bear"), Player.objects.create(name="Ronald Bear")
    join(club, keep)
    join(club, dup)
    client.force_login(admin)
    url = reverse("clubs:members-merge", kwargs={"slug": "regina"})
    page = client.post(url, {"keep": keep.id, "duplicate": dup.id}).content.decode()
    assert f"Merge Ronald Bear (#{dup.id}) into Ron Bear (#{keep.id})?" in page
    answer = client.post(
        url, {"keep": keep.id, "duplicate": dup.id, "confirmed": "True"}, follow=True
    )
    assert (
        "Ronald Bear was merged into Ron Bear. Both were members of Regina Kaiser Club; one "
        "membership remains, as Player."
    ) in answer.content.decode()
    assert not Player.objects.filter(id=dup.id).exists()


def test_merge_page_needs_club_admin_in_every_club_involved(client: Any, club: Club) -> None:
    admin = member(club, Role.CLUB_ADMIN, username="olga")
    other = new_club(name="Saint-Boniface")
    keep, dup = Player.objects.create(name="Ron Bear"), Player.objects.create(name="R. Bear")
    join(club, keep)
    join(club, dup)
    join(other, dup)
    client.force_login(admin)
    url = reverse("clubs:members-merge", kwargs={"slug": "regina"})
    answer = client.post(url, {"keep": keep.id, "duplicate": dup.id, "confirmed": "True"})
    assert answer.status_code == 400
    assert "a member of a club you are not in" in answer.content.decode()
    assert Player.objects.filter(id=dup.id).exists()


def test_merge_page_shows_a_refusal(client: Any, club: Club) -> None:
    admin = member(club, Role.CLUB_ADMIN, username="olga")
    game = start_game(club=club)
    join(club, game.north)
    join(club, game.east)
    client.force_login(admin)
    url = reverse("clubs:members-merge", kwargs={"slug": "regina"})
    answer = client.post(
        url, {"keep": game.north_id, "duplicate": game.east_id, "confirmed": "True"}
    )
    assert answer.status_code == 400
    assert "these are two different people; nothing was merged" in answer.content.decode()


def test_a_merge_is_told_in_the_readers_language(club: Club) -> None:
    """What moved and what was refused name the records in the reader's language ("1 partie",
    "la même partie"), not by Django's English model names."""
    game = start_game(club=club)
    with pytest.raises(Conflict) as refused:
        player_merge(actor=staff(), keep_id=game.north_id, duplicate_id=game.east_id)
    with translation.override("fr"):
        said = render(refused.value.message)
    assert "(partie)" in said
    assert f"“{game.ns_team} c. {game.ew_team}”" in said
    keep = Player.objects.create(name="Walter Kowalchuk")
    dup = Player.objects.create(name="Walt Kowalchuk")
    Team.objects.create(player_one=dup, player_two=Player.objects.create(name="Ann"))
    Team.objects.create(player_one=dup, player_two=Player.objects.create(name="Bob"))
    report = player_merge(actor=staff(), keep_id=keep.id, duplicate_id=dup.id)
    with translation.override("fr"):
        assert report.summary() == (
            "Walt Kowalchuk a été fusionné dans Walter Kowalchuk (déplacé\u00a0: 2 équipes)."
        )
    with translation.override("en"):
        assert report.summary() == (
            "Walt Kowalchuk was merged into Walter Kowalchuk (2 teams moved)."
        )
