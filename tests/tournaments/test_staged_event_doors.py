"""A staged event chosen through the settings page (in English and in French) and the events
API: the same service decides, and its refusals name the missing setting."""

from __future__ import annotations

from typing import Any

import pytest

from kaiser_club.roles import Role
from tests.factories import member
from tournaments.models import Event

from .helpers import make_event

pytestmark = pytest.mark.django_db


def organiser(client: Any, event: Event) -> Any:
    client.force_login(member(event.club, Role.ORGANISER))
    return client


def shown(page: Any) -> dict[str, object]:
    """The settings form's values as the page shows them, as the browser sends them back."""
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
            data[name] = value
    return data


def test_the_settings_page_offers_a_staged_event_in_english(client):
    event = make_event(teams=0, format="swiss")
    html = organiser(client, event).get(f"/events/{event.id}/settings/").content.decode()
    assert '<option value="swiss_knockout">Swiss, then a knockout</option>' in html
    assert '<option value="round_robin_knockout">Round robin, then a knockout</option>' in html
    assert "Teams that go on to the knockout" in html
    assert '<option value="double_elimination">Double elimination</option>' in html


def test_the_settings_page_in_french_asks_for_the_knockout_then_saves_it(client):
    event = make_event(teams=0, format="swiss")
    organiser(client, event)
    client.cookies["django_language"] = "fr"
    page = client.get(f"/events/{event.id}/settings/")
    html = page.content.decode()
    assert '<option value="swiss_knockout">Suisse, puis élimination</option>' in html
    assert "Équipes qui passent à l’élimination" in html
    data = shown(page) | {"format": "swiss_knockout", "knockout_kind": "double_elimination"}
    refused = client.post(f"/events/{event.id}/settings/", data)
    assert refused.status_code == 200
    assert (
        '<li class="error">Dites combien d’équipes passent de la première phase à '
        "l’élimination.</li>" in refused.content.decode()
    )
    event.refresh_from_db()
    assert event.format == "swiss"
    answer = client.post(f"/events/{event.id}/settings/", data | {"knockout_size": "6"})
    assert answer.status_code == 302, answer.context["form"].errors
    event.refresh_from_db()
    assert (event.format, event.rounds, event.knockout_size, event.knockout_kind) == (
        "swiss_knockout",
        3,
        6,
        "double_elimination",
    )
    facts = client.get(f"/events/{event.id}/").content.decode()
    assert "Suisse, puis élimination, 3 rondes; les 6 premières passent en double élimination" in (
        facts
    )


def test_the_events_api_creates_a_round_robin_then_a_knockout(api_client):
    event = make_event(teams=0, format="swiss")
    api_client.force_authenticate(member(event.club, Role.ORGANISER))
    body = {"club": event.club.id, "name": "Open", "date": "2026-12-12"}
    missing = api_client.post(
        "/api/events/", body | {"format": "round_robin_knockout"}, format="json"
    )
    assert missing.status_code == 400
    assert missing.json()["detail"] == (
        "Say how many teams go on from the first stage to the knockout."
    )
    assert missing.json()["knockout_size"] == ["Required for this format."]
    unknown = api_client.post(
        "/api/events/",
        body | {"format": "round_robin_knockout", "knockout_size": 4, "knockout_kind": "triple"},
        format="json",
    )
    assert unknown.status_code == 400 and "knockout_kind" in unknown.json()
    made = api_client.post(
        "/api/events/",
        body | {"format": "round_robin_knockout", "knockout_size": 4},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert (made.json()["knockout_size"], made.json()["knockout_kind"]) == (
        4,
        "single_elimination",
    )
    changed = api_client.patch(
        f"/api/events/{made.json()['id']}/",
        {"knockout_kind": "double_elimination", "knockout_size": 300},
        format="json",
    )
    assert changed.status_code == 400 and "knockout_size" in changed.json()
    changed = api_client.patch(
        f"/api/events/{made.json()['id']}/",
        {"knockout_kind": "double_elimination", "grand_final_reset": False},
        format="json",
    )
    assert changed.status_code == 200, changed.json()
    assert changed.json()["knockout_kind"] == "double_elimination"
