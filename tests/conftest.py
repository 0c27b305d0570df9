"""Shared test set-up. Under CI=true a missing PostgreSQL fails the run: a skip is not a pass."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    deadline=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("ci", deadline=None, max_examples=100, derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") == "true" else "default")

IN_CI = os.environ.get("CI") == "true"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if IN_CI and not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise pytest.UsageError("CI=true needs DATABASE_URL pointing at PostgreSQL.")


# Playwright's sync API runs an event loop in the test's thread; the ORM calls the tests make
# between browser steps are plain synchronous calls.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def missing_tool(reason: str) -> None:
    """Under CI=true a missing tool fails the run: a skip is not a pass."""
    if IN_CI:
        pytest.fail(f"{reason} (CI=true: these tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium():  # type: ignore[no-untyped-def]
    """Debian's chromium through Playwright's sync API: one for the whole session, since a
    second sync Playwright cannot start while the first is alive."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing_tool("Playwright is not installed")
    if not os.path.exists(CHROMIUM):
        missing_tool(f"No chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def api_client():  # type: ignore[no-untyped-def]
    from rest_framework.test import APIClient

    return APIClient()


@pytest.fixture(autouse=True)
def _english_again() -> Iterator[None]:
    """A page asked for in French leaves French active in the thread; the next test starts in
    the default language, whatever ran before it."""
    yield
    from django.conf import settings as django_settings
    from django.utils import translation

    translation.activate(django_settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _no_outage_noticed() -> Iterator[None]:
    """An outage of the cache or the broker a test made (a closed port, a refused send) is
    remembered by the process for a few seconds (kaiser_club/outages.py): the next test starts
    with every service answering."""
    yield
    from kaiser_club import outages

    outages.forget()
