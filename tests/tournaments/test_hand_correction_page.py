"""The organiser corrects one hand from the event's game page: the hand's
fields, a reason, a preview of what changes (every later score, the result, the bracket),
then the correction, through the games API's own parsing and service (see also
tests/test_both_doors.py, where both doors give the same answers)."""

from __future__ import annotations

import pytest
from django.test import Client

from kaiser_club.roles import Role
from scoring.models import Game, GameChange, Hand
from tests.factories import member
from tests.tournaments.helpers import generate, make_event, win_for
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db

SET_HAND = {  # North bids 10 no-trump and takes 2 tricks: set, instead of all 8
    "number": 1,
    "kind": "played",
    "bidder": 0,
    "bid": 10,
    "contract": "no_trump",
    "bidding_team_tricks": 2,
    "five_hearts": "ew",
    "three_spades": "ew",
    "reason": "North took 2 tricks, not 8",
}


@pytest.fixture
def bracket():
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    rows = {p.code: p for p in Pairing.objects.filter(event=event).select_related("home")}
    for code in ("W1-1", "W1-2"):
        win_for(rows[code], rows[code].home)
    client = Client()
    client.force_login(member(event.club, Role.ORGANISER))
    return event, Pairing.objects.get(id=rows["W1-1"].id), client


def test_the_page_lists_the_hands_and_opens_one_to_correct(bracket):
    event, pairing, client = bracket
    html = client.get(f"/events/{event.id}/games/{pairing.id}/").content.decode()
    assert html.count("?hand=") == 3
    html = client.get(f"/events/{event.id}/games/{pairing.id}/?hand=2").content.decode()
    assert 'id="correct"' in html and 'name="number" value="2"' in html
    assert '<option value="no_trump" selected>' in html


def test_the_form_offers_only_what_the_events_rules_allow(bracket):
    event, pairing, client = bracket  # the tournament preset: no misdeals, no low no-trump
    html = client.get(f"/events/{event.id}/games/{pairing.id}/?hand=1").content.decode()
    form = html[html.index('id="correct"') :]
    assert 'value="no_trump"' in form and 'value="trump"' in form
    for forbidden in ('value="low_no_trump"', 'value="kaiser"', 'value="misdeal"'):
        assert forbidden not in form
    assert 'name="misdeal_reason"' not in form and 'name="bidder_tricks"' not in form
    assert 'name="forced"' in form and 'min="7"' in form  # the dealer may be forced to 7


def test_a_club_sheet_event_offers_its_own_misdeals():
    event = make_event(teams=2, format="swiss", preset_name="club")
    generate(event)
    pairing = Pairing.objects.get(event=event)
    win_for(pairing, pairing.home)
    client = Client()
    client.force_login(member(event.club, Role.ORGANISER))
    html = client.get(f"/events/{event.id}/games/{pairing.id}/?hand=1").content.decode()
    form = html[html.index('id="correct"') :]
    assert 'value="misdeal"' in form and 'value="four_of_a_kind"' in form
    assert 'value="no_honours"' not in form  # not one of the club sheet's misdeals
    assert 'name="forced"' not in form  # everyone passing is a misdeal there


def test_the_preview_shows_later_scores_the_result_and_the_bracket_and_writes_nothing(bracket):
    event, pairing, client = bracket
    changes = GameChange.objects.count()
    url = f"/events/{event.id}/games/{pairing.id}/correct-hand/"
    answer = client.post(url, {**SET_HAND, "preview": "1"})
    assert answer.status_code == 200
    html = answer.content.decode()
    preview = html[html.index('id="correction-preview"') :]
    preview = preview[: preview.index("</div>\n  \n")] if "</div>\n  \n" in preview else preview
    # Hand 1: 20–0 becomes -20–… ; hands 2 and 3 follow; the game is no longer won.
    assert "Team 1 won 60–0" in preview and "not decided" in preview
    assert "W2-1" in preview  # the final loses Team 1
    assert GameChange.objects.count() == changes
    assert Hand.objects.get(game_id=pairing.game_id, number=1).bidding_team_tricks == 8
    assert Game.objects.get(id=pairing.game_id).status == "finished"
    assert "Correct hand 1</button>" in html


def test_the_correction_is_made_with_its_reason(bracket):
    event, pairing, client = bracket
    url = f"/events/{event.id}/games/{pairing.id}/correct-hand/"
    answer = client.post(url, {**SET_HAND, "confirm": "1"})
    assert answer.status_code == 302
    hand = Hand.objects.get(game_id=pairing.game_id, number=1)
    assert hand.bidding_team_tricks == 2
    change = GameChange.objects.get(game_id=pairing.game_id, action="correct")
    assert change.reason == "North took 2 tricks, not 8"


def test_a_bad_hand_is_refused_under_the_form(bracket):
    event, pairing, client = bracket
    url = f"/events/{event.id}/games/{pairing.id}/correct-hand/"
    answer = client.post(url, {**SET_HAND, "bidding_team_tricks": 9, "preview": "1"})
    assert answer.status_code == 400
    assert 'id="correct"' in answer.content.decode()
    assert Hand.objects.get(game_id=pairing.game_id, number=1).bidding_team_tricks == 8
