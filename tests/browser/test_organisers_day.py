"""The organiser's day in Debian's chromium, as a person does it: a tournament
made through the form, eight teams typed in, two Swiss rounds played from the tablet pages
(each table's code opens its page; the table moves to its next game when round 2 starts),
one hand corrected from the game page (with its preview), the standings PDF made from the
reports page, and the public standings opened."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect as playwright_expect

from kaiser_club.models import Club
from kaiser_club.roles import Role
from scoring.models import GameChange
from tests.factories import member
from tests.table.tablepage import Scorekeeper
from tests.tournaments.helpers import new_club
from tests.tournaments.test_organiser_browser import _create_event, _enter_team, _messages
from tournaments.models import Pairing, Round, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

expect = type(playwright_expect)()
expect.set_options(timeout=15_000)

TEAMS = [
    (f"Team {name}", f"{name} North", f"{name} South")
    for name in ("Aces", "Bowers", "Clubs", "Deuces", "Eights", "Fives", "Grands", "Hearts")
]


@pytest.fixture
def laptop(chromium: Any, live_server: Any) -> Iterator[tuple[Any, Club]]:
    club = new_club(name="Legion Branch 27")
    client = Client()
    client.force_login(member(club, Role.ORGANISER, username="director"))
    context = chromium.new_context(
        viewport={"width": 1366, "height": 800}, base_url=live_server.url, locale="en-CA"
    )
    context.set_default_timeout(15_000)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    yield context, club
    context.close()


def _play_round(chromium: Any, base_url: str, event_id: int, number: int) -> None:
    """Every table of the round plays its game on its tablet page: North–South bid 10 no-trump
    and take every trick, until the table says the game is over."""
    tablet = chromium.new_context(
        viewport={"width": 768, "height": 1024}, base_url=base_url, locale="en-CA"
    )
    tablet.set_default_timeout(15_000)
    try:
        for table in Table.objects.filter(event_id=event_id).order_by("number"):
            page = tablet.new_page()
            page.goto(f"/t/{table.code}/")
            pairing = Pairing.objects.get(
                round__event_id=event_id, round__number=number, table=table
            )
            expect(page.locator("#score-ns")).to_be_visible()
            keeper = Scorekeeper(page)
            if page.locator("#keeper").is_visible():
                keeper.tap("#entry input[name=keeper][value='0'] + span")  # North keeps score
            for _ in range(6):
                if page.locator("#end").count():
                    break
                keeper.hand("N", 10, "no_trump", 8, "ns", "ns", record=False)
                expect(page.locator("#record")).to_be_enabled()  # the server's preview came
                keeper.record()
                keeper.settled()
                if page.locator("#pending [data-action=confirm]").count():
                    keeper.tap("#pending [data-action=confirm][data-seat='1']")  # East agrees
                    keeper.settled()
            expect(page.locator("#end")).to_contain_text("Game over")
            pairing.refresh_from_db()
            assert pairing.result == "played", (table.number, pairing.result)
            page.close()
    finally:
        tablet.close()


def _generate_and_start(page: Any, event_id: int, name: str, number: int) -> None:
    page.goto(f"/events/{event_id}/")
    page.get_by_role("button", name="Generate the next round").click()
    expect(page.locator("#job")).to_contain_text(f"Generated: Round {number}")
    page.goto(f"/events/{event_id}/rounds/{number}/")
    page.get_by_role("button", name="Start the round: every clock at once").click()
    expect(_messages(page)).to_contain_text(f"Round {number} started.")
    assert Round.objects.get(event_id=event_id, number=number).status == "started"


def test_the_organisers_day(laptop: tuple[Any, Club], chromium: Any, live_server: Any) -> None:
    context, _club = laptop
    page = context.new_page()
    event = _create_event(page, "Fall Swiss")

    page.get_by_role("navigation").get_by_role("link", name="Registration").click()
    for name, first, second in TEAMS:
        _enter_team(page, name, first, second)
    # A partner changes before the first round: the entry's page, prefilled.
    page.get_by_role("link", name="Change Team Hearts").click()
    expect(page.get_by_label("First player")).to_have_value("Hearts North")
    page.get_by_label("Second player").fill("Hearts Partner")
    page.get_by_role("button", name="Save").click()
    expect(_messages(page)).to_contain_text("Team Hearts is changed.")
    expect(page.locator("table.grid")).to_contain_text("Hearts North & Hearts Partner")
    page.get_by_role("button", name="Check everyone in").click()
    expect(_messages(page)).to_contain_text("8 entries checked in.")

    # Two Swiss rounds, each played from the tablets.
    for number in (1, 2):
        _generate_and_start(page, event.id, event.name, number)
        _play_round(chromium, live_server.url, event.id, number)

    # One hand corrected from the game page: the preview first, then the correction.
    pairing = Pairing.objects.filter(round__event=event, round__number=2).order_by("id").first()
    assert pairing is not None and pairing.game_id is not None
    page.goto(f"/events/{event.id}/rounds/2/")
    page.goto(f"/events/{event.id}/games/{pairing.id}/")
    page.get_by_role("link", name="Correct hand 1").click()
    form = page.locator("#correct form")
    form.get_by_label("Tricks taken by the bidding partnership").fill("7")
    form.get_by_label("Reason for the correction").fill("North–South took 7 tricks, not 8")
    form.get_by_role("button", name="Preview the changes").click()
    preview = page.locator("#correction-preview")
    expect(preview).to_contain_text("What this correction changes")
    assert not GameChange.objects.filter(game_id=pairing.game_id, action="correct").exists()
    page.locator("#correct form").get_by_role("button", name="Correct hand 1").click()
    expect(_messages(page)).to_contain_text("Hand 1 corrected.")
    change = GameChange.objects.get(game_id=pairing.game_id, action="correct")
    assert change.reason == "North–South took 7 tricks, not 8"

    # The standings PDF, from the event's menu.
    page.goto(f"/events/{event.id}/")
    page.locator("nav.event-nav").get_by_role("link", name="Reports (PDF)").click()
    expect(page).to_have_url(re.compile(rf"/events/{event.id}/reports/$"))
    page.get_by_role("button", name="Standings", exact=True).click()
    expect(page.get_by_role("link", name="Download PDF").first).to_be_visible(timeout=60_000)
    link = page.get_by_role("link", name="Download PDF").first.get_attribute("href")
    answer = context.request.get(link)
    assert answer.ok and answer.body()[:5] == b"%PDF-", (answer.status, answer.headers)

    # The public standings, as a player finds them: the public index, the event, its standings.
    hall = context.new_page()
    hall.goto("/e/")
    hall.get_by_role("link", name=event.name).first.click()
    hall.get_by_role("link", name="Standings", exact=True).first.click()
    expect(hall.locator("table.standings tbody tr")).to_have_count(8)
    expect(hall).to_have_url(re.compile(rf"/e/{event.id}/standings/$"))
