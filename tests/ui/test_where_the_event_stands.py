"""Pages say where the event stands: pool tables, no Generate once finished, byes explained
(and not leading the table before a card is played), the right CSV columns, a sentence for a
file that is not JSON."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from kaiser_club.roles import Role
from tests.factories import member
from tests.tournaments.helpers import generate, make_event, win_for
from tournaments.models import Event, Pairing
from tournaments.standings import event_standings

pytestmark = pytest.mark.django_db


def organiser(client, event):
    client.force_login(member(event.club, Role.ORGANISER))
    return client


def test_a_pools_event_shows_its_pool_tables(client):
    event = make_event(teams=4, format="pools", pool_count=2, pool_advance=1)
    generate(event)
    organiser(client, event)
    html = client.get(f"/events/{event.id}/").content.decode()
    assert "<h2>Pool A</h2>" in html and "<h2>Pool B</h2>" in html


def test_a_finished_event_offers_no_generation_and_no_old_job_line(client):
    event = make_event(teams=2, format="swiss", rounds=1)
    generate(event)
    organiser(client, event)
    assert "Generate the next round" in client.get(f"/events/{event.id}/").content.decode()
    pairing = Pairing.objects.get(event=event, away__isnull=False)
    win_for(pairing, pairing.home)
    Event.objects.filter(id=event.id).update(status="finished")
    html = client.get(f"/events/{event.id}/").content.decode()
    assert "Generate the next round" not in html
    assert "Generated:" not in html


def test_a_bye_leads_nobody_before_a_card_is_played_and_is_explained(client):
    event = make_event(teams=3, format="round_robin")
    generate(event)
    bye = Pairing.objects.get(event=event, round__number=1, result="bye")
    assert all(row.wins == 0 for row in event_standings(event=event)), "a bye wins nothing yet"
    played = Pairing.objects.get(event=event, round__number=1, away__isnull=False)
    win_for(played, played.home)
    rows = {row.id: row for row in event_standings(event=event)}
    assert bye.home_id is not None
    assert rows[bye.home_id].wins == 1, "once a game of its round ends, the bye counts"
    organiser(client, event)
    html = client.get(f"/events/{event.id}/rounds/1/").content.decode()
    assert "A bye counts as a win" in html
    public = client.get(f"/e/{event.id}/rounds/1/").content.decode()
    assert "A bye counts as a win" in public


def test_the_progressive_nights_csv_help_names_its_columns(client):
    night = make_event(teams=4, format="progressive", kind="club_night")
    organiser(client, night)
    html = client.get(f"/events/{night.id}/entries/").content.decode()
    assert "<code>player</code>" in html and "player_one" not in html
    teams = make_event(teams=2, format="swiss")
    organiser(client, teams)
    html = client.get(f"/events/{teams.id}/entries/").content.decode()
    assert "<code>player_one</code>, <code>player_two</code>" in html


def test_a_file_that_is_not_json_gets_a_sentence_not_the_parsers_message(client):
    event = make_event(teams=0, format="swiss")
    organiser(client, event)
    upload = SimpleUploadedFile("scores.csv", b"team,player_one\nA,B\n", "text/csv")
    answer = client.post("/events/import/", {"file": upload})
    assert answer.status_code == 400
    html = answer.content.decode()
    assert "The file is not JSON, so not an exported event" in html
    assert "Expecting value" not in html
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    upload = SimpleUploadedFile("scores.csv", b"team,player_one\nA,B\n", "text/csv")
    html = client.post("/events/import/", {"file": upload}).content.decode()
    assert "n’est pas du JSON" in html


def test_the_public_standings_name_pools_as_the_organiser_pages_do(client):
    event = make_event(teams=4, format="pools", pool_count=2, pool_advance=1)
    generate(event)
    html = client.get(f"/e/{event.id}/standings/").content.decode()
    assert "Pool A" in html and "Pool B" in html and "Pool 1" not in html
