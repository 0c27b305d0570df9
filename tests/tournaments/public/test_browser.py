"""The public pages in Debian's chromium: an open page shows a hand confirmed at a table
within five seconds, without a reload; a hand still waiting for confirmation does not show.
And the pages a hall looks at, as screenshots (bench/_out/, or docs/screenshots/ with
KAISER_SCREENSHOTS=docs)."""

from __future__ import annotations

import os
import re
import time
import uuid
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from playwright.sync_api import expect

from scoring import services as scoring
from scoring.rules import Seat, Side
from scoring.services.verification import hand_confirm
from tournaments.models import Round
from tournaments.public import stored_pages, views

from ..helpers import winning_hand
from .world import hall, hand, live_game, north_enters_a_hand, results

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[3]


def _event_under_way() -> tuple[Any, Any]:
    made = hall("ABCDEF", format="swiss", verification=True)
    results(made, [("A", "B", 52, 30), ("C", "D", 52, 40), ("E", "F", 52, 45)], round=1)
    now = live_game(made, "A", "C", round=2, table_number=1)
    live_game(made, "E", "B", round=2, table_number=2)
    live_game(made, "D", "F", round=2, table_number=3)
    return made, now


def test_an_open_page_shows_a_confirmed_hand_within_five_seconds(viewer: Any) -> None:
    made, now = _event_under_way()
    page = viewer.new_page()
    # What the server answered each poll: 304 (the browser's copy is current) or a new part.
    # (The browser hands a revalidated copy to htmx as a 200, so this is read server-side.)
    answers: list[int] = []
    real = views.get_conditional_response

    def spy(request: Any, **kwargs: Any) -> Any:
        answer = real(request, **kwargs)
        answers.append(304 if answer is not None else 200)
        return answer

    # Both the stored page served early (public/stored_pages.py) and the view may answer 304.
    with (
        mock.patch.object(views, "get_conditional_response", spy),
        mock.patch.object(stored_pages, "get_conditional_response", spy),
    ):
        page.goto(f"/e/{made.event.id}/live/")
        score = page.locator(f'tr[data-pairing="{now.id}"] .home-score')
        expect(score).to_have_text("0")
        page.evaluate("window.__stillTheSamePage = true")

        # North enters a hand at table 1: pending until East-West confirm it. Not shown.
        north_enters_a_hand(now.game_id)
        page.wait_for_timeout(7_000)  # two polls at least
        expect(score).to_have_text("0")

        # East confirms it: North-South 9, East-West 1 on the open page within five seconds.
        confirmed_at = time.monotonic()
        hand_confirm(game_id=now.game_id, number=1, seat=Seat.EAST)
        expect(score).to_have_text("9", timeout=5_000)
        shown_after = time.monotonic() - confirmed_at
        expect(page.locator(f'tr[data-pairing="{now.id}"] .away-score')).to_have_text("1")
        assert page.evaluate("window.__stillTheSamePage") is True  # no reload
    assert shown_after < 5.0
    assert 304 in answers  # polls while nothing counted changed cost a 304
    print(f"confirmed hand shown after {shown_after:.2f} s; server answers: {answers}")


def test_the_standings_page_moves_when_a_game_ends(viewer: Any) -> None:
    made, now = _event_under_way()
    page = viewer.new_page()
    page.goto(f"/e/{made.event.id}/standings/")
    first_team = page.locator("table.standings tbody tr:first-child td:nth-child(2)")
    expect(first_team).to_have_text("A")  # A +22 ahead of C +12 and E +7
    page.evaluate("window.__stillTheSamePage = true")
    assert now.game_id is not None
    for _ in range(3):  # C (East-West) wins: 10 no-trump made with every trick, +20 each
        scoring.hand_record(
            game_id=now.game_id, entry=winning_hand(Side.EW), client_id=uuid.uuid4()
        )
    expect(first_team).to_have_text("C", timeout=5_000)  # two wins now
    assert page.evaluate("window.__stillTheSamePage") is True


def _screens_dir() -> Path:
    if os.environ.get("KAISER_SCREENSHOTS") == "docs":
        return ROOT / "docs" / "screenshots"
    return ROOT / "bench" / "_out"


def _a_real_looking_event() -> tuple[Any, Any]:
    """Eight teams of a Saskatchewan tournament, two rounds played, round 3 under way."""
    from typing import cast

    from kaiser_club.models import Club
    from tests.factories import ClubFactory
    from tournaments.models import Event

    club = cast(Club, ClubFactory(name="Regina Kaiser Club"))
    names = [
        "Legion Hall Aces",
        "Moose Jaw Fives",
        "Prairie Spades",
        "Saskatoon Bowers",
        "Yorkton Trumps",
        "Weyburn No-Trumps",
        "Swift Current Kings",
        "Estevan Threes",
    ]
    made = hall(names, format="swiss", club=club, tiebreaks=["wins", "point_difference"])
    Event.objects.filter(id=made.event.id).update(
        name="Saskatchewan Open 2026", venue="Royal Canadian Legion, Branch 001"
    )
    a, b, c, d, e, f, g, h = names
    results(made, [(a, h, 52, 31), (b, g, 47, 52), (c, f, 55, 38), (d, e, 52, 50)], round=1)
    results(made, [(a, g, 52, 44), (c, d, 36, 52), (b, e, 53, 12), (h, f, 52, 49)], round=2)
    now = live_game(made, a, d, round=3, table_number=1)
    live_game(made, g, c, round=3, table_number=2)
    live_game(made, b, h, round=3, table_number=3)
    live_game(made, e, f, round=3, table_number=4)
    return made, now


def test_screenshots_of_the_standings_and_the_projector(chromium: Any, live_server: Any) -> None:
    made, now = _a_real_looking_event()
    assert now.game_id is not None
    scoring.hand_record(game_id=now.game_id, entry=hand(Side.NS), client_id=uuid.uuid4())
    scoring.hand_record(game_id=now.game_id, entry=hand(Side.EW), client_id=uuid.uuid4())
    scoring.hand_record(game_id=now.game_id, entry=winning_hand(Side.NS), client_id=uuid.uuid4())
    from tournaments import services

    services.round_start_unchecked(round_=Round.objects.get(event=made.event, number=3))
    out = _screens_dir()
    out.mkdir(parents=True, exist_ok=True)

    context = chromium.new_context(
        viewport={"width": 1100, "height": 700}, base_url=live_server.url, locale="en-CA"
    )
    page = context.new_page()
    page.goto(f"/e/{made.event.id}/standings/")
    expect(page.locator("table.standings")).to_be_visible()
    page.screenshot(path=str(out / "public-standings.png"), full_page=True)
    context.close()

    hall_screen = chromium.new_context(
        viewport={"width": 1280, "height": 720}, base_url=live_server.url, locale="en-CA"
    )
    page = hall_screen.new_page()
    page.goto(f"/e/{made.event.id}/projector/")
    clock = page.locator(".round-clock .time")
    expect(clock).to_have_text(re.compile(r"^(59|60):\d\d$"))  # counting down from an hour
    expect(page.locator('.panel.active[data-panel="tables"]')).to_be_visible()
    page.screenshot(path=str(out / "projector.png"))
    # The standings come round in turn.
    page.evaluate("document.getElementById('poll').setAttribute('data-rotate-seconds', '1')")
    expect(page.locator('.panel.active[data-panel="standings"]')).to_be_visible(timeout=4_000)
    page.screenshot(path=str(out / "projector-standings.png"))
    hall_screen.close()


def test_a_phone_ten_minutes_fast_reads_the_servers_clock_and_switches_to_french(
    viewer: Any,
) -> None:
    """The page a shared cache gives any reader holds no time of its own: the clock is set
    from the polls' Date. And its language switch, a form with no token, works."""
    import datetime

    from tournaments import services

    made, _ = _event_under_way()
    services.round_start_unchecked(round_=Round.objects.get(event=made.event, number=2))
    page = viewer.new_page()
    page.clock.install(time=datetime.datetime.now() + datetime.timedelta(minutes=10))
    page.goto(f"/e/{made.event.id}/live/")
    clock = page.locator(".round-clock .time")
    # Before the first poll the phone's own clock counts: ten minutes gone already.
    expect(clock).to_have_text(re.compile(r"^(49|50):\d\d$"))
    # The first poll's answer says the server's time: the hour as the server counts it.
    expect(clock).to_have_text(re.compile(r"^(59|60):\d\d$"), timeout=8_000)
    page.get_by_role("button", name="Français").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.get_by_role("button", name="English")).to_be_visible()
    assert page.url.endswith(f"/e/{made.event.id}/live/")
