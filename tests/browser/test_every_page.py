"""Every page of a club's day in Debian's chromium, at a phone (390 px), a tablet (768 px) and
a laptop (1366 px), in English and in French.

One browser, one sweep: each page is opened once per language and measured at the three
widths (tests/browser/checks.js), and each test below reads one kind of finding:
the document scrolling sideways, a score sheet hiding a score in its box, a console error, a
broken image or a glyph drawn as a box, a word broken inside, a violation of WCAG 2.1 A or AA
found by axe-core (contrast, labels, landmarks, ids…), and, in French, English left on the page.

The French allowlist: the words that are the same in both languages (names, "Kaiser") are
shared with the page test in tests/french_allowlist.py.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.core.management import call_command

from tests.browser import site
from tests.french_allowlist import english_left

pytestmark = [pytest.mark.browser]

WIDTHS = (390, 768, 1366)
LANGUAGES = ("en", "fr")
CHECKS = (Path(__file__).parent / "checks.js").read_text()
WCAG_21_AA = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
    "resultTypes": ["violations"],
}

# The demo's names, the same in both languages; the rest of what French may show in English,
# and how English is recognised, is shared with the page test (tests/french_allowlist.py).
DEMO_NAMES = (
    "Royal Canadian Legion, Branch 001",
    "Regina Fall Open",
    "Tuesday club night",
    "Regina Kaiser Club",
    "Buchholz",
)


class Sweep:
    """What every page showed: findings by kind, each "page · language · width: what"."""

    def __init__(self) -> None:
        self.found: dict[str, list[str]] = defaultdict(list)
        self.visits = 0

    def add(self, kind: str, where: str, items: list[str]) -> None:
        self.found[kind].extend(f"{where}: {item}" for item in items)


def _english_in(texts: list[str]) -> list[str]:
    found = []
    for text in texts:
        found += [f"{text[:80]!r} ({hit})" for hit in english_left(text, also_allowed=DEMO_NAMES)]
    return sorted(set(found))


def _violations(axe: Axe, page: Any) -> list[str]:
    """What axe-core finds against WCAG 2.1 A and AA, one line per rule with where it is."""
    found = []
    for rule in axe.run(page, options=WCAG_21_AA).response["violations"]:
        where = ", ".join(" ".join(node["target"]) for node in rule["nodes"][:4])
        found.append(f"{rule['id']} ({rule['help']}), {len(rule['nodes'])}×: {where}")
    return found


def _sign_in(page: Any) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", "kaiser-demo")
    page.locator("form:has(input[name=password]) [type=submit]").click()
    page.wait_for_load_state()


@pytest.fixture(scope="module")
def sweep(
    chromium: Any, live_server: Any, django_db_setup: Any, django_db_blocker: Any
) -> Iterator[Sweep]:
    found = Sweep()
    axe = Axe()
    with django_db_blocker.unblock():
        pages = site.load()
        try:
            for language in LANGUAGES:
                context = chromium.new_context(base_url=live_server.url, locale="en-CA")
                context.add_cookies(
                    [{"name": "django_language", "value": language, "url": live_server.url}]
                )
                context.set_default_timeout(15_000)
                page = context.new_page()
                errors: list[str] = []
                page.on(
                    "console",
                    lambda m, e=errors: e.append(m.text) if m.type == "error" else None,
                )
                page.on("pageerror", lambda exc, e=errors: e.append(str(exc)))
                _sign_in(page)
                for name, url, _organiser in pages:
                    errors.clear()
                    page.set_viewport_size({"width": WIDTHS[-1], "height": 900})
                    answer = page.goto(url)
                    assert answer is not None and answer.ok, f"{name} ({url}): {answer}"
                    page.wait_for_load_state("networkidle")
                    for width in WIDTHS:
                        page.set_viewport_size({"width": width, "height": 900})
                        page.evaluate("document.fonts.ready")
                        seen = page.evaluate(CHECKS)
                        where = f"{name} · {language} · {width}px"
                        found.visits += 1
                        for kind in ("overflow", "sheet", "images", "tofu", "broken"):
                            found.add(kind, where, seen[kind])
                        found.add("wcag", where, _violations(axe, page))
                        if language == "fr" and width == WIDTHS[-1]:
                            found.add("english", where, _english_in(seen["text"]))
                    found.add("console", f"{name} · {language}", list(errors))
                context.close()
        finally:
            call_command("flush", interactive=False, verbosity=0)
    print(f"every page: {found.visits} page × width × language measured")
    yield found


def _none(found: list[str]) -> None:
    assert not found, f"{len(found)} found:\n" + "\n".join(found[:40])


def test_no_page_scrolls_sideways(sweep: Sweep) -> None:
    _none(sweep.found["overflow"])


def test_a_score_sheet_shows_both_scores_without_scrolling(sweep: Sweep) -> None:
    _none(sweep.found["sheet"])


def test_no_console_error(sweep: Sweep) -> None:
    _none(sweep.found["console"])


def test_no_broken_image_or_glyph_box(sweep: Sweep) -> None:
    _none(sweep.found["images"] + sweep.found["tofu"])


def test_no_word_broken_inside(sweep: Sweep) -> None:
    _none(sweep.found["broken"])


def test_no_wcag_21_aa_violation(sweep: Sweep) -> None:
    _none(sweep.found["wcag"])


def test_french_pages_have_no_english(sweep: Sweep) -> None:
    _none(sweep.found["english"])
