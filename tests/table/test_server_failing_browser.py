"""The table page says when the server answers its own error, not "Online", and says "Online"
again once the server answers (in Debian's chromium, the state answering 500 by page.route)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.table.helpers import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAILING = "The server is not answering: hands are kept on this device and sent when it does"


def test_the_table_page_says_the_server_is_failing_and_when_it_answers_again(
    tablet: Any,
) -> None:
    setup = make_table()
    page = tablet.new_page()
    page.route("**/state", lambda route: route.fulfill(status=500, body="Server Error"))
    page.goto(f"/t/{setup.code}/")
    net = page.locator("#net")
    expect(net).to_have_attribute("role", "status")
    expect(page.locator("#net-text")).to_have_text(FAILING)
    expect(net).to_have_class("net offline")
    page.unroute("**/state")
    expect(page.locator("#net-text")).to_have_text("Online", timeout=20_000)
    expect(net).to_have_class("net")
