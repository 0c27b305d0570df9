"""A game and its hands as the game's page and the API's answer show it (one selector,
``game_with_hands_for``): the same game to the same people, the hands as Django's own
prefetch gives them, and nothing shown to whoever may not see it, through either door."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from kaiser_club.actors import Actor
from kaiser_club.roles import Role
from scoring.api.serializers import GameDetailSerializer
from scoring.selectors import game_for_actor, game_with_hands, game_with_hands_for
from tests.factories import UserFactory, member, start_game
from tests.scoring.hands import make_club, record_fillers
from tests.table.helpers import make_table

pytestmark = pytest.mark.django_db


def answer(game: Any) -> Any:
    return GameDetailSerializer(game).data


def test_the_game_and_hands_are_what_django_s_prefetch_gives() -> None:
    game = start_game()
    record_fillers(game, 7)
    keeper = member(game.club, Role.PLAYER)
    shown = game_with_hands_for(actor=Actor.of(keeper), game_id=game.id)
    assert shown is not None
    assert answer(shown) == answer(game_with_hands(game_id=game.id))
    assert [hand.number for hand in shown.hands.all()] == list(range(1, 8))
    assert all(hand.game is shown for hand in shown.hands.all())


def test_a_game_without_hands_shows_none() -> None:
    game = start_game()
    shown = game_with_hands_for(actor=Actor.of(member(game.club, Role.PLAYER)), game_id=game.id)
    assert shown is not None and list(shown.hands.all()) == []


@pytest.mark.parametrize("game_id", [0, -1, 10**30])
def test_an_id_no_row_can_have_is_no_game(game_id: int) -> None:
    staff: Any = UserFactory(is_staff=True)
    assert game_with_hands_for(actor=Actor.of(staff), game_id=game_id) is None


def readers(game: Any) -> dict[str, Any]:
    other_club = make_club()
    return {
        "player": member(game.club, Role.PLAYER),
        "organiser": member(game.club, Role.ORGANISER),
        "staff": UserFactory(is_staff=True),
        "another club's organiser": member(other_club, Role.ORGANISER),
        "signed in, in no club": UserFactory(),
        "anonymous": AnonymousUser(),
    }


def test_the_page_and_the_api_show_a_game_to_the_same_people() -> None:
    game = start_game()
    record_fillers(game, 3)
    seen = {}
    for name, user in readers(game).items():
        client = Client()
        if user.is_authenticated:
            client.force_login(user)
        page = client.get(f"/games/{game.id}/")
        api = client.get(f"/api/games/{game.id}/")
        selected = game_with_hands_for(actor=Actor.of(user), game_id=game.id)
        seen[name] = (page.status_code, api.status_code, selected is not None)
    assert seen == {
        "player": (200, 200, True),
        "organiser": (200, 200, True),
        "staff": (200, 200, True),
        "another club's organiser": (404, 404, False),
        "signed in, in no club": (404, 404, False),
        "anonymous": (302, 403, False),  # the page asks to sign in; the API says who may
    }


def test_the_page_shows_the_history_to_those_who_manage_the_game_only() -> None:
    game = start_game()
    record_fillers(game, 2)
    shown = {}
    for role in (Role.PLAYER, Role.SCOREKEEPER, Role.ORGANISER):
        client = Client()
        client.force_login(member(game.club, role))
        page = client.get(f"/games/{game.id}/")
        assert page.status_code == 200
        shown[role] = page.context["history"] is not None
    assert shown == {Role.PLAYER: False, Role.SCOREKEEPER: False, Role.ORGANISER: True}


def test_the_hand_s_read_remembers_the_role_and_seats(django_assert_num_queries: Any) -> None:
    setup = make_table()
    keeper = member(setup.event.club, Role.ORGANISER)
    actor = Actor.of(keeper)
    with django_assert_num_queries(1):
        game = game_for_actor(actor=actor, game_id=setup.game.id)
        assert game is not None and game.id == setup.game.id
        assert actor.role_in(game.club_id) == Role.ORGANISER
        seats = {seat: p.id for seat, p in game.seat_players().items()}
    assert seats == {
        0: setup.game.north_id,
        1: setup.game.east_id,
        2: setup.game.south_id,
        3: setup.game.west_id,
    }
