"""The one exception handler: the KaiserError family as HTTP answers, DRF's own errors as DRF
makes them, a refusal given its code; and every refusal the API's own code raises answered
with one."""

from __future__ import annotations

from typing import Any, cast

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.exceptions import NotAuthenticated, ValidationError
from rest_framework.test import APIClient

from kaiser_club.api.exceptions import kaiser_exception_handler
from kaiser_club.errors import Conflict, InvalidInput, KaiserError, NotAllowed, NotFound
from kaiser_club.models import Player
from kaiser_club.roles import Role
from tests.factories import PlayerFactory, member, start_game
from tests.tournaments.helpers import make_event


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (InvalidInput("Bid 4 is below this game's minimum of 7."), 400, "invalid"),
        (NotAllowed("Only organisers may."), 403, "not_allowed"),
        (NotFound("There is no game 9."), 404, "not_found"),
        (Conflict("The game moved on."), 409, "conflict"),
        (KaiserError("Something else.", code="special"), 400, "special"),
    ],
)
def test_kaiser_errors_map_to_statuses(error: KaiserError, status: int, code: str) -> None:
    answer = kaiser_exception_handler(error, {})
    assert answer is not None
    assert answer.status_code == status
    assert answer.data == {"detail": error.message, "code": code}


def test_field_errors_and_extras_sit_beside_the_detail() -> None:
    error = InvalidInput(
        "Bid 4 is below this game's minimum of 7.",
        field_errors={"bid": ["Bid 4 is below this game's minimum of 7."]},
        extra={"refusals": [{"code": "bid_below_minimum"}]},
    )
    answer = kaiser_exception_handler(error, {})
    assert answer is not None
    assert answer.data == {
        "detail": "Bid 4 is below this game's minimum of 7.",
        "code": "invalid",
        "bid": ["Bid 4 is below this game's minimum of 7."],
        "refusals": [{"code": "bid_below_minimum"}],
    }


def test_drf_errors_pass_through() -> None:
    invalid = kaiser_exception_handler(ValidationError({"bid": ["Required."]}), {})
    assert invalid is not None
    assert (invalid.status_code, invalid.data) == (400, {"bid": ["Required."]})
    anonymous = kaiser_exception_handler(NotAuthenticated(), {})
    assert anonymous is not None and anonymous.status_code == 401


def test_other_exceptions_are_left_to_django() -> None:
    assert kaiser_exception_handler(ValueError("boom"), {}) is None


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (exceptions.NotFound(), 404, "not_found"),
        (Http404(), 404, "not_found"),
        (exceptions.PermissionDenied(), 403, "not_allowed"),
        (DjangoPermissionDenied(), 403, "not_allowed"),
        (exceptions.MethodNotAllowed("PATCH"), 405, "method_not_allowed"),
        (exceptions.UnsupportedMediaType("text/plain"), 415, "unsupported_media_type"),
    ],
)
def test_drfs_own_refusals_are_given_a_code(error: Exception, status: int, code: str) -> None:
    """The code a client reads for the same refusal from the project's own code (a 403's and
    a 404's), or DRF's name for it."""
    answer = kaiser_exception_handler(error, {})
    assert answer is not None
    assert (answer.status_code, answer.data["code"]) == (status, code)
    assert answer.data["detail"]


def test_a_sign_in_refusal_keeps_drfs_body() -> None:
    answer = kaiser_exception_handler(NotAuthenticated(), {})
    assert answer is not None
    assert answer.data == {"detail": "Authentication credentials were not provided."}


@pytest.mark.django_db
def test_every_refusal_the_api_raises_has_its_code() -> None:
    event = make_event(teams=4)
    club = event.club
    game = start_game(club=club, preset_name="tournament")
    stranger = cast(Player, PlayerFactory())
    player = APIClient()
    player.force_authenticate(member(club, Role.PLAYER, username="plays"))
    organiser = APIClient()
    organiser.force_authenticate(member(club, Role.ORGANISER, username="organises"))
    refusals: list[tuple[Any, int, str]] = [
        (player.get(f"/api/games/{game.id}/history/"), 403, "not_allowed"),
        (player.post(f"/api/games/{game.id}/call-time/"), 403, "not_allowed"),
        (player.post(f"/api/events/{event.id}/generate/", {}, format="json"), 403, "not_allowed"),
        (
            player.post("/api/seasons/", {"club": club.id, "name": "Spring"}, format="json"),
            403,
            "not_allowed",
        ),
        (
            organiser.post(f"/api/clubs/{club.id}/members/", {"name": "X"}, format="json"),
            403,
            "not_allowed",
        ),
        (APIClient().get(f"/api/players/{stranger.id}/stats/"), 403, "not_authenticated"),
        (organiser.get("/api/seasons/999999/"), 404, "not_found"),
        (organiser.patch("/api/seasons/999999/", {}, format="json"), 405, "method_not_allowed"),
    ]
    for answer, status, code in refusals:
        assert (answer.status_code, answer.json()["code"]) == (status, code), answer.json()
        assert answer.json()["detail"]
