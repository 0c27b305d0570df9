"""Where a round stands, in words the organiser and the players read the same way: a bracket's
later round waits for the games before it, a paused round says so, and a button shows only
when it has something to do."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from kaiser_club.roles import Role
from tests.factories import member
from tournaments.selectors import rounds_of

from .helpers import generate, make_event

pytestmark = pytest.mark.django_db


def _organiser(event) -> Client:
    client = Client()
    client.force_login(member(event.club, Role.ORGANISER))
    return client


def _act(client: Client, event, number: int, action: str) -> None:
    url = reverse("tournaments:round-action", args=[event.id, number, action])
    assert client.post(url, {"minutes": 5}).status_code == 302


def test_a_brackets_later_round_waits_for_the_games_before_it():
    event = make_event(teams=4, format="double_elimination")
    generate(event)
    client = _organiser(event)
    waiting = [r for r in rounds_of(event=event) if r.games == 0]  # type: ignore[attr-defined]
    assert waiting, "a double elimination draws its later rounds' games as it goes"
    html = client.get(reverse("tournaments:event", args=[event.id])).content.decode()
    assert html.count("Waiting for the games before it") == len(waiting)
    page = client.get(reverse("tournaments:round", args=[event.id, waiting[0].number]))
    assert "<small>Waiting for the games before it</small>" in page.content.decode()


def test_a_paused_round_says_paused_to_the_organiser_and_the_public():
    event = make_event(teams=4, format="swiss")
    generate(event)
    client = _organiser(event)
    round_page = reverse("tournaments:round", args=[event.id, 1])
    assert "<small>Ready to start</small>" in client.get(round_page).content.decode()
    _act(client, event, 1, "start")
    html = client.get(round_page).content.decode()
    assert "<small>Started</small>" in html
    assert "drawn since the round began" not in html  # every clock started with the round
    _act(client, event, 1, "pause")
    assert "<small>Paused</small>" in client.get(round_page).content.decode()
    public = Client().get(f"/e/{event.id}/").content.decode()
    assert "Paused" in public
    _act(client, event, 1, "resume")
    assert "<small>Started</small>" in client.get(round_page).content.decode()


def test_check_everyone_in_goes_once_everyone_is_in():
    event = make_event(teams=2, format="swiss", check_in=True)
    client = _organiser(event)
    entries = reverse("tournaments:entries", args=[event.id])
    assert "Check everyone in" in client.get(entries).content.decode()
    client.post(reverse("tournaments:entries-check-in", args=[event.id]))
    assert "Check everyone in" not in client.get(entries).content.decode()
