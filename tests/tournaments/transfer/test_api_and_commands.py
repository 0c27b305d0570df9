"""The organiser's download and upload, and the two management commands."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from kaiser_club.roles import Role
from scoring.models import Game
from tests.factories import member
from tournaments.models import Event
from tournaments.standings.queries import event_standings

from .test_round_trip import swiss_event, without_moment

pytestmark = pytest.mark.django_db


def test_download_then_upload_as_organiser(api_client):
    event = swiss_event()
    api_client.force_authenticate(member(event.club, Role.ORGANISER))
    answer = api_client.get(f"/api/events/{event.id}/export/")
    assert answer.status_code == 200
    assert answer["Content-Disposition"].startswith("attachment; filename=")
    document = json.loads(answer.content)
    upload = SimpleUploadedFile("event.json", answer.content, content_type="application/json")
    created = api_client.post("/api/events/import/", {"file": upload}, format="multipart")
    assert created.status_code == 201, created.json()
    copy_ = Event.objects.get(id=created.json()["id"])
    again = json.loads(api_client.get(f"/api/events/{copy_.id}/export/").content)
    assert without_moment(again) == without_moment(document)


def test_a_refused_upload_says_why_and_writes_nothing(api_client):
    event = swiss_event()
    api_client.force_authenticate(member(event.club, Role.ORGANISER))
    document = json.loads(api_client.get(f"/api/events/{event.id}/export/").content)
    document["games"][0]["hands"][0]["bid"] = 4
    games = Game.objects.count()
    answer = api_client.post("/api/events/import/", document, format="json")
    assert answer.status_code == 400
    assert "Game 1, hand 1: Bid 4 is below this game's minimum of 7." in answer.json()["detail"]
    assert Game.objects.count() == games
    garbage = SimpleUploadedFile("event.json", b"{not json", content_type="application/json")
    answer = api_client.post("/api/events/import/", {"file": garbage}, format="multipart")
    assert answer.status_code == 400 and "not JSON" in answer.json()["detail"]


def test_the_commands_export_and_import(tmp_path):
    event = swiss_event()
    out = io.StringIO()
    call_command("export_event", str(event.id), stdout=out)
    path = tmp_path / "event.json"
    path.write_text(out.getvalue())
    said = io.StringIO()
    call_command("import_event", str(path), stdout=said)
    copy_ = Event.objects.exclude(id=event.id).get(name=event.name)
    assert f"Imported as event {copy_.id}" in said.getvalue()
    rows = [(r.name, r.wins) for r in event_standings(event=copy_)]
    assert rows == [(r.name, r.wins) for r in event_standings(event=event)]
    document = json.loads(out.getvalue())
    document["version"] = 2
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match=r"Nothing was imported\. This file is in export format"):
        call_command("import_event", str(path))
    with pytest.raises(CommandError, match="There is no event"):
        call_command("export_event", "999999")


def test_the_organiser_pages_download_and_upload(client):
    event = swiss_event()
    organiser = member(event.club, Role.ORGANISER)
    client.force_login(organiser)
    answer = client.get(f"/events/{event.id}/export.json")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    document = json.loads(answer.content)
    page = client.get("/events/import/")
    assert page.status_code == 200 and b'type="file"' in page.content
    upload = SimpleUploadedFile("event.json", answer.content, content_type="application/json")
    done = client.post("/events/import/", {"file": upload})
    assert done.status_code == 302
    copy_ = Event.objects.exclude(id=event.id).get(name=event.name)
    assert done["Location"] == f"/events/{copy_.id}/"
    assert without_moment(json.loads(client.get(f"/events/{copy_.id}/export.json").content)) == (
        without_moment(document)
    )
    # A refused file: the reason on the page, nothing written.
    document["games"][0]["hands"][0]["bid"] = 4
    bad = SimpleUploadedFile("bad.json", json.dumps(document).encode(), "application/json")
    answer = client.post("/events/import/", {"file": bad})
    assert answer.status_code == 400
    assert (
        "Game 1, hand 1: Bid 4 is below this game&#x27;s minimum of 7." in answer.content.decode()
    )
    assert Event.objects.filter(name=event.name).count() == 2
    # A player of the club may not import its events.
    client.force_login(member(event.club, Role.PLAYER))
    upload = SimpleUploadedFile("e.json", json.dumps(without_moment(document)).encode())
    assert client.post("/events/import/", {"file": upload}).status_code == 403


def test_a_json_body_too_big_is_refused_with_a_sentence(api_client, settings):
    event = swiss_event()
    api_client.force_authenticate(member(event.club, Role.ORGANISER))
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    document = json.loads(api_client.get(f"/api/events/{event.id}/export/").content)
    answer = api_client.post("/api/events/import/", document, format="json")
    assert answer.status_code == 400
    assert "multipart upload named 'file'" in answer.json()["detail"]
    upload = SimpleUploadedFile("event.json", json.dumps(document).encode(), "application/json")
    answer = api_client.post("/api/events/import/", {"file": upload}, format="multipart")
    assert answer.status_code == 201, answer.content
