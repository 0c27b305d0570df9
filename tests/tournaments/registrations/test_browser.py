"""A player's sign-up on a phone, in Debian's chromium, in English and in French: the form,
the waiting list, the e-mail that says a place has freed, the page its link opens, and the
table shown there once the round is drawn, without a reload. Screenshots of each step go to
KAISER_SIGN_UP_SHOTS (default /tmp/kaiser-sign-up-shots)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import expect

from tournaments.services import registrations as reg

from ..helpers import generate
from .world import first, open_event, pair, sign_up

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("KAISER_SIGN_UP_SHOTS", "/tmp/kaiser-sign-up-shots"))
PHONE = {"width": 390, "height": 844}
WORDS = {
    "en": {
        "name": "Your name",
        "email": "Your e-mail",
        "partner": "Your partner's name",
        "partner_email": "Your partner's e-mail",
        "button": "Sign up",
        "waiting": "number 1 on the waiting list",
        "subject": "A place for you in Open pairs",
        "registered": "Registered",
        "table": "Table 1",
    },
    "fr": {
        "name": "Votre nom",
        "email": "Votre courriel",
        "partner": "Nom de votre partenaire",
        "partner_email": "Courriel de votre partenaire",
        "button": "S'inscrire",
        "waiting": "numéro 1 sur la liste d'attente",
        "subject": "Une place pour vous dans Open pairs",
        "registered": "Inscrite",
        "table": "Table 1",
    },
}


@pytest.fixture
def phone(chromium: Any, live_server: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    language = request.param
    context = chromium.new_context(viewport=PHONE, base_url=live_server.url, locale="en-CA")
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield page, language, errors
    context.close()


def shot(page: Any, language: str, step: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{language}-{step}.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{step}: the page scrolls sideways ({width}px)"


@pytest.mark.parametrize("phone", ["en", "fr"], indirect=True)
def test_a_player_signs_up_on_a_phone_waits_is_promoted_and_finds_their_table(
    phone: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    page, language, errors = phone
    words = WORDS[language]
    monkeypatch.setattr("tournaments.registration_limits.FASTEST_SECONDS", -1)
    event = open_event(capacity=2, name="Open pairs")
    leaving = sign_up(event, pair("Anne", "anne@x.org", "Bob", "bob@x.org"))
    sign_up(event, pair("Cleo", "cleo@x.org", "Dan", "dan@x.org"))

    page.goto(f"/e/{event.id}/register/")
    page.get_by_label(words["name"]).fill("Élise Martin")
    page.get_by_label(words["email"]).fill("elise@x.org")
    page.get_by_label(words["partner"]).fill("Farid Haddad")
    page.get_by_label(words["partner_email"]).fill("farid@x.org")
    shot(page, language, "1-form")
    page.get_by_role("button", name=words["button"]).click()
    expect(page.locator(".sign-up-answer")).to_contain_text(words["waiting"])
    shot(page, language, "2-waiting")

    reg.registration_withdraw(registrant=first(leaving))  # a place frees: Élise is promoted
    promoted = [m for m in mail.outbox if m.to == ["elise@x.org"] and m.subject == words["subject"]]
    assert len(promoted) == 1
    link = re.search(r"https?://\S+/me/\S+/(?=\s)", str(promoted[0].body))
    assert link is not None
    page.goto(link.group(0))
    expect(page.locator(".own-state")).to_contain_text(words["registered"])
    shot(page, language, "3-promoted")

    generate(event)  # round 1: Élise & Farid against Cleo & Dan, at table 1
    expect(page.locator(".own-seat")).to_contain_text(words["table"], timeout=15_000)
    expect(page.locator(".own-seat")).to_contain_text("Farid Haddad")
    shot(page, language, "4-table")
    assert errors == []
