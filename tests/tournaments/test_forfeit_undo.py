"""A forfeit asks first on the organiser's page, and can be taken back while nothing after it
depends on it: its game goes on where it stood, hands kept."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client, TestCase
from django.urls import reverse
from rest_framework.test import APIClient

from kaiser_club.roles import Role
from scoring import services as scoring
from scoring.models import Game, GameChange
from scoring.rules import Side
from tests.factories import member
from tournaments.models import Pairing

from .helpers import game_of, generate, make_event, win_for, winning_hand

pytestmark = pytest.mark.django_db


def _organiser(event) -> Client:
    client = Client()
    client.force_login(member(event.club, Role.ORGANISER))
    return client


def _action(event, pairing, name: str) -> str:
    return reverse("tournaments:pairing-action", args=[event.id, pairing.id, name])


def test_the_page_asks_before_recording_a_forfeit():
    event = make_event(teams=2, format="swiss")
    generate(event)
    pairing = Pairing.objects.get(event=event)
    client = _organiser(event)
    asked = client.post(_action(event, pairing, "forfeit"), {"forfeiting": "home"})
    assert asked.status_code == 200
    html = asked.content.decode()
    assert "Team 1 forfeits: Team 2 wins 52–0. Record it?" in html
    pairing.refresh_from_db()
    assert pairing.result == "pending"  # nothing written until confirmed
    done = client.post(_action(event, pairing, "forfeit"), {"forfeiting": "home", "confirm": "1"})
    assert done.status_code == 302
    pairing.refresh_from_db()
    assert (pairing.result, pairing.winner_side) == ("forfeit", "away")


def test_a_forfeit_taken_back_lets_the_game_go_on_with_its_hands():
    event = make_event(teams=2, format="swiss")
    generate(event)
    pairing = Pairing.objects.get(event=event)
    game = game_of(pairing)
    with TestCase.captureOnCommitCallbacks(execute=True):
        scoring.hand_record(game_id=game.id, entry=winning_hand(Side.NS), client_id=uuid.uuid4())
    client = _organiser(event)
    client.post(_action(event, pairing, "forfeit"), {"forfeiting": "away", "confirm": "1"})
    pairing.refresh_from_db()
    assert pairing.result == "forfeit"
    page = client.get(reverse("tournaments:pairing", args=[event.id, pairing.id])).content
    assert "Take the forfeit back" in page.decode()
    assert client.post(_action(event, pairing, "forfeit-undo")).status_code == 302
    pairing.refresh_from_db()
    game = Game.objects.get(id=game.id)
    assert pairing.result == "pending" and pairing.winner_side == ""
    assert (game.status, game.forfeited_by, game.hand_count) == ("in_progress", "", 1)
    assert GameChange.objects.filter(game=game, action="forfeit_undo").exists()


def test_a_forfeit_counted_in_a_later_draw_is_not_taken_back():
    event = make_event(teams=4, format="swiss")
    generate(event)
    first, second = Pairing.objects.filter(event=event).order_by("id")
    client = _organiser(event)
    start = reverse("tournaments:round-action", args=[event.id, 1, "start"])
    assert client.post(start).status_code == 302
    client.post(_action(event, first, "forfeit"), {"forfeiting": "home", "confirm": "1"})
    win_for(second, second.home)
    first.refresh_from_db()
    assert first.result == "forfeit"
    job = generate(event)  # round 2, drawn with the forfeit counted
    assert job.status == "done", job.error
    refused = client.post(_action(event, first, "forfeit-undo"), follow=True)
    assert "it can no longer be taken back" in refused.content.decode()
    first.refresh_from_db()
    assert first.result == "forfeit"


def test_a_forfeit_whose_winner_played_on_in_the_bracket_is_refused_through_the_api():
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    rows = {p.code: p for p in Pairing.objects.filter(event=event).select_related("home")}
    api = APIClient()
    api.force_authenticate(member(event.club, Role.ORGANISER))
    base = f"/api/events/{event.id}/pairings/{rows['W1-1'].id}/"
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert api.post(base + "forfeit/", {"forfeiting": "away"}, format="json").status_code == 200
    undone = api.post(base + "forfeit-undo/", {}, format="json")
    assert undone.status_code == 200 and undone.json()["result"] == "pending"
    with TestCase.captureOnCommitCallbacks(execute=True):
        api.post(base + "forfeit/", {"forfeiting": "away"}, format="json")
    win_for(rows["W1-2"], rows["W1-2"].home)
    final = Pairing.objects.get(event=event, code="W2-1")
    start = api.post(f"/api/events/{event.id}/rounds/{final.round.number}/start/")
    assert start.status_code == 200
    with TestCase.captureOnCommitCallbacks(execute=True):
        scoring.hand_record(
            game_id=game_of(final).id, entry=winning_hand(Side.NS), client_id=uuid.uuid4()
        )
    refused = api.post(base + "forfeit-undo/", {}, format="json")
    assert refused.status_code == 409
    assert [g["code"] for g in refused.json()["later_games"]] == ["W2-1"]
