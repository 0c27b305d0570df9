"""Uploads and documents bigger than the app takes are refused with a sentence before any
import service (and its transaction) starts: the request body, an exported event's file and
rows, and the CSV imports' files and rows."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import translation

from kaiser_club.errors import InvalidInput
from kaiser_club.members import csv_io
from kaiser_club.models import Club, Player
from kaiser_club.roles import Role
from tests.factories import member
from tests.tournaments.helpers import make_event
from tests.tournaments.transfer.test_round_trip import swiss_event
from tournaments.services import csv_import
from tournaments.transfer import event_export, limits

pytestmark = pytest.mark.django_db


class Lazy(io.RawIOBase):
    """A body that says it is ``size`` bytes long and is never read by the server."""

    def __init__(self, size: int) -> None:
        self.size = size

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        raise AssertionError("the body was read")


def test_a_body_longer_than_the_limit_is_refused_unread(settings: Any) -> None:
    settings.MAX_REQUEST_BYTES = 1000
    client = Client()
    unread: dict[str, Any] = {"wsgi.input": Lazy(300_000_000)}
    answer = client.generic(
        "POST",
        "/api/events/import/",
        b"",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH="300000000",
        **unread,
    )
    assert answer.status_code == 413
    assert answer.json() == {
        "detail": "The request carries 286.1 MiB; this server takes at most 0.0 MiB in one "
        "request. An exported event or a CSV file is far smaller: check the file chosen.",
        "code": "too_large",
    }
    page = client.generic(
        "POST",
        "/events/import/",
        b"",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH="300000000",
        HTTP_ACCEPT="text/html",
        **unread,
    )
    assert page.status_code == 413
    assert b"this server takes at most" in page.content
    assert client.get("/healthz").status_code == 200


def test_the_default_limit_takes_the_largest_file_an_import_takes(settings: Any) -> None:
    assert settings.MAX_REQUEST_BYTES > limits.MAX_FILE_BYTES
    assert settings.MAX_REQUEST_BYTES < 2 * limits.MAX_FILE_BYTES


@pytest.fixture
def no_import(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The import services, replaced: a refusal must come before them."""
    called: list[str] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        called.append("import")
        raise AssertionError("the import service was reached")

    from tournaments.api import transfer as api
    from tournaments.management.commands import import_event as command
    from tournaments.views import transfer as page

    for module in (api, page, command):
        monkeypatch.setattr(module, "event_import", refuse)
        monkeypatch.setattr(module, "event_import_preview", refuse)
    return called


def many_players(document: dict[str, Any], count: int) -> dict[str, Any]:
    players = [{"ref": 100 + n, "name": f"Extra {n}", "email": ""} for n in range(count)]
    return {**document, "players": document["players"] + players}


def test_an_event_listing_more_players_than_an_event_has_is_refused_first(
    api_client: Any, client: Client, tmp_path: Any, no_import: list[str]
) -> None:
    event = swiss_event()
    organiser = member(event.club, Role.ORGANISER)
    document = many_players(event_export(event=event), limits.MAX_ROWS["players"])
    players = Player.objects.count()
    sentence = f"The file lists {len(document['players']):,} players; an event imports at most"
    raw = json.dumps(document, default=str).encode()

    api_client.force_authenticate(organiser)
    upload = SimpleUploadedFile("event.json", raw, "application/json")
    answer = api_client.post("/api/events/import/?dry_run=true", {"file": upload})
    assert answer.status_code == 400 and sentence in answer.json()["detail"]

    client.force_login(organiser)
    page = client.post("/events/import/", {"file": SimpleUploadedFile("e.json", raw)})
    assert page.status_code == 400 and sentence in page.content.decode()

    path = tmp_path / "event.json"
    path.write_bytes(raw)
    with pytest.raises(CommandError, match=f"Nothing was imported. {sentence}"):
        call_command("import_event", str(path))

    assert no_import == [] and Player.objects.count() == players


def test_too_many_hands_and_too_big_a_file_are_refused_first(
    api_client: Any, no_import: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    event = swiss_event()
    api_client.force_authenticate(member(event.club, Role.ORGANISER))
    document = event_export(event=event)
    hands = sum(len(game["hands"]) for game in document["games"])
    monkeypatch.setattr(limits, "MAX_HANDS", hands - 1)
    answer = api_client.post("/api/events/import/", document, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        f"The file holds {hands} hands; an event imports at most {hands - 1}."
    )
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", 100)
    upload = SimpleUploadedFile("event.json", json.dumps(document, default=str).encode())
    answer = api_client.post("/api/events/import/", {"file": upload})
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("The file has ")
    assert "an exported event may have at most 0.0 MiB" in answer.json()["detail"]
    assert no_import == []


def entries_csv(rows: int) -> str:
    return "team,player_one,player_two\n" + "".join(f"T{n},A{n},B{n}\n" for n in range(1, rows + 1))


def test_an_entries_csv_over_its_rows_is_refused_before_the_import(
    api_client: Any, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    event = make_event(teams=0)
    organiser = member(event.club, Role.ORGANISER)
    monkeypatch.setattr(csv_import, "MAX_ROWS", 3)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the import service was reached")

    from tournaments import services

    monkeypatch.setattr(services, "entries_import", refuse)
    monkeypatch.setattr(services, "parse", refuse)
    api_client.force_authenticate(organiser)
    answer = api_client.post(
        f"/api/events/{event.id}/entries/import/", {"csv": entries_csv(4)}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        "The file has 4 entries; at most 3 can be imported at once: split it."
    )
    client.force_login(organiser)
    page = client.post(f"/events/{event.id}/entries/import/", {"csv": entries_csv(4)})
    assert "The file has 4 entries; at most 3 can be imported at once" in page.content.decode()
    monkeypatch.setattr(csv_import, "MAX_BYTES", 50)
    upload = SimpleUploadedFile("entries.csv", entries_csv(2).encode() * 3, "text/csv")
    page = client.post(f"/events/{event.id}/entries/import/", {"file": upload})
    assert "at most 50 can be imported at once" in page.content.decode()


@pytest.mark.parametrize(
    ("check", "text", "french"),
    [
        (
            csv_import.check_size,
            entries_csv(4),
            "Le fichier compte 4 inscriptions\u00a0; on peut en importer au plus 3 "
            "à la fois\u00a0: divisez-le.",
        ),
        (
            csv_io.check_size,
            "name\nAnn\nBob\nCy\nDi\n",
            "Le fichier compte 4 membres\u00a0; on peut en importer au plus 3 à la fois\u00a0: "
            "divisez-le.",
        ),
    ],
)
def test_a_csv_over_its_rows_is_refused_in_the_readers_language(
    check: Any, text: str, french: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each import says its own whole sentence: the French agrees with what a row is.
    monkeypatch.setattr(csv_import, "MAX_ROWS", 3)
    monkeypatch.setattr(csv_io, "MAX_ROWS", 3)
    with pytest.raises(InvalidInput) as refused, translation.override("fr"):
        check(text)
    with translation.override("fr"):
        assert refused.value.message == french


def test_a_members_csv_over_its_rows_is_refused_before_the_import(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = Club.objects.create(name="Regina", slug="regina")
    client.force_login(member(club, Role.CLUB_ADMIN, username="olga"))
    monkeypatch.setattr(csv_io, "MAX_ROWS", 2)

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the import service was reached")

    monkeypatch.setattr(csv_io, "members_csv_import", refuse)
    text = "name\nAnn\nBob\nCy\n"
    url = "/clubs/regina/members/import/"
    page = client.post(url, {"confirm": "1", "text": text})
    assert "The file has 3 members; at most 2 can be imported at once" in page.content.decode()
    page = client.post(url, {"text": text})
    assert "The file has 3 members; at most 2 can be imported at once" in page.content.decode()
