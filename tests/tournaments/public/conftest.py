"""Browser fixtures for the public pages: Debian's chromium driven by Playwright (sync API).

Under CI=true a missing Playwright or chromium fails the run: a skip is not a pass."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture
def viewer(chromium: Any, live_server: Any) -> Iterator[Any]:
    """A phone in the hall following the event: its own cookies and cache."""
    context = chromium.new_context(
        viewport={"width": 1280, "height": 900}, base_url=live_server.url, locale="en-CA"
    )
    context.set_default_timeout(10_000)
    yield context
    context.close()
