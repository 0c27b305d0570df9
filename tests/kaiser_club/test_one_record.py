"""One person, one record, as a club admin meets it: removing and adding a member again, two
members of one name, a CSV that gives a member an email, the merge page. Each case of the
issue is a test here, through the services, the pages and the API."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from django.urls import reverse

from kaiser_club.actors import Actor
from kaiser_club.errors import Conflict
from kaiser_club.members import services
from kaiser_club.members.csv_io import (
    Action,
    members_csv_export,
    members_csv_import,
    members_csv_preview,
)
from kaiser_club.members.duplicates import likely_duplicates
from kaiser_club.members.merge import player_merge
from kaiser_club.members.selectors import players_managed_by
from kaiser_club.models import Club, FormerMembership, Membership, Player
from kaiser_club.people import NEW, ChooseRecord, name_key, names_close
from kaiser_club.roles import Role
from scoring.models import Team
from scoring.ratings import current_ratings
from scoring.stats import player_stats
from tests.factories import member
from tests.kaiser_club.club_helpers import join, new_club
from tests.scoring.season import build_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def club() -> Club:
    return new_club(name="Saskatoon Kaiser", slug="saskatoon")


@pytest.fixture
def admin(club: Club) -> Any:
    return member(club, Role.CLUB_ADMIN, username="olga")


def played_member(club: Club) -> Player:
    """Ann of the hand-made season (games and a rating of her own), a member of the club."""
    season = build_season(club)
    join(club, season.a)
    return season.a


# --- A removed member is a record of the club's past ------------------------------------------


def test_a_removed_member_is_added_again_as_the_same_record(club: Club, admin: Any) -> None:
    ann = played_member(club)
    before = (player_stats(player=ann).record, current_ratings().of(ann.id))
    assert before[0].games > 0 and before[1] != 1500
    membership = Membership.objects.get(club=club, player=ann)
    services.member_remove(membership=membership)
    assert FormerMembership.objects.filter(club=club, player=ann, role="player").exists()

    # Typed again by name: the page asks, and offers the record with its games.
    with pytest.raises(ChooseRecord) as asked:
        services.member_add(club=club, name="ann", actor=Actor.of(admin))
    (offered,) = asked.value.extra["choices"]["name"]
    assert (offered["id"], offered["former_clubs"]) == (ann.id, ["Saskatoon Kaiser"])
    assert offered["games"] == before[0].games + 1  # the game still in progress is one
    again = services.member_add(club=club, name="ann", actor=Actor.of(admin), choice=ann.id)

    assert again.player_id == ann.id and Player.objects.filter(name__iexact="ann").count() == 1
    assert (player_stats(player=ann).record, current_ratings().of(ann.id)) == before
    assert not FormerMembership.objects.filter(club=club, player=ann).exists()


def test_a_former_member_is_seen_merged_and_added_again_by_the_clubs_admins(
    client: Any, club: Club, admin: Any
) -> None:
    ann = played_member(club)
    services.member_remove(membership=Membership.objects.get(club=club, player=ann))
    client.force_login(admin)
    # Their page opens for the club's admin (it answered 404).
    assert client.get(reverse("players:detail", args=[ann.id])).status_code == 200
    # The past page lists them, with their games, and they can be merged.
    past = client.get(reverse("clubs:members-past", args=[club.slug])).content.decode()
    assert f'id="past-{ann.id}"' in past and "former member of Saskatoon Kaiser" in past
    assert ann in players_managed_by(user=admin)
    # "Add again" brings back the same record.
    answer = client.post(
        reverse("clubs:member-add", args=[club.slug]),
        {"existing-player": ann.id, "existing-role": "player"},
        follow=True,
    )
    assert "Ann is now a member." in answer.content.decode()
    assert Membership.objects.filter(club=club, player=ann).exists()
    # A plain member of the club does not see a former member's page.
    other = member(club, Role.PLAYER, username="pat")
    services.member_remove(membership=Membership.objects.get(club=club, player=ann))
    client.force_login(other)
    assert client.get(reverse("players:detail", args=[ann.id])).status_code == 404


def test_a_visitor_the_club_seated_is_its_admins_to_see_and_merge(
    client: Any, club: Club, admin: Any
) -> None:
    visitor = Player.objects.create(name="Vic Visitor", host_club=club)
    partner = Player.objects.create(name="Pam Partner")
    Team.objects.create(club=club, player_one=visitor, player_two=partner)
    client.force_login(admin)
    for player in (visitor, partner):  # typed in here; seated in one of its partnerships
        assert client.get(reverse("players:detail", args=[player.id])).status_code == 200
    outsider = member(new_club(name="Regina"), Role.CLUB_ADMIN, username="rex")
    client.force_login(outsider)
    assert client.get(reverse("players:detail", args=[visitor.id])).status_code == 404
    kept = services.member_add(club=club, name="Victor Visitor").player
    player_merge(actor=Actor.of(admin), keep_id=kept.id, duplicate_id=visitor.id)
    assert Team.objects.filter(player_one=kept).exists()


# --- Adding a member ----------------------------------------------------------------------------


def test_add_member_asks_about_a_name_that_exists_and_makes_a_second_only_when_told(
    club: Club, admin: Any
) -> None:
    first = services.member_add(club=club, name="Stan Melnyk").player
    actor = Actor.of(admin)
    with pytest.raises(ChooseRecord) as asked:
        services.member_add(club=club, name="stan  MELNYK", actor=actor)
    assert asked.value.status == 409 and asked.value.code == "choose_player"
    assert [c["id"] for c in asked.value.extra["choices"]["name"]] == [first.id]
    assert asked.value.extra["choices"]["name"][0]["member_here"] is True
    with pytest.raises(Conflict, match="Stan Melnyk is already a member of Saskatoon Kaiser"):
        services.member_add(club=club, name="Stan Melnyk", actor=actor, choice=first.id)
    second = services.member_add(club=club, name="Stan Melnyk", actor=actor, choice=NEW).player
    assert second.id != first.id
    assert Membership.objects.filter(club=club, player__name="Stan Melnyk").count() == 2


def test_a_new_record_may_not_take_the_email_of_another_member(club: Club, admin: Any) -> None:
    services.member_add(club=club, name="Stan Melnyk", email="stan@x.org")
    actor = Actor.of(admin)
    for choice in (None, NEW):
        with pytest.raises(Conflict, match=r"(?i)stan@x\.org is already the email of a member"):
            services.member_add(
                club=club, name="Stanley Melnyk", email="STAN@x.org", actor=actor, choice=choice
            )
    assert Player.objects.filter(email__iexact="stan@x.org").count() == 1


def test_add_member_uses_the_record_with_the_email_given(club: Club, admin: Any) -> None:
    other = new_club(name="Regina")
    Membership.objects.create(
        club=other, player=(marie := Player.objects.create(name="Marie D", email="m@x.org"))
    )
    join(other, Player.objects.get(user=admin), Role.CLUB_ADMIN)  # admin of both clubs
    made = services.member_add(
        club=club, name="Marie Desjardins", email="M@x.org", actor=Actor.of(admin)
    )
    assert made.player_id == marie.id  # one person, two clubs, one record


def test_the_add_page_shows_the_records_and_adds_the_one_chosen(
    client: Any, club: Club, admin: Any
) -> None:
    ann = played_member(club)
    services.member_remove(membership=Membership.objects.get(club=club, player=ann))
    client.force_login(admin)
    url = reverse("clubs:member-add", args=[club.slug])
    form = {"new-name": "Ann", "new-email": "", "new-role": "player"}
    asked = client.post(url, form)
    assert asked.status_code == 409
    html = asked.content.decode()
    assert f'name="new-choice" value="{ann.id}"' in html and 'value="new"' in html
    assert f"#{ann.id}, former member of Saskatoon Kaiser" in html
    done = client.post(url, {**form, "new-choice": str(ann.id)}, follow=True)
    assert done.redirect_chain and Membership.objects.filter(club=club, player=ann).exists()
    assert Player.objects.filter(name="Ann").count() == 1


def test_the_api_answers_409_with_the_choices_then_adds_the_record_chosen(
    api_client: Any, club: Club, admin: Any
) -> None:
    first = services.member_add(club=club, name="Stan Melnyk").player
    api_client.force_authenticate(admin)
    url = f"/api/clubs/{club.id}/members/"
    asked = api_client.post(url, {"name": "Stan Melnyk"}, format="json")
    assert asked.status_code == 409 and asked.json()["code"] == "choose_player"
    assert [c["id"] for c in asked.json()["choices"]["name"]] == [first.id]
    made = api_client.post(url, {"name": "Stan Melnyk", "new": True}, format="json")
    assert made.status_code == 201 and made.json()["player_id"] != first.id


# --- The members CSV ---------------------------------------------------------------------------


def test_two_members_of_one_name_export_and_import_back_unchanged(club: Club, admin: Any) -> None:
    actor = Actor.of(admin)
    services.member_add(club=club, name="Stan Melnyk")
    services.member_add(club=club, name="Stan Melnyk", actor=actor, choice=NEW)
    exported = members_csv_export(club=club)
    preview = members_csv_preview(club=club, text=exported, actor=actor)
    assert preview.ok, preview.errors
    assert {r.action for r in preview.rows} == {Action.UNCHANGED}
    done = members_csv_import(club=club, text=exported, actor=actor)
    assert (done.created, done.updated, done.unchanged) == (0, 0, 3)
    assert Player.objects.filter(name="Stan Melnyk").count() == 2
    # Without the ids, the file says which rows need one, naming both records.
    without_ids = "name\nStan Melnyk\n"
    errors = members_csv_preview(club=club, text=without_ids, actor=actor).errors
    ids = sorted(Player.objects.filter(name="Stan Melnyk").values_list("id", flat=True))
    assert len(errors) == 1 and errors[0].startswith("Row 2: 2 records could be Stan Melnyk: ")
    assert all(f"#{i}" in errors[0] for i in ids) and "id column" in errors[0]


def test_a_csv_row_giving_an_email_to_a_member_without_one_updates_that_member(
    club: Club,
) -> None:
    ron = services.member_add(club=club, name="Ron Bear").player
    text = "name,email\nRon Bear,ron@example.org\n"
    (row,) = members_csv_preview(club=club, text=text).rows
    assert (row.action, row.player, row.changes) == (
        Action.UPDATE,
        ron,
        ["email — → ron@example.org"],
    )
    members_csv_import(club=club, text=text)
    ron.refresh_from_db()
    assert ron.email == "ron@example.org" and Player.objects.count() == 1


def test_a_csv_row_of_a_former_member_makes_the_same_record_a_member_again(club: Club) -> None:
    ann = played_member(club)
    services.member_remove(membership=Membership.objects.get(club=club, player=ann))
    (row,) = members_csv_preview(club=club, text="name,role\nAnn,organiser\n").rows
    assert row.action is Action.AGAIN and row.player == ann and row.facts is not None
    done = members_csv_import(club=club, text="name,role\nAnn,organiser\n")
    assert (done.created, done.again) == (0, 1)
    assert Membership.objects.get(club=club, player=ann).role == Role.ORGANISER
    assert not FormerMembership.objects.filter(player=ann).exists()


def test_a_csv_id_of_another_clubs_record_is_refused(club: Club) -> None:
    stranger = Player.objects.create(name="Zed")
    join(new_club(name="Regina"), stranger)
    errors = members_csv_preview(club=club, text=f"id,name\n{stranger.id},Zed\n").errors
    assert errors == [
        f"Row 2: record {stranger.id} is not a member, a former member or a visitor of "
        "Saskatoon Kaiser; leave the id empty to find the person by email and name."
    ]


# --- Merging -----------------------------------------------------------------------------------


def test_the_merge_page_shows_what_tells_two_records_apart(
    client: Any, club: Club, admin: Any
) -> None:
    ann = played_member(club)
    twin = Player.objects.create(name="Ann", email="ann@example.org")
    join(club, twin)
    client.force_login(admin)
    url = reverse("clubs:members-merge", args=[club.slug])
    html = client.post(url, {"keep": ann.id, "duplicate": twin.id}).content.decode()
    assert f"Merge Ann (#{twin.id}) into Ann (#{ann.id})?" in html
    compare = re.search(r'<table class="grid compare">(.*?)</table>', html, re.DOTALL)
    assert compare is not None
    cells = re.sub(r"<[^>]+>", "|", compare.group(1))
    games = player_stats(player=ann).record.games + 1  # and the one in progress
    assert f"|Games||{games}||0|" in cells
    assert "ann@example.org" in cells and "Saskatoon Kaiser" in cells
    assert f"(#{ann.id})" in cells and f"(#{twin.id})" in cells
    # The select lists tell them apart too.
    html = client.get(url).content.decode()
    assert f"Ann (#{ann.id})</option>" in html
    assert f"Ann &lt;ann@example.org&gt; (#{twin.id})</option>" in html


def test_the_merge_page_suggests_likely_duplicates(client: Any, club: Club, admin: Any) -> None:
    stan = join(club, Player.objects.create(name="Stan Melnyk")).player
    typo = Player.objects.create(name="Stan Melnik", host_club=club)
    bear = join(club, Player.objects.create(name="Ron Bear")).player
    initial = Player.objects.create(name="R. Bear", host_club=club)
    partner = join(club, Player.objects.create(name="Lise Roy")).player
    solo_a = Player.objects.create(name="Bob", host_club=club)
    solo_b = Player.objects.create(name="Robert Smith", host_club=club)
    Team.objects.create(club=club, player_one=solo_a, player_two=partner)
    Team.objects.create(club=club, player_one=solo_b, player_two=partner)
    # Two people who partnered each other are never suggested, however close their names.
    one, two = Player.objects.create(name="Jo Lee"), Player.objects.create(name="Jo Lee")
    Team.objects.create(club=club, player_one=one, player_two=two)

    found = {
        frozenset((s.one.player.id, s.other.player.id)): s.reasons
        for s in likely_duplicates(club=club)
    }
    assert found[frozenset((stan.id, typo.id))] == ("close names",)
    assert found[frozenset((bear.id, initial.id))] == ("close names",)
    assert found[frozenset((solo_a.id, solo_b.id))] == ("the same partners (Lise Roy)",)
    assert frozenset((one.id, two.id)) not in found
    client.force_login(admin)
    html = client.get(reverse("clubs:members-merge", args=[club.slug])).content.decode()
    assert "Records that may be one person" in html
    assert f"?keep={stan.id}&amp;duplicate={typo.id}" in html


def test_names_are_folded_before_they_are_compared() -> None:
    assert name_key("  Stán  MELNYK ") == name_key("stan melnyk") == "stan melnyk"
    assert name_key("St-Pierre, Luc") == "st pierre luc"
    assert names_close("stan melnyk", "stan melnik") and names_close("r bear", "ron bear")
    assert not names_close("ann", "bob") and not names_close("jo lee", "al lee")


# --- Query budgets -----------------------------------------------------------------------------


def word(n: int, salt: str) -> str:
    digest = hashlib.sha256(f"{salt}{n}".encode()).hexdigest()
    return "".join(chr(97 + int(c, 16) + 3 * (i % 3)) for i, c in enumerate(digest[:8])).title()


@pytest.mark.parametrize("size", [3, 30])
def test_the_past_page_reads_a_fixed_number_of_queries(
    client: Any, club: Club, admin: Any, size: int, django_assert_num_queries: Any
) -> None:
    for n in range(size):
        player = services.member_add(club=club, name=f"Past {n}").player
        services.member_remove(membership=Membership.objects.get(player=player))
        Player.objects.create(name=f"Visitor {n}", host_club=club)
    client.force_login(admin)
    url = reverse("clubs:members-past", args=[club.slug])
    # session, user, club, role, former roles, the past, memberships, former memberships,
    # host clubs, games
    with django_assert_num_queries(10):
        answer = client.get(url)
    assert answer.content.decode().count('<tr id="past-') == 2 * size


@pytest.mark.parametrize("size", [3, 30])
def test_the_merge_page_reads_a_fixed_number_of_queries(
    client: Any, club: Club, admin: Any, size: int, django_assert_num_queries: Any
) -> None:
    for n in range(size):
        name = f"{word(n, 'first')} {word(n, 'last')}"  # names far apart, each twice
        join(club, Player.objects.create(name=name))
        Player.objects.create(name=name, host_club=club)
    client.force_login(admin)
    url = reverse("clubs:members-merge", args=[club.slug])
    # session, user, club, role, the admin's clubs; the suggestions: the club's records,
    # partners, who met (teams, games), facts (memberships, former, host clubs, games); the
    # two selects' records
    with django_assert_num_queries(15):
        answer = client.get(url)
    assert answer.content.decode().count("?keep=") == min(size, 20)


@pytest.mark.parametrize("size", [2, 10])
def test_the_add_page_asking_which_record_reads_a_fixed_number_of_queries(
    client: Any, club: Club, admin: Any, size: int, django_assert_num_queries: Any
) -> None:
    for _ in range(size):
        Player.objects.create(name="Stan Melnyk", host_club=club)
    client.force_login(admin)
    url = reverse("clubs:member-add", args=[club.slug])
    # session, user, club, role, the admin's clubs (for the page's other records); the service,
    # in a savepoint (2): the actor's role (the service decides it), the club's lock, the admin's
    # clubs, the records, facts (memberships, former, host clubs, games); the page: other
    # records (exists, select)
    with django_assert_num_queries(18):
        answer = client.post(url, {"new-name": "Stan Melnyk", "new-role": "player"})
    assert answer.status_code == 409
    assert answer.content.decode().count('name="new-choice"') == size + 1


def test_the_new_sentences_are_in_french(client: Any, club: Club, admin: Any) -> None:
    join(club, Player.objects.create(name="Stan Melnyk"))
    Player.objects.create(name="Stan Melnik", host_club=club)
    client.force_login(admin)
    merge = client.get(
        reverse("clubs:members-merge", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Fiches qui pourraient être une même personne" in merge and "des noms proches" in merge
    asked = client.post(
        reverse("clubs:member-add", args=[club.slug]),
        {"new-name": "Stan Melnik", "new-role": "player"},
        HTTP_ACCEPT_LANGUAGE="fr",
    ).content.decode()
    assert (
        "Quelle fiche est Stan Melnik\u00a0?" in asked and "visiteur de Saskatoon Kaiser" in asked
    )
    past = client.get(
        reverse("clubs:members-past", args=[club.slug]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Anciens membres et visiteurs de" in past and "Réinscrire" in past
