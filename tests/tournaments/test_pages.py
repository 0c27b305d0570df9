"""The organiser's pages: forms post to the same services as the API; refusals come back as
messages; htmx gets the job panel and the tables still playing."""

from __future__ import annotations

import pytest
from django.utils import translation

from kaiser_club.roles import Role
from tests.factories import member
from tournaments.forms import SeasonForm
from tournaments.models import Entry, Event, Pairing, Season, Table

from .helpers import generate, make_event, new_club, win_for

pytestmark = pytest.mark.django_db


def organiser(client, club):
    client.force_login(member(club, Role.ORGANISER))
    return client


def test_create_an_event_through_the_form(client):
    club = new_club()
    organiser(client, club)
    answer = client.post(
        "/events/new/",
        {
            "club": club.id,
            "kind": "tournament",
            "name": "Legion Open",
            "date": "2026-12-12",
            "format": "double_elimination",
            "seeding": "rating",
            "tiebreaks": "wins, point_difference",
            "forfeit_winner_score": 52,
            "forfeit_loser_score": 0,
            "check_in_required": "on",
            "grand_final_reset": "on",
        },
    )
    event = Event.objects.get(name="Legion Open")
    assert answer.status_code == 302 and answer["Location"] == f"/events/{event.id}/"
    assert (event.format, event.seeding, event.preset) == (
        "double_elimination",
        "rating",
        "tournament",
    )


def test_a_refusal_comes_back_as_a_message(client):
    club = new_club()
    organiser(client, club)
    answer = client.post(
        "/events/new/",
        {
            "club": club.id,
            "kind": "tournament",
            "name": "No rounds",
            "date": "2026-12-12",
            "format": "swiss",
            "seeding": "manual",
            "tiebreaks": "wins",
            "forfeit_winner_score": 52,
            "forfeit_loser_score": 0,
        },
    )
    assert answer.status_code == 200
    assert "Say how many rounds this Swiss event plays." in answer.content.decode()


def test_registration_by_name_and_csv_preview_then_import(client):
    event = make_event(teams=0, format="swiss")
    organiser(client, event.club)
    base = f"/events/{event.id}/entries/"
    client.post(base + "add/", {"player_one": "Ann Lee", "player_two": "Bo Chan", "seed": 1})
    assert list(Entry.objects.filter(event=event).values_list("name", flat=True)) == [
        "Ann Lee & Bo Chan"
    ]
    text = "team,player_one,player_two\nC&D,Cy,Di\nE&F,Ed,Ann Lee\n"
    preview = client.post(base + "import/", {"csv": text})
    page = preview.content.decode()
    assert "1 row has problems" in page and "Ann Lee is already entered" in page
    good = "team,player_one,player_two\nC&D,Cy,Di\n"
    preview = client.post(base + "import/", {"csv": good})
    assert "Every row is fine" in preview.content.decode()
    assert Entry.objects.filter(event=event).count() == 1  # a preview writes nothing
    done = client.post(base + "import/", {"csv": good, "confirm": "True"})
    assert done.status_code == 302
    assert Entry.objects.filter(event=event).count() == 2


def test_generate_with_htmx_answers_with_the_job_panel_then_the_round_page(
    client, django_capture_on_commit_callbacks
):
    event = make_event(teams=4, format="swiss")
    organiser(client, event.club)
    with django_capture_on_commit_callbacks(execute=True):
        panel = client.post(f"/events/{event.id}/generate/", HTTP_HX_REQUEST="true")
    assert panel.status_code == 200
    assert 'id="job"' in panel.content.decode()
    job_panel = client.get(f"/events/{event.id}/jobs/{event.jobs.get().id}/").content.decode()
    assert "Round 1: 2 games." in job_panel and "hx-get" not in job_panel  # finished: no polling
    start = client.post(f"/events/{event.id}/rounds/1/start/")
    assert start.status_code == 302
    page = client.get(f"/events/{event.id}/rounds/1/").content.decode()
    assert "Tables still playing" in page and 'hx-trigger="every 5s"' in page


def test_a_finished_job_reloads_the_event_page_so_its_rounds_show(
    client, django_capture_on_commit_callbacks
):
    event = make_event(teams=4, format="swiss")
    organiser(client, event.club)
    with django_capture_on_commit_callbacks(execute=True):
        waiting = client.post(f"/events/{event.id}/generate/", HTTP_HX_REQUEST="true")
    assert "HX-Refresh" not in waiting and 'hx-get="' in waiting.content.decode()
    poll = client.get(f"/events/{event.id}/jobs/{event.jobs.get().id}/", HTTP_HX_REQUEST="true")
    assert poll["HX-Refresh"] == "true"  # done: the whole page, rounds table included
    page = client.get(f"/events/{event.id}/").content.decode()
    assert "Round 1: 2 games." in page and f"/events/{event.id}/rounds/1/" in page


def test_a_refused_generation_reloads_the_page_to_say_why(
    client, django_capture_on_commit_callbacks
):
    event = make_event(teams=4, format="swiss")
    organiser(client, event.club)
    with django_capture_on_commit_callbacks(execute=False):
        client.post(f"/events/{event.id}/generate/", HTTP_HX_REQUEST="true")
        again = client.post(f"/events/{event.id}/generate/", HTTP_HX_REQUEST="true")
    assert again["HX-Refresh"] == "true"
    page = client.get(f"/events/{event.id}/").content.decode()
    assert "A generation is already queued for this event; wait for it to finish." in page
    assert event.jobs.count() == 1


def test_forfeit_and_withdraw_from_the_pages(client):
    event = make_event(teams=4, format="swiss")
    generate(event)
    organiser(client, event.club)
    pairing = Pairing.objects.filter(event=event).order_by("table__number").first()
    assert pairing is not None
    client.post(
        f"/events/{event.id}/games/{pairing.id}/forfeit/",
        {"forfeiting": "home", "reason": "x", "confirm": "1"},  # once asked (the page asks)
    )
    pairing.refresh_from_db()
    assert (pairing.result, pairing.winner_side) == ("forfeit", "away")
    again = client.post(
        f"/events/{event.id}/games/{pairing.id}/forfeit/", {"forfeiting": "home"}, follow=True
    )
    assert "already has a result" in again.content.decode()
    entry = Entry.objects.get(event=event, seed=4)
    client.post(f"/events/{event.id}/entries/{entry.id}/withdraw/", {"confirm": "1"})
    entry.refresh_from_db()
    assert entry.status == "withdrawn"


def test_rollback_preview_and_confirm_on_the_game_page(client):
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    organiser(client, event.club)
    for code in ("W1-1", "W1-2"):
        p = Pairing.objects.get(event=event, code=code)
        win_for(p, p.home)
    final = Pairing.objects.get(event=event, code="W2-1")
    first = Pairing.objects.get(event=event, code="W1-1")
    page = client.get(f"/events/{event.id}/games/{first.id}/?rollback=1").content.decode()
    assert "W2-1" in page and "Roll these games back" in page
    client.post(f"/events/{event.id}/games/{first.id}/rollback/", {"reason": "check"})
    assert Pairing.objects.get(id=final.id).game_id != final.game_id


def test_tables_page_shows_codes_and_qr_and_revokes(client):
    event = make_event(teams=2, format="swiss")
    generate(event)
    organiser(client, event.club)
    table = Table.objects.get(event=event)
    page = client.get(f"/events/{event.id}/tables/").content.decode()
    assert "<svg" in page and f"/t/{table.code}/" in page
    client.post(f"/events/{event.id}/tables/{table.id}/revoke/")
    table.refresh_from_db()
    assert table.code is None


def test_rules_form_changes_an_option(client):
    event = make_event(teams=0, format="swiss")
    organiser(client, event.club)
    page = client.get(f"/events/{event.id}/settings/")
    form = page.context["rules"]
    data: dict[str, object] = {"rules": "1"}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value
    data["min_bid"] = 6
    client.post(f"/events/{event.id}/settings/", data)
    event.refresh_from_db()
    assert event.rules["min_bid"] == 6


def test_create_a_season_and_see_its_leaderboard(client):
    club = new_club()
    organiser(client, club)
    answer = client.post("/events/seasons/", {"club": club.id, "name": "2027"})
    assert answer.status_code == 302
    page = client.get(answer["Location"])
    assert "2027" in page.content.decode()


def test_the_organisers_standings_mark_places_that_nothing_separates(client):
    event = make_event(teams=4, format="swiss")
    organiser(client, event.club)
    page = client.get(f"/events/{event.id}/").content.decode()
    # No game played: nothing separates the four teams; they share first place, marked as
    # the public standings mark it.
    assert page.count('<td class="num">1=</td>') == 4


def test_the_settings_page_saves_in_french_with_the_date_it_shows(client):
    """A date input shows only an ISO value: the French page must not fill it with 28/11/2026
    (the box would be empty and the browser would refuse to submit)."""
    event = make_event(teams=0, format="swiss")
    organiser(client, event.club)
    client.cookies["django_language"] = "fr"
    page = client.get(f"/events/{event.id}/settings/")
    html = page.content.decode()
    assert f'name="date" value="{event.date.isoformat()}"' in html
    form = page.context["form"]
    data: dict[str, object] = {"settings": "1"}
    for name in form.fields:
        bound = form[name]
        value = bound.field.widget.format_value(bound.value())
        if isinstance(bound.value(), list):
            data[name] = bound.value()
        elif isinstance(bound.value(), bool):
            if bound.value():
                data[name] = "on"
        elif value not in (None, ""):
            data[name] = value  # what the page shows, as the browser sends it back
    data["name"] = "Tournoi d'hiver"
    answer = client.post(f"/events/{event.id}/settings/", data)
    assert answer.status_code == 302, answer.context["form"].errors
    event.refresh_from_db()
    assert event.name == "Tournoi d'hiver"


def test_the_season_form_shows_iso_dates_in_french(client):
    club = new_club()
    organiser(client, club)
    client.cookies["django_language"] = "fr"
    client.post("/events/seasons/", {"club": club.id, "name": "2027", "starts_on": "2027-01-09"})
    season = Season.objects.get(club=club)
    assert season.starts_on is not None and season.starts_on.isoformat() == "2027-01-09"
    with translation.override("fr"):
        html = SeasonForm(initial={"starts_on": season.starts_on}, clubs=[club]).as_p()
    assert 'value="2027-01-09"' in html
