"""Signed-in requests (kaiser_club/sessions.py, Django's AuthenticationMiddleware): a session is
read with one statement and its user with another; a session still ends at logout, at a
password change, for an inactive or deleted user; a Redis that does not answer costs no
signed-in request; CSRF is still asked of a session's writes to the API."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore as DjangoStore
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from kaiser_club.sessions import SessionStore

pytestmark = pytest.mark.django_db

PRESETS = "/api/presets/"
CSRF = "a" * 32  # a CSRF secret's length


def signed_in(user: User, **options: Any) -> Client:
    client = Client(**options)
    client.force_login(user)
    return client


def who(client: Client) -> Any:
    """The user the next request is made by (the response's context says it)."""
    return client.get("/").context["user"]


@pytest.fixture
def user() -> User:
    return User.objects.create_user("floor", password="first password 1")


@pytest.fixture
def redis_away(settings: Any) -> None:
    """The cache is a Redis that refuses every connection (nothing listens on its port)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


def test_the_engine_reads_what_djangos_database_engine_wrote_and_back(user: User) -> None:
    theirs = DjangoStore()
    theirs[SESSION_KEY] = str(user.pk)
    theirs.create()
    assert SessionStore(theirs.session_key)[SESSION_KEY] == str(user.pk)
    ours = SessionStore()
    ours["seen"] = 1
    ours.create()
    assert DjangoStore(ours.session_key)["seen"] == 1


def test_an_unknown_or_expired_session_is_an_empty_one(user: User) -> None:
    assert SessionStore("x" * 32).load() == {}
    expired = SessionStore()
    expired["seen"] = 1
    expired.set_expiry(-1)
    expired.create()
    store = SessionStore(expired.session_key)
    assert store.load() == {}
    assert store.session_key is None  # a new key is made if it is written to


def test_an_inactive_user_is_signed_out(user: User) -> None:
    client = signed_in(user)
    assert who(client) == user
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert not who(client).is_authenticated


def test_a_deleted_user_is_signed_out(user: User) -> None:
    client = signed_in(user)
    assert who(client) == user
    User.objects.filter(pk=user.pk).delete()
    assert not who(client).is_authenticated


def test_a_signed_in_api_request_reads_its_session_then_its_user(user: User) -> None:
    client = signed_in(user)
    for _ in range(2):  # the same the first time and the next
        with CaptureQueriesContext(connection) as read:
            assert client.get(PRESETS).status_code == 200
        tables = [q["sql"].split(" FROM ")[1].split()[0] for q in read.captured_queries]
        assert tables == ['"django_session"', '"auth_user"']


def test_csrf_is_still_asked_of_a_sessions_write(user: User) -> None:
    client = signed_in(user, enforce_csrf_checks=True)
    client.cookies["csrftoken"] = CSRF
    refused = client.post(PRESETS, {}, content_type="application/json")
    assert refused.status_code == 403
    assert "CSRF" in refused.json()["detail"]
    allowed = client.post(PRESETS, {}, content_type="application/json", HTTP_X_CSRFTOKEN=CSRF)
    assert allowed.status_code == 405  # past authentication and CSRF: the list takes no POST


def test_a_session_ends_at_logout(user: User) -> None:
    client = signed_in(user)
    kept = client.cookies["sessionid"].value
    assert who(client) == user
    client.post("/accounts/logout/")
    stale = Client()
    stale.cookies["sessionid"] = kept  # someone who kept the cookie
    assert not who(stale).is_authenticated


def test_a_session_ends_at_a_password_change(user: User) -> None:
    client = signed_in(user)
    assert who(client) == user
    user.set_password("second password 2")
    user.save()
    assert not who(client).is_authenticated


def test_a_session_signed_with_an_old_secret_is_moved_to_the_new_one(
    user: User, settings: Any
) -> None:
    old = settings.SECRET_KEY
    client = signed_in(user)
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "a new secret " * 5, [old]
    assert who(client) == user
    key = client.cookies["sessionid"].value
    assert SessionStore(key)[HASH_SESSION_KEY] == user.get_session_auth_hash()


def test_a_cache_that_does_not_answer_costs_no_request(user: User, redis_away: None) -> None:
    client = signed_in(user, enforce_csrf_checks=True)  # the session is written: no error
    client.cookies["csrftoken"] = CSRF
    assert client.get(PRESETS).status_code == 200
    assert who(client) == user
    answer = client.post(PRESETS, {}, content_type="application/json", HTTP_X_CSRFTOKEN=CSRF)
    assert answer.status_code == 405
    kept = client.cookies["sessionid"].value
    client.post("/accounts/logout/", HTTP_X_CSRFTOKEN=CSRF)
    stale = Client()
    stale.cookies["sessionid"] = kept
    assert not who(stale).is_authenticated
