"""Fixtures for the games API tests: a club with a running tournament game, and a signed-in API
client for any role in that club."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from kaiser_club.models import Club
from kaiser_club.roles import Role
from scoring.models import Game
from tests.factories import member, start_game
from tests.scoring.hands import make_club, make_user

ClientFor = Callable[[Role | str | None], APIClient]


@pytest.fixture
def club() -> Club:
    return make_club(default_preset="tournament")


@pytest.fixture
def game(club: Club) -> Game:
    return start_game(club=club, preset_name="tournament")


@pytest.fixture
def client_for(club: Club) -> ClientFor:
    """``client_for(Role.SCOREKEEPER)``: signed in with that role in ``club``;
    ``"outsider"``: signed in, no membership; ``"staff"``: a staff user; ``None``: anonymous."""

    def make(role: Role | str | None) -> APIClient:
        client = APIClient()
        user: Any
        if role is None:
            return client
        if role == "outsider":
            user = make_user()
        elif role == "staff":
            user = make_user(is_staff=True)
        else:
            user = member(club, Role(role))
        client.force_authenticate(user)
        return client

    return make


@pytest.fixture
def organiser(client_for: ClientFor) -> APIClient:
    return client_for(Role.ORGANISER)


@pytest.fixture
def scorekeeper(client_for: ClientFor) -> APIClient:
    return client_for(Role.SCOREKEEPER)


@pytest.fixture
def player(client_for: ClientFor) -> APIClient:
    return client_for(Role.PLAYER)
