"""A game its table cannot enter is entered from the paper sheet on the organiser's game page,
hand by hand with the preview, through the table's own service: the hand counts at once, and
the same hand sent twice is recorded once."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from kaiser_club.roles import Role
from scoring.models import Hand
from tests.factories import member
from tournaments.models import Pairing

from .helpers import generate, make_event

pytestmark = pytest.mark.django_db

EAST_MAKES_SEVEN = {
    "kind": "played",
    "bidder": 1,
    "bid": 7,
    "contract": "trump",
    "trump": "hearts",
    "bidding_team_tricks": 6,
    "five_hearts": "ew",
    "three_spades": "ns",
}


@pytest.fixture
def started():
    event = make_event(teams=2, format="swiss")
    generate(event)
    organiser = Client()
    organiser.force_login(member(event.club, Role.ORGANISER))
    start = reverse("tournaments:round-action", args=[event.id, 1, "start"])
    assert organiser.post(start).status_code == 302
    return event, Pairing.objects.select_related("game").get(event=event), organiser


def test_a_hand_from_the_paper_sheet_is_previewed_then_counts_once(started):
    event, pairing, organiser = started
    page = reverse("tournaments:pairing", args=[event.id, pairing.id])
    html = organiser.get(page).content.decode()
    assert "Enter hand 1 from the paper sheet" in html
    assert "Adjusted result" not in html  # a game in progress ends by its hands or a forfeit
    form = organiser.get(page).context["paper_form"]
    body = {**EAST_MAKES_SEVEN, "number": 1, "client_id": str(form.initial["client_id"])}
    url = reverse("tournaments:pairing-action", args=[event.id, pairing.id, "paper-hand"])

    preview = organiser.post(url, {**body, "preview": "1"})
    assert preview.status_code == 200
    shown = preview.content.decode()
    assert 'id="paper-preview"' in shown and "+11" in shown  # 6 tricks and the 5♥, made
    assert "Record hand 1" in shown
    assert not Hand.objects.filter(game_id=pairing.game_id).exists()  # nothing written yet

    assert organiser.post(url, {**body, "record": "1"}).status_code == 302
    assert organiser.post(url, {**body, "record": "1"}).status_code == 302  # sent twice
    hands = list(Hand.with_pending.filter(game_id=pairing.game_id))
    assert [(h.number, h.status, h.ew_score) for h in hands] == [(1, "confirmed", 11)]
    assert "Enter hand 2 from the paper sheet" in organiser.get(page).content.decode()


def test_a_hand_the_rules_refuse_is_shown_under_the_form(started):
    event, pairing, organiser = started
    url = reverse("tournaments:pairing-action", args=[event.id, pairing.id, "paper-hand"])
    body = {**EAST_MAKES_SEVEN, "bid": 6, "number": 1}
    body["client_id"] = "6f1f5c3e-0000-4000-8000-000000000001"
    answer = organiser.post(url, {**body, "preview": "1"})
    assert answer.status_code == 400
    assert "Bid 6 is below this game&#x27;s minimum of 7." in answer.content.decode()
    assert not Hand.objects.filter(game_id=pairing.game_id).exists()


def test_only_an_organiser_enters_from_the_paper_sheet(started):
    event, pairing, _organiser = started
    player = Client()
    player.force_login(member(event.club, Role.PLAYER))
    page = player.get(reverse("tournaments:pairing", args=[event.id, pairing.id]))
    assert "from the paper sheet" not in page.content.decode()
    url = reverse("tournaments:pairing-action", args=[event.id, pairing.id, "paper-hand"])
    body = {**EAST_MAKES_SEVEN, "number": 1, "client_id": "6f1f5c3e-0000-4000-8000-000000000002"}
    answer = player.post(url, {**body, "record": "1"})
    assert answer.status_code in (403, 404)
    assert not Hand.objects.filter(game_id=pairing.game_id).exists()
