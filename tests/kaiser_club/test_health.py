"""``/healthz`` as the health checks ask it: by the container's address, over HTTP, under
production's host and HTTPS settings, and still asking the database."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import OperationalError
from django.test import Client

from kaiser_club import middleware

pytestmark = pytest.mark.django_db


@pytest.fixture
def production_like(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["kaiser.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "web:8000", "172.18.0.5:8000"])
def test_the_health_check_answers_whatever_the_host_and_scheme(
    production_like: None, host: str
) -> None:
    answer = Client().get("/healthz", HTTP_HOST=host)
    assert answer.status_code == 200
    assert answer.json() == {"ok": True}
    assert answer["Cache-Control"] == "no-store"
    assert Client().head("/healthz", HTTP_HOST=host).status_code == 200


def test_other_pages_still_refuse_an_unknown_host_and_redirect_to_https(
    production_like: None,
) -> None:
    assert Client().get("/", HTTP_HOST="127.0.0.1:8000").status_code == 400
    answer = Client().get("/", HTTP_HOST="kaiser.example.org")
    assert answer.status_code == 301
    assert answer["Location"] == "https://kaiser.example.org/"
    assert Client().get("/healthz/", HTTP_HOST="127.0.0.1:8000").status_code == 400


def test_the_health_check_fails_when_the_database_does_not_answer(
    production_like: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Down:
        def cursor(self) -> Any:
            raise OperationalError("connection refused")

    monkeypatch.setattr(middleware, "connection", Down())
    answer = Client().get("/healthz", HTTP_HOST="127.0.0.1:8000")
    assert answer.status_code == 503
    assert answer["Retry-After"] == "2"
    assert answer.json()["detail"] == "The database is restarting; try again in a moment."
