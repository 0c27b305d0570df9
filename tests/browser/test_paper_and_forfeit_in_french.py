"""The organiser's game page when a table's tablet is dead, in French on a phone, in Debian's
chromium: one game entered from its paper sheet (each hand previewed, then recorded, and the
form moves on to the next hand), another forfeited (the page asks first) and the forfeit taken
back (the game goes on). No English on the pages, nothing wider than the phone; screenshots
kept in /tmp/paper-shots for a person to look at."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect as playwright_expect

from scoring.models import Game, Hand
from tests.browser.site import PARTNERSHIPS
from tests.browser.test_staged_event_day import _signed_in
from tests.french_allowlist import english_left
from tests.tournaments.helpers import generate, make_event, new_club
from tournaments import services
from tournaments.models import Entry, Pairing, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

expect = type(playwright_expect)()
expect.set_options(timeout=15_000)

SHOTS = Path("/tmp/paper-shots")
# East bids 7 hearts; East–West take 6 tricks and the 5♥, North–South the 3♠: +11 to E–W.
EAST_MAKES_SEVEN = {
    "kind": "played",
    "bidder": "1",
    "bid": "7",
    "contract": "trump",
    "trump": "hearts",
    "bidding_team_tricks": "6",
    "five_hearts": "ew",
    "three_spades": "ns",
}


def _look(page: Any, name: str, names: tuple[str, ...]) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0, name
    text = page.locator("main").inner_text()
    assert english_left(text, also_allowed=names) == [], (name, english_left(text))


def _enter_from_paper(page: Any, hand: dict[str, str]) -> None:
    paper = page.locator("#paper")
    for field, value in hand.items():
        control = paper.locator(f"[name={field}]")
        if control.evaluate("e => e.tagName") == "SELECT":
            control.select_option(value)
        else:
            control.fill(value)
    paper.locator("button[name=preview]").click()


def test_a_dead_tablets_game_from_paper_and_a_forfeit_taken_back_in_french(
    chromium: Any, live_server: Any
) -> None:
    club = new_club(name="Légion, filiale 27")
    event = make_event(teams=4, format="swiss", club=club)
    event.name = "Omnium d'hiver"
    event.save(update_fields=["name"])
    for entry, name in zip(
        Entry.objects.filter(event=event).order_by("id"), PARTNERSHIPS[:4], strict=True
    ):
        Entry.objects.filter(id=entry.id).update(name=name)
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    paper_game, forfeited = Pairing.objects.filter(event=event).order_by("table__number")
    names = (event.name, club.name, *PARTNERSHIPS[:4])
    assert paper_game.game_id is not None and forfeited.game_id is not None

    context = _signed_in(chromium, live_server.url, club, width="phone", locale="fr-CA")
    try:
        page = context.new_page()
        page.goto(f"/events/{event.id}/games/{paper_game.id}/")
        expect(page.locator("#paper h2")).to_contain_text("1")
        _enter_from_paper(page, EAST_MAKES_SEVEN)
        expect(page.locator("#paper-preview")).to_contain_text("+11")
        assert not Hand.objects.filter(game_id=paper_game.game_id).exists()  # a preview only
        _look(page, "paper-preview-fr-390", names)
        page.locator("#paper button[name=record]").click()
        expect(page.locator("#paper h2")).to_contain_text("2")  # the next hand's form
        hand = Hand.objects.get(game_id=paper_game.game_id)
        assert (hand.number, hand.status, hand.ew_score) == (1, "confirmed", 11)
        _look(page, "paper-recorded-fr-390", names)

        page.goto(f"/events/{event.id}/games/{forfeited.id}/")
        forfeit = page.locator(f"form[action$='/games/{forfeited.id}/forfeit/']").first
        forfeit.locator("[name=forfeiting]").select_option("home")
        forfeit.locator("button").click()
        asked = page.locator("#forfeit-confirm")
        expect(asked).to_be_visible()
        assert Pairing.objects.get(id=forfeited.id).result == "pending"  # asked, not recorded
        _look(page, "forfeit-asked-fr-390", names)
        asked.locator("button[name=confirm]").click()
        undo = page.locator(f"form[action$='/games/{forfeited.id}/forfeit-undo/'] button")
        expect(undo).to_be_visible()
        assert Pairing.objects.get(id=forfeited.id).result == "forfeit"
        _look(page, "forfeit-recorded-fr-390", names)
        undo.click()
        expect(undo).to_have_count(0)
        expect(page.locator("#paper h2")).to_contain_text("1")  # the game goes on, from paper
        taken_back = Pairing.objects.select_related("game").get(id=forfeited.id)
        assert taken_back.result == "pending"
        assert Game.objects.get(id=forfeited.game_id).status == "in_progress"
        _look(page, "forfeit-taken-back-fr-390", names)
        assert re.search(r"/games/\d+/", page.url)
    finally:
        context.close()
