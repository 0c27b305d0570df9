"""A database error in a view is a 503 with a sentence and Retry-After, not a 500: a tablet
retries it with the same hand id. (The real outage, a PostgreSQL restart under gunicorn, is in
test_postgres_restart.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import InterfaceError, OperationalError
from rest_framework.test import APIClient

from kaiser_club.middleware import UNAVAILABLE_MESSAGE
from kaiser_club.roles import Role
from scoring import services
from tests.factories import member, start_game
from tests.scoring.hands import hand_json

pytestmark = pytest.mark.django_db


class DownConnection:
    def __init__(self, error: Exception) -> None:
        self.error = error

    def cursor(self) -> Any:
        raise self.error


@pytest.mark.parametrize(
    "error",
    [
        OperationalError("connection to server failed: Connection refused"),
        InterfaceError("connection already closed"),
    ],
)
def test_health_check_answers_503_while_the_database_is_away(
    monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    monkeypatch.setattr("kaiser_club.middleware.connection", DownConnection(error))
    response = APIClient().get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"detail": UNAVAILABLE_MESSAGE, "code": "database_unavailable"}
    assert response["Retry-After"] == "2"


def test_recording_a_hand_during_an_outage_is_503_and_the_retry_records_it_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = start_game(preset_name="standard")
    client = APIClient()
    client.force_authenticate(member(game.club, Role.SCOREKEEPER))
    body = hand_json()
    real = services.hand_record_by

    def down(**kwargs: Any) -> Any:
        raise OperationalError("terminating connection due to administrator command")

    monkeypatch.setattr(services, "hand_record_by", down)
    outage = client.post(f"/api/games/{game.id}/hands/", body, format="json")
    assert outage.status_code == 503
    assert outage.json()["detail"] == UNAVAILABLE_MESSAGE

    monkeypatch.setattr(services, "hand_record_by", real)
    first = client.post(f"/api/games/{game.id}/hands/", body, format="json")
    again = client.post(f"/api/games/{game.id}/hands/", body, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json()["hand"]["number"] == again.json()["hand"]["number"] == 1
    game.refresh_from_db()
    assert game.hand_count == 1


def test_other_errors_are_not_turned_into_503(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("kaiser_club.middleware.connection", DownConnection(ValueError("a bug")))
    client = APIClient(raise_request_exception=False)
    assert client.get("/healthz").status_code == 500
