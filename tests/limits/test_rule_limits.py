"""A rule set whose hands, scores or clock could overflow a column is refused when it is made,
with a sentence, not when a hand arrives."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from kaiser_club.errors import InvalidInput
from kaiser_club.roles import Role
from scoring import services
from scoring.models import Game
from scoring.rules import Seat
from tests.factories import member
from tests.scoring.hands import EW, NS, E, N, make_club, make_team, played, record
from tests.table.helpers import make_table, opened
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def organiser_of(club) -> APIClient:
    client = APIClient()
    client.force_authenticate(member(club, Role.ORGANISER))
    return client


@pytest.mark.parametrize(
    ("rules", "sentence"),
    [
        ({"five_bonus": 30000}, "The 5♥ value can be at most 10, not 30000."),
        ({"three_penalty": 11}, "The 3♠ value can be at most 10, not 11."),
        ({"target": 40000}, "The target can be at most 500 points, not 40000."),
        (
            {"time_limit_minutes": 32768},
            "The time limit can be at most 600 minutes, not 32768.",
        ),
    ],
)
def test_a_game_whose_rules_could_not_be_stored_is_refused_when_made(rules, sentence) -> None:
    club = make_club()
    body = {
        "club": club.id,
        "ns_team": make_team(club=club).id,
        "ew_team": make_team(club=club).id,
        "first_dealer": 0,
        "preset": "tournament",
        "rules": rules,
    }
    answer = organiser_of(club).post("/api/games/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == sentence
    assert Game.objects.count() == 0


def test_the_largest_card_values_still_store_every_hand() -> None:
    club = make_club()
    game = services.game_start(
        club=club,
        ns_team=make_team(club=club),
        ew_team=make_team(club=club),
        first_dealer=Seat.NORTH,
        rules=services.rules_from(
            preset_name="tournament", changes={"five_bonus": 10, "three_penalty": 10}
        ),
        preset_name="tournament",
    )
    # North bids 7; North-South take seven tricks and the 5♥ (7 + 10), East-West one trick and
    # the 3♠ (1 - 10): the most and the least a hand can give, inside the column's check.
    recorded = record(game, played(N, 7, 7, NS, EW))
    assert (recorded.hand.ns_points, recorded.hand.ew_points) == (17, -9)
    record(game, played(E, 7, 6, EW, NS))


def test_an_event_whose_target_could_not_be_stored_is_refused_when_made() -> None:
    club = make_club()
    body = {
        "club": club.id,
        "name": "Open",
        "kind": "tournament",
        "date": "2026-11-28",
        "format": "swiss",
        "rule_changes": {"target": 10**10},
    }
    answer = organiser_of(club).post("/api/events/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == "The target can be at most 500 points, not 10000000000."
    assert Event.objects.count() == 0


def test_minutes_taken_away_past_the_last_hand_leave_the_table_able_to_record() -> None:
    setup = make_table()
    game = setup.game
    Game.objects.filter(id=game.id).update(started_at=timezone.now() - timedelta(minutes=30))
    record(game, played(N, 7, 5, NS, EW))
    services.clock_add_minutes(game_id=game.id, minutes=-59)
    device = opened(setup)
    entry = {
        "bidder": 1,
        "bid": 7,
        "trump": "clubs",
        "bidding_team_tricks": 5,
        "five_hearts": "ew",
        "three_spades": "ns",
    }
    body = {"game_id": game.id, "number": 2, "entry": entry}
    preview = device.post(
        f"/table/{setup.table.id}/preview", json.dumps(body), content_type="application/json"
    )
    assert preview.status_code == 200, preview.content
    body["client_id"] = str(uuid.uuid4())
    recorded = device.post(
        f"/table/{setup.table.id}/hands", json.dumps(body), content_type="application/json"
    )
    assert recorded.status_code == 200, recorded.content
    game.refresh_from_db()
    assert game.hand_count == 2 and game.time_called_at is not None


def test_more_minutes_than_the_game_has_cannot_be_taken_away() -> None:
    setup = make_table()
    with pytest.raises(InvalidInput) as refused:
        services.clock_add_minutes(game_id=setup.game.id, minutes=-61)
    assert refused.value.message == "Only 60 minutes can be taken away from this game's time."
