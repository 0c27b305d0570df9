"""The PostgreSQL engine (kaiser_club/db/): a kept connection is checked before a request's
first query by looking at its socket, and ``SELECT 1`` is run only when the server has said
something; a connection the server ended is found unusable, and the request reconnects."""

from __future__ import annotations

import select
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, connections
from django.db.backends.postgresql import base as django_base

from kaiser_club.settings.base import prepare_threshold, statement_timeout

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept() -> Any:
    """A second connection to the test database, as a worker keeps one between requests."""
    if connection.vendor != "postgresql":
        pytest.skip("the engine is PostgreSQL's")
    wrapper = connections.create_connection("default")
    assert wrapper.settings_dict["CONN_HEALTH_CHECKS"] is True
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


def selects_run(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts Django's own health check (``SELECT 1``) run through the engine."""
    runs: list[int] = []
    checked = django_base.DatabaseWrapper.is_usable

    def counting(self: Any) -> bool:
        runs.append(1)
        return bool(checked(self))

    monkeypatch.setattr(django_base.DatabaseWrapper, "is_usable", counting)
    return runs


def test_the_engine_is_djangos_postgresql_one(kept: Any) -> None:
    assert connection.settings_dict["ENGINE"] == "kaiser_club.db"
    # What the settings give Django's PostgreSQL engine they give this one (it was named by
    # its Django name there): values bound beside the statement, so psycopg prepares it.
    assert connection.settings_dict["OPTIONS"]["server_side_binding"] is True
    assert isinstance(kept, django_base.DatabaseWrapper)
    assert kept.vendor == "postgresql"


def test_a_quiet_connection_is_usable_without_a_round_trip(
    kept: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = selects_run(monkeypatch)
    kept.close_if_unusable_or_obsolete()  # a request starts: its first query checks
    with kept.cursor() as cursor:
        cursor.execute("SELECT 2")
        assert cursor.fetchone() == (2,)
    assert runs == []


def test_a_connection_the_server_ended_is_unusable_and_the_request_reconnects(
    kept: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = selects_run(monkeypatch)
    pid = kept.connection.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    readable, _, _ = select.select([kept.connection.fileno()], [], [], 10)
    assert readable, "the server did not say it ended the connection"
    assert kept.is_usable() is False
    assert runs == [1]  # the socket had something to say: SELECT 1 was run, and failed
    kept.close_if_unusable_or_obsolete()
    with kept.cursor() as cursor:  # the health check closes it; the query reconnects
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid


def test_a_closed_connection_is_unusable(kept: Any) -> None:
    kept.connection.close()
    assert kept.is_usable() is False


def test_a_statement_run_again_and_again_is_prepared_once(kept: Any) -> None:
    """Django turns psycopg's prepared statements off unless asked: the settings ask, so the
    hand's game read and its write are planned once per connection, not at every hand."""
    assert kept.settings_dict["OPTIONS"]["prepare_threshold"] == 5
    with kept.cursor() as cursor:
        for number in range(8):
            cursor.execute("SELECT %s::int + 40 AS kaiser_prepared_probe", [number])
            assert cursor.fetchone() == (number + 40,)
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("kaiser_prepared_probe" in statement for statement in prepared)


@pytest.mark.parametrize(
    ("value", "threshold"),
    [("5", 5), ("0", 0), (" 12 ", 12), ("off", None), ("OFF", None), ("", None)],
)
def test_the_prepare_threshold_setting_reads(value: str, threshold: int | None) -> None:
    assert prepare_threshold(value) == threshold


@pytest.mark.parametrize("value", ["five", "-1", "2.5"])
def test_a_prepare_threshold_that_is_not_a_number_is_refused_by_name(value: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_PREPARE_THRESHOLD"):
        prepare_threshold(value)


@pytest.mark.parametrize(
    ("value", "timeout"),
    [("30s", "30s"), ("2 min", "2min"), ("500", "500"), ("off", None), ("0", None), ("", None)],
)
def test_the_statement_timeout_setting_reads(value: str, timeout: str | None) -> None:
    assert statement_timeout(value) == timeout


def test_a_statement_timeout_that_is_not_a_duration_is_refused_by_name() -> None:
    with pytest.raises(ImproperlyConfigured, match="DATABASE_STATEMENT_TIMEOUT"):
        statement_timeout("half a minute")


def test_every_connection_carries_the_statement_timeout(kept: Any) -> None:
    """A request stuck in PostgreSQL (a lock never released) gets its thread back after 30 s:
    gunicorn's threaded workers do not stop it themselves."""
    with kept.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone() == ("30s",)
