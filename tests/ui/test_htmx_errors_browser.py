"""The one htmx error handler, in Debian's chromium: demoting a club's only admin is refused
(400 with a sentence); the dropdown goes back to the role it had and the sentence shows where
the change was made. And a link button reads as a link, not white on cream."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, cast

import pytest
from django.conf import settings
from django.test import Client

if os.environ.get("CI") != "true":  # in CI a missing Playwright fails the run (conftest.py)
    pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect as playwright_expect

from kaiser_club.models import Club, Membership
from kaiser_club.roles import Role
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, member

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

expect = type(playwright_expect)()
expect.set_options(timeout=10_000)


@pytest.fixture
def admin_page(chromium: Any, live_server: Any) -> Iterator[tuple[Any, Any]]:
    club = cast(Club, ClubFactory(name="Hearst Kaiser", slug="hearst"))
    user = member(club, Role.CLUB_ADMIN, username="seule-admin")
    MembershipFactory(club=club, player=PlayerFactory(name="Sans Compte"))  # invitable
    client = Client()
    client.force_login(user)
    context = chromium.new_context(viewport={"width": 1366, "height": 768}, locale="en-CA")
    context.set_default_timeout(10_000)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/clubs/{club.slug}/")
    yield page, Membership.objects.get(club=club, player__user=user)
    context.close()


def test_a_refused_role_change_goes_back_and_says_why(admin_page: tuple[Any, Any]) -> None:
    page, membership = admin_page
    select = page.get_by_label("Role of seule-admin")
    expect(select).to_have_value(Role.CLUB_ADMIN)
    select.select_option(Role.PLAYER)
    row = page.locator(f"#member-{membership.id}")
    expect(row.get_by_role("alert")).to_be_visible()
    expect(page.get_by_label("Role of seule-admin")).to_have_value(Role.CLUB_ADMIN)
    membership.refresh_from_db()
    assert membership.role == Role.CLUB_ADMIN


def test_a_link_button_is_not_white(admin_page: tuple[Any, Any]) -> None:
    page, _membership = admin_page
    button = page.get_by_role("button", name="Invitation link").first
    color = button.evaluate("b => getComputedStyle(b).color")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert color != "rgb(255, 255, 255)" and color != background, color
