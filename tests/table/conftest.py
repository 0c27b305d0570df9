"""Browser fixtures for the table page: Debian's chromium driven by Playwright (sync API).

Under CI=true a missing Playwright or chromium fails the run: a skip is not a pass."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.table.network import HallNetwork, hall_network

TABLET = {"width": 768, "height": 1024}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="session")
def browser(chromium: Any) -> Any:
    """The session's chromium (tests/conftest.py)."""
    return chromium


@pytest.fixture
def tablet(browser: Any, live_server: Any) -> Iterator[Any]:
    """A fresh tablet (768×1024, touch) on the live server: its own cookies and storage."""
    context = browser.new_context(
        viewport=TABLET, has_touch=True, base_url=live_server.url, locale="en-CA"
    )
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def phone(browser: Any, live_server: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
        base_url=live_server.url,
        locale="en-CA",
    )
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def network(live_server: Any) -> Iterator[HallNetwork]:
    """The hall's Wi-Fi, which a test can drop (tests/table/network.py)."""
    with hall_network(live_server) as hall:
        yield hall
