"""Query budgets: what a request costs must not grow with the game or the club.

Each test runs the same request at a small and a large size and expects the same, measured
count (pytest-django's django_assert_num_queries), so a query per hand or per game shows up as
a failure here, not as a slow hall on a Saturday."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from kaiser_club.models import Club, Membership
from kaiser_club.roles import Role
from scoring import services
from scoring.models import Game, Team
from tests.factories import MembershipFactory, member, start_game
from tests.scoring.hands import filler, hand_json, make_club, make_team, record, record_fillers

pytestmark = pytest.mark.django_db

# Measured on PostgreSQL. Every write pays 3 to find the game and check the role, and the
# transaction's savepoint and release (the test runs inside a transaction).
# The game with the role and its event (one read), savepoint 2, then the hand applied to the
# state the row keeps: update game, insert hand, insert change (scoring/services/hands.py). A
# signed-in session adds its own 2 (test_hand_queries.py).
RECORD_A_HAND = 6
UNDO_A_HAND = 14  # access 2, savepoint 2, lock (with event, round) 1, role 1, last change 1, ...
CORRECT_A_HAND = 13  # the later hands' new scores are one bulk UPDATE
READ_A_GAME = 2  # the game with its teams, seats and my role in its club; its hands
LIST_GAMES = 3  # the clubs I may see, the count, one page of games with teams and seats
HISTORY = 4  # access 3, the changes with who made them
LIST_TEAMS = 3  # the clubs I may see, the count, one page of teams with their players
LIST_CLUBS = 3  # the clubs I may see, the count, one page of clubs

Counter = Callable[..., Any]


def test_recording_a_hand_costs_the_same_in_a_short_and_a_long_game(
    club: Club, scorekeeper: APIClient, django_assert_num_queries: Counter
) -> None:
    for size in (2, 25):
        game = start_game(club=club)
        record_fillers(game, size)
        body = hand_json(**filler_json(size + 1), number=size + 1)
        with django_assert_num_queries(RECORD_A_HAND):
            answer = scorekeeper.post(f"/api/games/{game.id}/hands/", body, format="json")
        assert answer.status_code == 201, answer.json()
        assert answer.json()["hand"]["number"] == size + 1


def test_undoing_a_hand_costs_the_same_in_a_short_and_a_long_game(
    club: Club, scorekeeper: APIClient, django_assert_num_queries: Counter
) -> None:
    for size in (2, 25):
        game = start_game(club=club)
        record_fillers(game, size)
        with django_assert_num_queries(UNDO_A_HAND):
            answer = scorekeeper.post(f"/api/games/{game.id}/undo/", {}, format="json")
        assert answer.status_code == 200
        assert len(answer.json()["hands"]) == size - 1


def test_correcting_the_first_hand_costs_the_same_in_a_short_and_a_long_game(
    club: Club, organiser: APIClient, django_assert_num_queries: Counter
) -> None:
    for size in (3, 30):
        game = start_game(club=club)
        record_fillers(game, size)
        body = hand_json(**filler_json(1))
        body["bid"] = 8  # still failed: -8 instead of -7, every later score moves by one
        body["reason"] = "the bid was 8"
        with django_assert_num_queries(CORRECT_A_HAND):
            answer = organiser.put(f"/api/games/{game.id}/hands/1/", body, format="json")
        assert answer.status_code == 200, answer.json()
        assert answer.json()["hand_count"] == size


def test_reading_a_game_costs_the_same_with_3_and_30_hands(
    club: Club, player: APIClient, django_assert_num_queries: Counter
) -> None:
    for size in (3, 30):
        game = start_game(club=club)
        record_fillers(game, size)
        with django_assert_num_queries(READ_A_GAME):
            answer = player.get(f"/api/games/{game.id}/")
        assert answer.status_code == 200
        assert len(answer.json()["hands"]) == size


def test_listing_games_costs_the_same_with_3_and_30_games(
    club: Club, player: APIClient, django_assert_num_queries: Counter
) -> None:
    games: list[Game] = []
    for size in (3, 30):
        while len(games) < size:
            game = start_game(club=club)
            record(game, filler(1))
            games.append(game)
        with django_assert_num_queries(LIST_GAMES):
            answer = player.get("/api/games/")
        assert answer.status_code == 200
        assert answer.json()["count"] == size


def test_the_history_costs_the_same_with_3_and_30_changes(
    club: Club, organiser: APIClient, django_assert_num_queries: Counter
) -> None:
    for size in (3, 30):
        game = start_game(club=club)
        record_fillers(game, size - 1)
        services.game_call_time(game_id=game.id)
        with django_assert_num_queries(HISTORY):
            answer = organiser.get(f"/api/games/{game.id}/history/")
        assert answer.status_code == 200
        assert len(answer.json()) == size


def test_listing_teams_costs_the_same_with_3_and_30_teams(
    club: Club, player: APIClient, django_assert_num_queries: Counter
) -> None:
    for size in (3, 30):
        while Team.objects.count() < size:
            make_team(club=club)
        with django_assert_num_queries(LIST_TEAMS):
            answer = player.get("/api/teams/")
        assert answer.json()["count"] == size


def test_listing_clubs_costs_the_same_with_3_and_30_clubs(
    django_assert_num_queries: Counter,
) -> None:
    user = member(make_club(), Role.PLAYER)
    client = APIClient()
    client.force_authenticate(user)
    for size in (3, 30):
        while Membership.objects.filter(player__user=user).count() < size:
            MembershipFactory(club=make_club(), player=user.player, role=Role.PLAYER)
        with django_assert_num_queries(LIST_CLUBS):
            answer = client.get("/api/clubs/")
        assert answer.json()["count"] == size


def filler_json(number: int) -> dict[str, Any]:
    """The API body of tests.scoring.hands.filler(number)."""
    entry = filler(number)
    assert entry.bidder is not None and entry.five_hearts and entry.three_spades
    return {
        "bidder": int(entry.bidder),
        "bid": entry.bid,
        "tricks": entry.bidding_team_tricks,
        "five": entry.five_hearts.value,
        "three": entry.three_spades.value,
    }
