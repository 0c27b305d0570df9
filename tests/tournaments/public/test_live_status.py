"""A live page says when it is not up to date, and when it is again, in Debian's chromium: the
public pages, the projector and the organiser's "still playing" list, with their refresh
answering the server's error (page.route) or the phone offline (context.set_offline)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import expect

from kaiser_club.roles import Role
from tests.factories import member
from tournaments.models import Round
from tournaments.services.rounds import round_start_unchecked

from .world import hall, live_game, results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FAILED = {
    "en": "The server did not answer: what this page shows may be out of date. Trying again…",
    "fr": "Le serveur n’a pas répondu : ce que montre cette page n’est peut-être plus à jour. "
    "Nouvel essai en cours…",
}
OFFLINE = "You are offline: what this page shows may be out of date."
BACK = {"en": "Up to date again.", "fr": "De nouveau à jour."}


def _event_under_way() -> Any:
    made = hall("ABCD", format="swiss", verification=True)
    results(made, [("A", "B", 52, 30), ("C", "D", 52, 40)], round=1)
    live_game(made, "A", "C", round=2, table_number=1)
    live_game(made, "B", "D", round=2, table_number=2)
    round_start_unchecked(round_=Round.objects.get(event=made.event, number=2))
    return made


def _answer_500(route: Any) -> None:
    route.fulfill(status=500, body="Server Error", content_type="text/html")


def _breaks_then_mends(page: Any, refresh: str, language: str = "en") -> None:
    """The refresh answers 500: the status line says so; it answers again: the line says the
    page is up to date, then clears."""
    status = page.locator("[data-live-status]")
    expect(status).to_have_text("")
    page.route(refresh, _answer_500)
    expect(status).to_have_text(FAILED[language], timeout=10_000)
    expect(status).to_have_attribute("role", "status")
    page.unroute(refresh)
    expect(status).to_have_text(BACK[language], timeout=15_000)
    expect(status).to_have_text("", timeout=15_000)


def test_a_public_page_says_the_server_failed_and_when_it_is_up_to_date_again(
    viewer: Any,
) -> None:
    made = _event_under_way()
    page = viewer.new_page()
    page.goto(f"/e/{made.event.id}/live/")
    note = page.locator(".refresh-note")
    expect(note).to_be_visible()
    page.route("**/live/?part=1*", _answer_500)
    expect(page.locator("[data-live-status]")).to_have_text(FAILED["en"], timeout=10_000)
    expect(note).to_be_hidden()  # "This page updates itself" is not true while it cannot
    expect(page.locator(".htmx-error")).to_have_count(0)  # not a refused change: no alert
    page.unroute("**/live/?part=1*")
    expect(page.locator("[data-live-status]")).to_have_text(BACK["en"], timeout=15_000)
    expect(note).to_be_visible()


def test_a_public_page_says_it_is_offline_and_when_it_is_back(viewer: Any) -> None:
    made = _event_under_way()
    page = viewer.new_page()
    page.goto(f"/e/{made.event.id}/standings/")
    status = page.locator("[data-live-status]")
    viewer.set_offline(True)
    expect(status).to_contain_text(OFFLINE, timeout=10_000)
    page.wait_for_timeout(4_000)  # a refresh fails meanwhile: still said, as offline
    expect(status).to_contain_text(OFFLINE)
    viewer.set_offline(False)
    expect(status).to_have_text(BACK["en"], timeout=15_000)


def test_the_projector_says_so_in_french(chromium: Any, live_server: Any) -> None:
    made = _event_under_way()
    context = chromium.new_context(
        viewport={"width": 1366, "height": 768}, base_url=live_server.url, locale="fr-CA"
    )
    context.add_cookies([{"name": "django_language", "value": "fr", "url": live_server.url}])
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto(f"/e/{made.event.id}/projector/")
        _breaks_then_mends(page, "**/projector/?part=1*", "fr")
    finally:
        context.close()


def test_the_organisers_still_playing_list_says_so(chromium: Any, live_server: Any) -> None:
    made = _event_under_way()
    browser = Client()
    browser.force_login(member(made.event.club, Role.ORGANISER))
    context = chromium.new_context(base_url=live_server.url, locale="en-CA")
    context.add_cookies(
        [{"name": "sessionid", "value": browser.cookies["sessionid"].value, "url": live_server.url}]
    )
    context.set_default_timeout(10_000)
    try:
        page = context.new_page()
        page.goto(f"/events/{made.event.id}/rounds/2/")
        expect(page.locator("#playing")).to_be_visible()
        _breaks_then_mends(page, "**/rounds/2/playing/")
    finally:
        context.close()
