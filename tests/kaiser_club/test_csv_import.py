"""Members from CSV: a preview that checks every row, a message per bad row, and nothing
imported when any row is wrong; export, and an exported file imported back unchanged."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from kaiser_club.errors import InvalidInput
from kaiser_club.members import services
from kaiser_club.members.csv_io import (
    Action,
    decode,
    members_csv_export,
    members_csv_import,
    members_csv_preview,
)
from kaiser_club.models import Club, Membership, Player
from kaiser_club.roles import Role
from tests.factories import member
from tests.kaiser_club.club_helpers import new_club

pytestmark = pytest.mark.django_db

GOOD = (
    "name,email,role\n"
    "Olga Hnatiuk,olga@example.org,club_admin\n"
    "Walter Kowalchuk,walter@example.org,Organiser\n"
    "Marie Desjardins,,\n"
    "Ron Bear,ron@example.org,scorekeeper\n"
)
BAD = (
    "name,email,role\n"  # row 1
    "Olga Hnatiuk,olga@example.org,club_admin\n"  # row 2: fine
    ",nobody@example.org,player\n"  # row 3: no name
    "Walter Kowalchuk,x@,player\n"  # row 4: not an email
    "Marie Desjardins,marie@example.org,boss\n"  # row 5: unknown role
    "Ron Bear,OLGA@example.org,player\n"  # row 6: same email as row 2
)


@pytest.fixture
def club() -> Club:
    return new_club(name="Regina Kaiser Club", slug="regina")


def test_a_good_file(club: Club) -> None:
    preview = members_csv_preview(club=club, text=GOOD)
    assert preview.ok and preview.errors == []
    assert [(r.number, r.name, r.role.value, r.action) for r in preview.rows] == [
        (2, "Olga Hnatiuk", "club_admin", Action.NEW),
        (3, "Walter Kowalchuk", "organiser", Action.NEW),
        (4, "Marie Desjardins", "player", Action.NEW),
        (5, "Ron Bear", "scorekeeper", Action.NEW),
    ]
    assert not Player.objects.exists()  # a preview writes nothing
    done = members_csv_import(club=club, text=GOOD)
    assert (done.created, done.updated, done.unchanged) == (4, 0, 0)
    assert sorted(
        Membership.objects.filter(club=club).values_list("player__name", "player__email", "role")
    ) == [
        ("Marie Desjardins", "", "player"),
        ("Olga Hnatiuk", "olga@example.org", "club_admin"),
        ("Ron Bear", "ron@example.org", "scorekeeper"),
        ("Walter Kowalchuk", "walter@example.org", "organiser"),
    ]


def test_a_bad_file_gets_a_message_per_row_and_imports_nothing(club: Club) -> None:
    preview = members_csv_preview(club=club, text=BAD)
    assert not preview.ok
    assert preview.errors == [
        "Row 3: the name is empty.",
        "Row 4: email 'x@' is not an email address.",
        "Row 5: role 'boss' is not one of player, scorekeeper, organiser, club_admin.",
        "Row 6: email OLGA@example.org is also on row 2.",
    ]
    with pytest.raises(InvalidInput) as refused:
        members_csv_import(club=club, text=BAD)
    assert refused.value.message == "Nothing was imported: 4 problems."
    assert refused.value.field_errors["rows"] == preview.errors
    assert not Player.objects.exists() and not Membership.objects.exists()


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "The file is empty: it needs a header row (name, email, role) and members."),
        ("name,email\n", "The file has a header row but no members."),
        (
            "who,mail\nOlga,o@example.org\n",
            "The first row must name the columns: name, email, role (email and role may be "
            "left out). It reads: who, mail.",
        ),
    ],
)
def test_files_that_are_not_member_lists(club: Club, text: str, error: str) -> None:
    assert members_csv_preview(club=club, text=text).errors == [error]


def test_rows_update_existing_members_by_email_or_name(club: Club) -> None:
    services.member_add(club=club, name="Olga H", email="olga@example.org", role=Role.CLUB_ADMIN)
    services.member_add(club=club, name="Marie Desjardins", role=Role.PLAYER)
    services.member_add(club=club, name="Ron Bear", email="ron@example.org", role=Role.SCOREKEEPER)
    preview = members_csv_preview(club=club, text=GOOD)
    assert [(r.number, r.action, r.changes) for r in preview.rows] == [
        (2, Action.UPDATE, ["name Olga H → Olga Hnatiuk"]),
        (3, Action.NEW, []),
        (4, Action.UNCHANGED, []),
        (5, Action.UNCHANGED, []),
    ]
    done = members_csv_import(club=club, text=GOOD)
    assert (done.created, done.updated, done.unchanged) == (1, 1, 2)
    assert Membership.objects.filter(club=club).count() == 4
    assert Player.objects.get(email="olga@example.org").name == "Olga Hnatiuk"


def test_a_file_cannot_leave_the_club_without_a_club_admin(club: Club) -> None:
    services.member_add(club=club, name="Olga", email="olga@example.org", role=Role.CLUB_ADMIN)
    text = "name,email,role\nOlga,olga@example.org,player\n"
    assert members_csv_preview(club=club, text=text).errors == [
        "Row 2: the club would be left with no club admin; keep at least one."
    ]


def test_export_then_import_changes_nothing(club: Club) -> None:
    members_csv_import(club=club, text=GOOD + "=HYPERLINK(1),,\n")
    exported = members_csv_export(club=club)
    lines = exported.splitlines()
    assert lines[0] == "id,name,email,role,joined,has_account"
    ids = {p.name: p.id for p in Player.objects.all()}
    # not run by a spreadsheet
    assert lines[1].startswith(f"{ids['=HYPERLINK(1)']},'=HYPERLINK(1),,player,")
    assert lines[3].startswith(f"{ids['Olga Hnatiuk']},Olga Hnatiuk,olga@example.org,club_admin,")
    done = members_csv_import(club=club, text=exported)
    assert (done.created, done.updated, done.unchanged) == (0, 0, 5)


def test_decode_spreadsheet_encodings() -> None:
    assert decode("\ufeffname\nRené\n".encode()) == "name\nRené\n"
    assert decode("name\nRené\n".encode("cp1252")) == "name\nRené\n"


# The pages


def test_upload_preview_then_import(client: Any, club: Club) -> None:
    client.force_login(member(club, Role.CLUB_ADMIN, username="olga"))
    url = reverse("clubs:members-import", kwargs={"slug": "regina"})
    upload = SimpleUploadedFile("members.csv", GOOD.encode(), content_type="text/csv")
    page = client.post(url, {"file": upload})
    assert page.status_code == 200
    body = page.content.decode()
    assert "Import these 4 rows" in body and body.count("new member") == 4
    assert not Player.objects.filter(name="Ron Bear").exists()
    answer = client.post(url, {"confirm": "1", "text": GOOD}, follow=True)
    assert (
        "Imported: 4 new members, 0 members again (the same records), 0 updated, 0 unchanged."
    ) in answer.content.decode()
    assert Player.objects.filter(name="Ron Bear").exists()


def test_a_bad_upload_shows_every_row_and_no_import_button(client: Any, club: Club) -> None:
    client.force_login(member(club, Role.CLUB_ADMIN, username="olga"))
    url = reverse("clubs:members-import", kwargs={"slug": "regina"})
    page = client.post(url, {"text": BAD})
    assert page.status_code == 400
    body = page.content.decode()
    assert "Nothing can be imported: 4 problems to fix first." in body
    assert "Row 4: email &#x27;x@&#x27; is not an email address." in body
    assert 'name="confirm"' not in body
    # A confirm sent anyway (an old tab, a crafted post) is checked again and refused.
    answer = client.post(url, {"confirm": "1", "text": BAD})
    assert answer.status_code == 400
    assert "Nothing was imported: 4 problems." in answer.content.decode()
    assert Player.objects.count() == 1  # olga


def test_export_download(client: Any, club: Club) -> None:
    client.force_login(member(club, Role.CLUB_ADMIN, username="olga"))
    answer = client.get(reverse("clubs:members-export", kwargs={"slug": "regina"}))
    assert answer["Content-Type"] == "text/csv; charset=utf-8"
    assert answer["Content-Disposition"] == 'attachment; filename="regina-members.csv"'
    olga = Player.objects.get(name="olga")
    assert answer.content.decode().splitlines()[1].startswith(f"{olga.id},olga,,club_admin,")
