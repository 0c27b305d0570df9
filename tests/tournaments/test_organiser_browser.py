"""The organiser's pages (/events/) in Debian's chromium, as a tournament director uses them on
a laptop: a Swiss event created through the form, four teams typed in and checked in, round 1
generated (a Celery job, eager here; the page shows the draw when it is done), the round
started, a game won at a table, and the result on the round page, the event page and the
public standings. And the forms' refusals: an event without a name, a team without its
second player, nothing written."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

if os.environ.get("CI") != "true":  # in CI a missing Playwright fails the run (conftest.py)
    pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect as playwright_expect

from kaiser_club.models import Club, Player
from kaiser_club.roles import Role
from tests.factories import member
from tournaments.models import Entry, Event, GenerationJob, Pairing, Round

from .helpers import new_club, win_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# This module's own expect: 10 s for every assertion (the CI machine is slow), without
# changing the 5 s of the other modules' shared one.
expect = type(playwright_expect)()
expect.set_options(timeout=10_000)

LAPTOP = {"width": 1366, "height": 768}
TEAMS = [
    ("Aces High", "Alice Arsenault", "Albert Aubin"),
    ("Bower Birds", "Beatrice Bouchard", "Bruno Belanger"),
    ("Clubs Only", "Chantal Cote", "Claude Cyr"),
    ("Diamond Duo", "Denise Dube", "Daniel Dion"),
]


@pytest.fixture
def club() -> Club:
    return new_club(name="Legion Branch 27")


@pytest.fixture
def laptop(chromium: Any, live_server: Any, club: Club) -> Iterator[Any]:
    """The director's laptop, signed in as an organiser of ``club`` (Django's session cookie)."""
    client = Client()
    client.force_login(member(club, Role.ORGANISER, username="director"))
    context = chromium.new_context(viewport=LAPTOP, base_url=live_server.url, locale="en-CA")
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
    yield context
    context.close()


def _messages(page: Any) -> Any:
    return page.locator("ul.messages")


def _row(rows: Any, page: Any, name: str) -> Any:
    """The row of ``rows`` with a cell that is ``name`` (other rows' cells may mention it)."""
    return rows.filter(has=page.get_by_role("cell", name=name, exact=True))


def _create_event(page: Any, name: str) -> Event:
    page.goto("/events/")
    page.get_by_role("link", name="New event").click()
    expect(page.get_by_role("heading", name="New event")).to_be_visible()
    page.get_by_label("Name:", exact=True).fill(name)
    page.get_by_label("Date").fill("2026-11-28")
    page.get_by_label("Venue").fill("Legion hall")
    page.get_by_label("Format").select_option(label="Swiss")
    page.get_by_label("Rounds").fill("3")
    expect(page.get_by_label("Check-in before the first round")).to_be_checked()
    page.get_by_role("button", name="Create the event").click()
    expect(page).to_have_url(re.compile(r"/events/\d+/$"))
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    return Event.objects.get(name=name)


def _enter_team(page: Any, name: str, first: str, second: str) -> None:
    page.get_by_label("First player").fill(first)
    page.get_by_label("Second player").fill(second)
    page.get_by_label("Team name").fill(name)
    page.get_by_role("button", name="Enter", exact=True).click()
    # The page after the post (the one before may already say "… is entered.").
    expect(_row(page.locator("table.grid tbody tr"), page, name)).to_have_count(1)
    expect(_messages(page)).to_have_text(f"{name} is entered.")


def test_a_tournament_day_from_the_new_event_form_to_the_standings(laptop: Any, club: Club) -> None:
    page = laptop.new_page()

    # A new Swiss event, typed in: the organiser lands on its page.
    event = _create_event(page, "Fall Swiss")
    assert (event.club_id, event.format, event.rounds) == (club.id, "swiss", 3)
    assert (event.status, event.check_in_required, event.venue) == ("draft", True, "Legion hall")
    facts = page.locator("dl.facts")
    expect(facts).to_contain_text("Swiss, 3 rounds")
    expect(facts).to_contain_text("Registration")
    expect(page.locator("#job")).to_be_empty()
    expect(page.locator("table.grid").first).to_contain_text("Nothing generated yet.")

    # Four teams typed in on the registration page.
    page.get_by_role("navigation").get_by_role("link", name="Registration").click()
    expect(page.get_by_role("heading", name="Registration")).to_be_visible()
    expect(page.locator("table.grid")).to_contain_text("No entries yet.")
    for name, first, second in TEAMS:
        _enter_team(page, name, first, second)
    rows = page.locator("table.grid tbody tr")
    expect(rows).to_have_count(4)
    for name, first, second in TEAMS:
        row = rows.filter(has_text=name)
        expect(row).to_contain_text(f"{first} & {second}")
        expect(row).to_contain_text("Registered")
    entries = Entry.objects.filter(event=event)
    assert sorted(e.name for e in entries) == sorted(t[0] for t in TEAMS)
    assert {e.status for e in entries} == {"registered"}

    # One team checked in by hand, then everyone else at once.
    rows.filter(has_text="Aces High").get_by_role("button", name="Check in", exact=True).click()
    expect(_messages(page)).to_contain_text("Aces High is checked in.")
    expect(rows.filter(has_text="Aces High")).to_contain_text("Checked in")
    page.get_by_role("button", name="Check everyone in").click()
    expect(_messages(page)).to_contain_text("3 entries checked in.")
    for name, _first, _second in TEAMS:
        expect(rows.filter(has_text=name)).to_contain_text("Checked in")
    assert set(entries.values_list("status", flat=True)) == {"checked_in"}

    # Round 1 generated from the event page: the job panel shows the draw once it is done.
    page.get_by_role("navigation").get_by_role("link", name="Fall Swiss").click()
    expect(page.locator("dl.facts dt:text-is('Entries') + dd")).to_have_text("4")
    page.get_by_role("button", name="Generate the next round").click()
    job = page.locator("#job")
    expect(job).to_contain_text("Generated:")
    # The page reloads itself when the job is done: its rounds table shows the new round.
    rounds = page.locator("table.grid").first
    expect(rounds).not_to_contain_text("Nothing generated yet.")
    expect(rounds.locator("tbody tr").first).to_contain_text("Ready to start")
    job_row = GenerationJob.objects.get(event=event)
    assert (job_row.status, job_row.round_number) == ("done", 1)
    round_ = Round.objects.get(event=event)
    assert (round_.number, round_.status) == (1, "ready")
    pairings = list(Pairing.objects.filter(round=round_).select_related("home", "away", "table"))
    assert len(pairings) == 2
    assert all(p.game_id and p.table and p.home and p.away for p in pairings)
    paired = sorted(e.name for p in pairings for e in (p.home, p.away) if e is not None)
    assert paired == sorted(t[0] for t in TEAMS)

    # The round's page: both tables, their teams, nothing started.
    job.get_by_role("link", name="Open the round").click()
    expect(page).to_have_url(re.compile(rf"/events/{event.id}/rounds/1/$"))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Round 1")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ready to start")
    tables = page.locator("table.grid tbody tr")
    expect(tables).to_have_count(2)
    for pairing in sorted(pairings, key=lambda p: p.table.number if p.table else 0):
        assert pairing.table is not None and pairing.home and pairing.away
        row = tables.nth(pairing.table.number - 1)
        expect(row.locator("td").first).to_have_text(str(pairing.table.number))
        expect(row).to_contain_text(pairing.home.name)
        expect(row).to_contain_text(pairing.away.name)
        expect(row).to_contain_text("not started")

    # Started: every clock at once, the event is running, both tables are playing.
    page.get_by_role("button", name="Start the round: every clock at once").click()
    expect(_messages(page)).to_contain_text("Round 1 started.")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Started")
    expect(page.locator("#playing h2")).to_have_text("Tables still playing: 2")
    round_.refresh_from_db()
    event.refresh_from_db()
    assert (round_.status, round_.started_at is not None, event.status) == (
        "started",
        True,
        "running",
    )

    # The hall's view, open on another tab before any result: nobody has a game yet.
    hall = laptop.new_page()
    hall.goto(f"/e/{event.id}/standings/")
    public = hall.locator("table.standings tbody tr")
    expect(public).to_have_count(4)
    for pairing in pairings:
        assert pairing.home and pairing.away and pairing.table
        expect(_row(public, hall, pairing.home.name)).to_contain_text(
            f"v {pairing.away.name}, table {pairing.table.number}"
        )

    # The home team at table 1 wins its game at the table (three hands of +20).
    table_one = next(p for p in pairings if p.table and p.table.number == 1)
    assert table_one.home and table_one.away
    winner, loser = table_one.home, table_one.away
    game = win_for(table_one, winner)
    assert (game.status, game.winner, game.ns_score, game.ew_score) == ("finished", "ns", 60, 0)
    table_one.refresh_from_db()
    assert (table_one.result, table_one.home_points, table_one.away_points) == ("played", 60, 0)

    # Both open pages update themselves (htmx polls every 5 s and 3 s): no reload.
    playing = page.locator("#playing")
    expect(playing.locator("h2")).to_have_text("Tables still playing: 1", timeout=20_000)
    expect(playing.locator("li")).to_have_count(1)
    expect(playing.locator("li")).to_contain_text("Table 2")
    leader = public.first
    expect(leader.locator("td").nth(1)).to_have_text(winner.name, timeout=20_000)
    expect(leader.locator("td").first).to_have_text("1")
    # Games, won, lost, win %, for, against, difference.
    cells = ["1", "1", "0", "100%", "60", "0", "+60"]
    for index, text in enumerate(cells, start=2):
        expect(leader.locator("td").nth(index)).to_have_text(text)
    last = public.last
    expect(last.locator("td").nth(1)).to_have_text(loser.name)
    expect(last.locator("td").nth(4)).to_have_text("1")  # lost
    expect(last.locator("td").nth(8)).to_have_text("\u221260")
    hall.close()

    # The round's table, reloaded: table 1 played 60–0, table 2 still at 0–0.
    page.reload()
    expect(tables.nth(0)).to_contain_text("Played")
    expect(tables.nth(0).locator("td.num").nth(1)).to_have_text("60")
    expect(tables.nth(0).locator("td.num").nth(2)).to_have_text("0")
    expect(tables.nth(1).locator("td").nth(6)).to_have_text("0–0")

    # The event page: the round still going, the winner first in the standings.
    page.get_by_role("navigation").get_by_role("link", name="Fall Swiss").click()
    expect(page.locator("dl.facts")).to_contain_text("Running")
    round_row = page.locator("table.grid").first.locator("tbody tr")
    expect(round_row).to_have_count(1)
    # Round, status, games, still playing, byes.
    for index, text in enumerate(["Round 1", "Started", "2", "1", "0"]):
        expect(round_row.locator("td").nth(index)).to_have_text(text)
    standings = page.locator("table.grid").nth(1).locator("tbody tr")
    expect(standings).to_have_count(4)
    expect(standings.first.locator("td").nth(1)).to_have_text(winner.name)
    expect(standings.first.locator("td.num").nth(2)).to_have_text("1")  # wins
    expect(standings.last.locator("td").nth(1)).to_have_text(loser.name)
    assert Pairing.objects.filter(round=round_, result="pending").count() == 1


def test_the_forms_refuse_a_missing_name_and_write_nothing(laptop: Any, club: Club) -> None:
    page = laptop.new_page()

    # An event whose name is only spaces: the browser lets it through, the server does not.
    page.goto("/events/new/")
    page.get_by_label("Name:", exact=True).fill("   ")
    page.get_by_label("Date").fill("2026-11-28")
    page.get_by_label("Rounds").fill("3")
    page.get_by_role("button", name="Create the event").click()
    # The sentence stands under the field it is about, not above the next field's label.
    name_field = page.locator("p.has-error", has=page.get_by_label("Name:", exact=True))
    expect(name_field.locator(".field-error")).to_have_text("This field is required.")
    expect(page.locator(".field-error")).to_have_count(1)
    expect(page.get_by_role("heading", name="New event")).to_be_visible()
    assert not Event.objects.exists()

    # A team without its second player.
    event = _create_event(page, "Club night Swiss")
    page.goto(f"/events/{event.id}/entries/")
    players_before = Player.objects.count()
    page.get_by_label("First player").fill("Alice Arsenault")
    page.get_by_label("Second player").fill("   ")
    page.get_by_label("Team name").fill("Aces High")
    page.get_by_role("button", name="Enter", exact=True).click()
    second = page.locator("p.has-error", has=page.get_by_label("Second player"))
    expect(second.locator(".field-error")).to_have_text("This field is required.")
    expect(page.get_by_label("First player")).to_have_value("Alice Arsenault")
    expect(page.locator("table.grid")).to_contain_text("No entries yet.")
    assert not Entry.objects.filter(event=event).exists()
    assert Player.objects.count() == players_before
