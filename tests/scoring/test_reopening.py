"""Reopening a finished game (docs/rules.md, "Reopening a finished game"): the red team's case
(a scorekeeper reopened a club game finished a month earlier, and a player's rating moved) and
the rule's edges, through the games API and the table endpoint, with the ratings afterwards."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from kaiser_club.roles import Role
from scoring import services
from scoring.models import Game, GameChange
from scoring.ratings import current_ratings, forget_ratings
from scoring.rules import Side
from scoring.services.reopening import REOPEN_WINDOW
from scoring.services.verification import game_acknowledge
from tests.factories import member, start_game
from tests.table.helpers import make_table, opened
from tests.tournaments.helpers import winning_hand

pytestmark = pytest.mark.django_db


def api_as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def win_through_the_api(client: APIClient, game: Game) -> None:
    for number in (1, 2, 3):
        body = {
            "bidder": 0,
            "bid": 10,
            "contract": "no_trump",
            "bidding_team_tricks": 8,
            "five_hearts": "ns",
            "three_spades": "ns",
            "client_id": str(uuid.uuid4()),
            "number": number,
        }
        answer = client.post(f"/api/games/{game.id}/hands/", body, format="json")
        assert answer.status_code == 201, answer.json()
    game.refresh_from_db()
    assert game.status == "finished"


def undo(client: APIClient, game: Game, **body: Any) -> Any:
    return client.post(f"/api/games/{game.id}/undo/", {"number": 3, **body}, format="json")


def ended_ago(game: Game, delta: timedelta) -> None:
    Game.objects.filter(id=game.id).update(ended_at=timezone.now() - delta)


def rated_games_of(player_id: int) -> int:
    forget_ratings()
    return len(current_ratings().steps_of(player_id))


@pytest.fixture
def finished() -> tuple[Game, Any, APIClient]:
    """A club game won by N–S through the API by a scorekeeper, who entered every hand."""
    game = start_game(preset_name="standard")
    keeper = member(game.club, Role.SCOREKEEPER)
    client = api_as(keeper)
    win_through_the_api(client, game)
    return game, keeper, client


def test_the_scorekeeper_who_just_finished_a_game_takes_its_last_hand_back(
    finished: tuple[Game, Any, APIClient],
) -> None:
    game, keeper, client = finished
    assert rated_games_of(game.north_id) == 1
    answer = undo(client, game)
    assert answer.status_code == 200, answer.json()
    game.refresh_from_db()
    assert (game.status, game.winner, game.hand_count) == ("in_progress", "", 2)
    line = GameChange.objects.filter(game=game, action="undo").get()
    assert line.by == keeper and line.reason  # who, and that it was right after the end
    assert rated_games_of(game.north_id) == 0  # the game left the ratings


def test_a_scorekeeper_cannot_reopen_a_game_finished_a_month_ago(
    finished: tuple[Game, Any, APIClient],
) -> None:
    """The red team's case: game 6, finished a month earlier, went back to in progress and a
    player's rating moved."""
    game, _keeper, client = finished
    ended_ago(game, timedelta(days=30))
    before = current_ratings().of(game.north_id)
    answer = undo(client, game)
    assert answer.status_code == 403
    assert answer.json()["code"] == "reopen_not_allowed"
    assert "organiser" in answer.json()["detail"]
    game.refresh_from_db()
    assert (game.status, game.winner, game.hand_count) == ("finished", "ns", 3)
    forget_ratings()
    assert current_ratings().of(game.north_id) == before
    assert rated_games_of(game.north_id) == 1


def test_the_window_is_ten_minutes(finished: tuple[Game, Any, APIClient]) -> None:
    game, _keeper, client = finished
    ended_ago(game, REOPEN_WINDOW + timedelta(seconds=5))
    assert undo(client, game).status_code == 403
    ended_ago(game, REOPEN_WINDOW - timedelta(seconds=30))
    assert undo(client, game).status_code == 200


def test_another_scorekeeper_cannot_reopen_a_game_they_did_not_finish(
    finished: tuple[Game, Any, APIClient],
) -> None:
    game, _keeper, _client = finished
    other = api_as(member(game.club, Role.SCOREKEEPER))
    answer = undo(other, game)
    assert (answer.status_code, answer.json()["code"]) == (403, "reopen_not_allowed")


def test_once_a_player_has_played_on_the_table_cannot_reopen(
    finished: tuple[Game, Any, APIClient],
) -> None:
    game, _keeper, client = finished
    later = start_game(club=game.club, preset_name="standard")
    Game.objects.filter(id=later.id).update(north=game.south)  # one of its players, reseated
    services.hand_record(game_id=later.id, entry=winning_hand(Side.NS), client_id=uuid.uuid4())
    answer = undo(client, game)
    assert (answer.status_code, answer.json()["code"]) == (403, "reopen_not_allowed")


def test_an_organiser_reopens_an_old_game_saying_why_and_the_ratings_follow(
    finished: tuple[Game, Any, APIClient],
) -> None:
    game, _keeper, _client = finished
    ended_ago(game, timedelta(days=30))
    organiser = member(game.club, Role.ORGANISER)
    client = api_as(organiser)
    refused = undo(client, game)
    assert refused.status_code == 400
    assert refused.json()["code"] == "reason_required"
    assert refused.json()["reason"] == [refused.json()["detail"]]
    assert rated_games_of(game.north_id) == 1
    answer = undo(client, game, reason="  The last hand was entered at the wrong table. ")
    assert answer.status_code == 200, answer.json()
    line = GameChange.objects.filter(game=game, action="undo").get()
    assert (line.by, line.reason) == (organiser, "The last hand was entered at the wrong table.")
    assert rated_games_of(game.north_id) == 0
    # It ends again: the ratings take it back.
    win_again = {
        "bidder": 0,
        "bid": 10,
        "contract": "no_trump",
        "bidding_team_tricks": 8,
        "five_hearts": "ns",
        "three_spades": "ns",
        "client_id": str(uuid.uuid4()),
        "number": 3,
    }
    assert client.post(f"/api/games/{game.id}/hands/", win_again, format="json").status_code == 201
    assert rated_games_of(game.north_id) == 1


def _table_undo(client: Client, table_id: int, game: Game) -> Any:
    last = game.hands.order_by("-number").first()
    assert last is not None
    body = {"game_id": game.id, "number": last.number, "client_id": str(last.client_id)}
    return client.post(f"/table/{table_id}/undo", body, content_type="application/json")


def _win_at_the_table(client: Client, table_id: int, game: Game) -> None:
    for number in (1, 2, 3):
        body = {
            "game_id": game.id,
            "number": number,
            "client_id": str(uuid.uuid4()),
            "entry": {
                "bidder": 0,
                "bid": 10,
                "contract": "no_trump",
                "bidding_team_tricks": 8,
                "five_hearts": "ns",
                "three_spades": "ns",
            },
        }
        answer = client.post(f"/table/{table_id}/hands", body, content_type="application/json")
        assert answer.status_code == 200, answer.content[:300]
    game.refresh_from_db()
    assert game.status == "finished"


@pytest.mark.parametrize(("ended", "allowed"), [(timedelta(0), True), (timedelta(hours=2), False)])
def test_the_same_rule_at_an_events_table(ended: timedelta, allowed: bool) -> None:
    setup = make_table(preset="standard")
    client = opened(setup)
    _win_at_the_table(client, setup.table.id, setup.game)
    ended_ago(setup.game, ended)
    answer = _table_undo(client, setup.table.id, setup.game)
    setup.game.refresh_from_db()
    if allowed:
        assert answer.status_code == 200, answer.content[:300]
        assert setup.game.status == "in_progress"
    else:
        assert answer.status_code == 403, answer.content[:300]
        assert answer.json()["code"] == "reopen_not_allowed"
        assert setup.game.status == "finished"


def test_a_result_both_partnerships_agreed_to_is_the_organiser_s_to_reopen() -> None:
    setup = make_table(preset="standard")
    client = opened(setup)
    _win_at_the_table(client, setup.table.id, setup.game)
    for team in (Side.NS, Side.EW):
        game_acknowledge(game_id=setup.game.id, team=team, by_label="Table 1 (tablet)")
    answer = _table_undo(client, setup.table.id, setup.game)
    assert answer.status_code == 403, answer.content[:300]
    assert answer.json()["code"] == "reopen_not_allowed"
    setup.game.refresh_from_db()
    assert setup.game.status == "finished"
