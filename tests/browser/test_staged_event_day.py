"""A qualifying round robin and its final in one event, in Debian's chromium as an organiser
does it: the event made through the form (its format and how many go on), four teams typed in
once, the round robin drawn and started from the pages, the final drawn from its standings and
played on its tablet, then the final placings on the organiser's and the public pages, in
English and in French, at a phone's, a tablet's and a laptop's width (screenshots kept in
/tmp/h8-shots for a person to look at)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect as playwright_expect

from kaiser_club.models import Club
from kaiser_club.roles import Role
from tests.factories import member
from tests.table.tablepage import Scorekeeper
from tests.tournaments.helpers import new_club, win_for
from tests.tournaments.test_organiser_browser import _enter_team, _messages
from tournaments.models import Entry, Event, Pairing, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

expect = type(playwright_expect)()
expect.set_options(timeout=15_000)

SHOTS = Path("/tmp/h8-shots")
WIDTHS = {"phone": (390, 844), "tablet": (768, 1024), "laptop": (1366, 800)}
# The round robin's order: each team beats every team after it.
TEAMS = [
    ("Team Aces", "Aces North", "Aces South"),
    ("Team Bowers", "Bowers North", "Bowers South"),
    ("Team Clubs", "Clubs North", "Clubs South"),
    ("Team Deuces", "Deuces North", "Deuces South"),
]
RANK = {name: index for index, (name, _, _) in enumerate(TEAMS)}


def _signed_in(chromium: Any, base_url: str, club: Club, *, width: str, locale: str) -> Any:
    client = Client()
    client.force_login(member(club, Role.ORGANISER))
    w, h = WIDTHS[width]
    context = chromium.new_context(
        viewport={"width": w, "height": h}, base_url=base_url, locale=locale
    )
    context.set_default_timeout(15_000)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": base_url,
            },
            {"name": "django_language", "value": locale[:2], "url": base_url},
        ]
    )
    return context


@pytest.fixture
def organiser(chromium: Any, live_server: Any) -> Iterator[tuple[Any, Club]]:
    club = new_club(name="Legion Branch 27")
    context = _signed_in(chromium, live_server.url, club, width="laptop", locale="en-CA")
    yield context, club
    context.close()


def _create_staged_event(page: Any) -> Event:
    page.goto("/events/")
    page.get_by_role("link", name="New event").click()
    page.get_by_label("Name:", exact=True).fill("Winter Cup")
    page.get_by_label("Date").fill("2026-11-28")
    page.get_by_label("Format").select_option(label="Round robin, then a knockout")
    page.get_by_label("Teams that go on to the knockout").fill("2")
    expect(page.get_by_label("Knockout:", exact=True)).to_have_value("single_elimination")
    page.get_by_role("button", name="Create the event").click()
    expect(page).to_have_url(re.compile(r"/events/\d+/$"))
    expect(page.locator("dl.facts")).to_contain_text(
        "Round robin, then a knockout; the first 2 go on to a single elimination"
    )
    return Event.objects.get(name="Winter Cup")


def _generate_and_start(page: Any, event: Event, said: str) -> int:
    page.goto(f"/events/{event.id}/")
    page.get_by_role("button", name="Generate the next round").click()
    expect(page.locator("#job")).to_contain_text(f"Generated: {said}")
    number = Round.objects.filter(event=event).order_by("-number")[0].number
    page.goto(f"/events/{event.id}/rounds/{number}/")
    page.get_by_role("button", name="Start the round: every clock at once").click()
    expect(_messages(page)).to_contain_text("started.")
    return number


def _play_on_the_tablet(chromium: Any, base_url: str, pairing: Pairing) -> None:
    """North–South bid 10 no-trump and take every trick until the table says it is over."""
    assert pairing.table is not None
    tablet = chromium.new_context(
        viewport={"width": 768, "height": 1024}, base_url=base_url, locale="en-CA"
    )
    tablet.set_default_timeout(15_000)
    try:
        page = tablet.new_page()
        page.goto(f"/t/{pairing.table.code}/")
        expect(page.locator("#score-ns")).to_be_visible()
        keeper = Scorekeeper(page)
        if page.locator("#keeper").is_visible():
            keeper.tap("#entry input[name=keeper][value='0'] + span")
        for _ in range(6):
            if page.locator("#end").count():
                break
            keeper.hand("N", 10, "no_trump", 8, "ns", "ns", record=False)
            expect(page.locator("#record")).to_be_enabled()
            keeper.record()
            keeper.settled()
            if page.locator("#pending [data-action=confirm]").count():
                keeper.tap("#pending [data-action=confirm][data-seat='1']")
                keeper.settled()
        expect(page.locator("#end")).to_contain_text("Game over")
    finally:
        tablet.close()


def _shoot(chromium: Any, base_url: str, club: Club, event: Event) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for locale in ("en-CA", "fr-CA"):
        for width in WIDTHS:
            context = _signed_in(chromium, base_url, club, width=width, locale=locale)
            try:
                page = context.new_page()
                for name, address in (
                    ("public-standings", f"/e/{event.id}/standings/"),
                    ("organiser-event", f"/events/{event.id}/"),
                    ("settings", f"/events/{event.id}/settings/"),
                ):
                    page.goto(address)
                    page.screenshot(
                        path=str(SHOTS / f"{name}-{locale[:2]}-{width}.png"), full_page=True
                    )
                    overflow = page.evaluate(
                        "document.documentElement.scrollWidth - window.innerWidth"
                    )
                    assert overflow <= 0, (name, locale, width, overflow)
            finally:
                context.close()


def test_a_round_robin_and_its_final_from_registration_to_the_placings(
    organiser: tuple[Any, Club], chromium: Any, live_server: Any
) -> None:
    context, club = organiser
    page = context.new_page()
    event = _create_staged_event(page)

    page.get_by_role("navigation").get_by_role("link", name="Registration").click()
    for name, first, second in TEAMS:
        _enter_team(page, name, first, second)
    page.get_by_role("button", name="Check everyone in").click()
    expect(_messages(page)).to_contain_text("4 entries checked in.")

    # The round robin, drawn and started from the pages; its games recorded at the tables.
    for number in (1, 2, 3):
        assert _generate_and_start(page, event, f"Round-robin stage, round {number}") == number
        for pairing in Pairing.objects.filter(event=event, round__number=number).select_related(
            "home", "away"
        ):
            assert pairing.home is not None and pairing.away is not None
            win_for(pairing, min(pairing.home, pairing.away, key=lambda e: RANK[e.name]))
    page.goto(f"/events/{event.id}/")
    expect(page.get_by_role("heading", name="Round-robin stage")).to_be_visible()

    # The final: the round robin's first two, drawn by the same button, played on its tablet.
    assert _generate_and_start(page, event, "Final") == 4
    final = Pairing.objects.select_related("home", "away", "table").get(event=event, code="W1-1")
    assert (str(final.home), str(final.away)) == ("Team Aces", "Team Bowers")
    _play_on_the_tablet(chromium, live_server.url, final)
    event.refresh_from_db()
    assert event.status == "finished"

    # The placings: the final's two, then the round robin's others in its order.
    page.goto(f"/events/{event.id}/")
    placings = page.locator("table").last.locator("tbody tr")
    expect(placings).to_have_count(4)
    for row, (name, _, _) in enumerate(TEAMS):
        expect(placings.nth(row)).to_contain_text(name)
    public = context.new_page()
    public.goto(f"/e/{event.id}/standings/")
    expect(public.get_by_role("heading", name="Round-robin stage")).to_be_visible()
    expect(public.get_by_role("heading", name="Final placings")).to_be_visible()
    expect(public.locator("table.placings tbody tr").first).to_contain_text("Team Aces")
    expect(public.locator("table.placings tbody tr").nth(2)).to_contain_text("Team Clubs")
    assert Entry.objects.filter(event=event).count() == 4  # entered once, for both stages

    _shoot(chromium, live_server.url, club, event)
    french = _signed_in(chromium, live_server.url, club, width="phone", locale="fr-CA")
    try:
        page = french.new_page()
        page.goto(f"/e/{event.id}/standings/")
        expect(page.get_by_role("heading", name="Phase toutes rondes")).to_be_visible()
        expect(page.get_by_role("heading", name="Rangs finaux")).to_be_visible()
        page.goto(f"/events/{event.id}/settings/")
        expect(page.locator("#id_format")).to_have_value("round_robin_knockout")
        expect(page.get_by_label("Équipes qui passent à l’élimination")).to_have_value("2")
    finally:
        french.close()
