"""What the database itself refuses, whatever code writes the rows: one hand per number in a
game, bids and tricks in range, a game between two different teams."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from scoring.models import Game, Hand
from tests.factories import start_game
from tests.scoring.hands import make_player, make_team

pytestmark = pytest.mark.django_db

# PostgreSQL names the constraint; SQLite names the columns.
ONE_PER_NUMBER = r"one_hand_per_number|scoring_hand\.game_id, scoring_hand\.number"
ONE_PER_CLIENT_ID = r"one_hand_per_client_id|scoring_hand\.game_id, scoring_hand\.client_id"


def hand_row(game: Game, **changes: Any) -> Hand:
    fields: dict[str, Any] = {
        "game": game,
        "number": 1,
        "request_digest": "x",
        "kind": "played",
        "dealer": 0,
        "bidder": 1,
        "bid": 7,
        "trump": "clubs",
        "bidding_team_tricks": 5,
        "five_hearts": "ew",
        "three_spades": "ns",
    }
    fields.update(changes)
    return Hand.objects.create(**fields)


def refused(**changes: Any) -> None:
    game = start_game()
    with pytest.raises(IntegrityError), transaction.atomic():
        hand_row(game, **changes)


def test_a_valid_row_is_accepted() -> None:
    game = start_game()
    hand_row(game)
    assert Hand.objects.filter(game=game).count() == 1


def test_one_hand_per_number_in_a_game() -> None:
    game = start_game()
    hand_row(game, number=1)
    with pytest.raises(IntegrityError, match=ONE_PER_NUMBER), transaction.atomic():
        hand_row(game, number=1)
    # The same number in another game is fine.
    hand_row(start_game(), number=1)


def test_one_hand_per_client_id_in_a_game() -> None:
    game = start_game()
    first = hand_row(game, number=1)
    with pytest.raises(IntegrityError, match=ONE_PER_CLIENT_ID), transaction.atomic():
        hand_row(game, number=2, client_id=first.client_id)


@pytest.mark.parametrize("number", [0])
def test_hand_number_starts_at_one(number: int) -> None:
    refused(number=number)


@pytest.mark.parametrize("bid", [0, 13, 20])
def test_bid_out_of_range_is_refused(bid: int) -> None:
    refused(bid=bid)


@pytest.mark.parametrize("bid", [1, 12])
def test_bid_range_ends_are_accepted(bid: int) -> None:
    stored = hand_row(start_game(), bid=bid)
    assert Hand.objects.get(id=stored.id).bid == bid


@pytest.mark.parametrize("tricks", [9, 12])
def test_bidding_team_tricks_out_of_range_is_refused(tricks: int) -> None:
    refused(bidding_team_tricks=tricks)


@pytest.mark.parametrize("tricks", [0, 8])
def test_tricks_range_ends_are_accepted(tricks: int) -> None:
    stored = hand_row(start_game(), bidding_team_tricks=tricks)
    assert Hand.objects.get(id=stored.id).bidding_team_tricks == tricks


def test_bidder_tricks_out_of_range_is_refused() -> None:
    refused(bidder_tricks=9)


# A rule set's card values are 0 to 10 (scoring.rules.ruleset.MAX_CARD_VALUE): a hand's points
# are -10 (no tricks, the bad card) to 18 (eight tricks, the good card).
@pytest.mark.parametrize("points", [-11, 19])
def test_points_out_of_range_are_refused(points: int) -> None:
    refused(ns_points=points)


def test_a_played_hand_needs_a_bidder_and_a_bid() -> None:
    refused(bidder=None)
    refused(bid=None)


def test_a_misdeal_needs_no_bid() -> None:
    stored = hand_row(start_game(), kind="misdeal", bidder=None, bid=None, bidding_team_tricks=None)
    assert Hand.objects.filter(id=stored.id, kind="misdeal", bid__isnull=True).exists()


def test_a_game_needs_two_different_teams() -> None:
    game = start_game()
    with pytest.raises(IntegrityError, match="game_two_different_teams"), transaction.atomic():
        Game.objects.filter(id=game.id).update(ew_team=game.ns_team)


def test_a_winner_only_in_a_finished_game() -> None:
    game = start_game()
    with (
        pytest.raises(IntegrityError, match="game_winner_only_when_finished"),
        transaction.atomic(),
    ):
        Game.objects.filter(id=game.id).update(winner="ns")


def test_a_team_needs_two_different_players() -> None:
    player = make_player()
    with pytest.raises(IntegrityError, match="team_two_different_players"), transaction.atomic():
        make_team(player_one=player, player_two=player)
