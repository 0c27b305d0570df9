"""Sign-in lockouts, CSRF on forms, and the Content-Security-Policy header."""

from __future__ import annotations

import pytest
from axes.utils import reset
from django.contrib.auth import SESSION_KEY
from django.test import Client

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def axes_on(settings):  # type: ignore[no-untyped-def]
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    reset()
    yield
    reset()


def sign_in(client: Client, password: str) -> int:
    answer = client.post("/accounts/login/", {"username": "olga", "password": password})
    return answer.status_code


def test_repeated_wrong_passwords_lock_the_account_out(axes_on: None) -> None:
    UserFactory(username="olga")
    client = Client()
    assert [sign_in(client, "wrong") for _ in range(2)] == [200, 200]  # the form again
    assert sign_in(client, "wrong") == 429  # the third failure locks
    assert sign_in(client, "pw-for-tests") == 429  # even the right password, for a while
    assert SESSION_KEY not in client.session


def test_the_right_password_signs_in_before_the_limit(axes_on: None) -> None:
    UserFactory(username="olga")
    client = Client()
    assert sign_in(client, "wrong") == 200
    assert sign_in(client, "pw-for-tests") == 302
    assert SESSION_KEY in client.session


def test_a_form_posted_without_its_csrf_token_is_refused() -> None:
    UserFactory(username="olga")
    client = Client(enforce_csrf_checks=True)
    answer = client.post("/accounts/login/", {"username": "olga", "password": "pw-for-tests"})
    assert answer.status_code == 403


def test_pages_carry_a_policy_with_no_inline_script() -> None:
    answer = Client().get("/")
    policy = answer.headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";") if part.strip())
    assert directives["script-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
