"""The README's screenshots, from the demo data (tests/browser/site.py), in English and
French: bench/_out/screenshots/ by default, docs/screenshots/ with KAISER_SCREENSHOTS=docs
(scripts/screenshots.sh). The PDF's picture (score-sheet-pdf.png) is not a page: kept."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from tests.browser import site
from tests.browser.test_every_page import _sign_in

pytestmark = [pytest.mark.browser]

ROOT = Path(__file__).resolve().parents[2]
SHOTS = [  # file name, page name in site.load(), width, height
    ("table-tablet", "table", 768, 1024),
    ("table-phone", "table", 390, 844),
    ("public-standings", "public standings", 1366, 900),
    ("public-bracket", "public bracket", 1366, 900),
    ("public-score-sheet", "public score sheet", 390, 844),
    ("projector", "projector", 1366, 768),
    ("game-correction", "game, correcting hand 1", 1366, 900),
]


def test_screenshots(
    chromium: Any, live_server: Any, django_db_setup: Any, django_db_blocker: Any
) -> None:
    folder = (
        ROOT / "docs" / "screenshots"
        if os.environ.get("KAISER_SCREENSHOTS") == "docs"
        else ROOT / "bench" / "_out" / "screenshots"
    )
    folder.mkdir(parents=True, exist_ok=True)
    with django_db_blocker.unblock():
        pages = {name: url for name, url, _ in site.load()}
        try:
            for language in ("en", "fr"):
                context = chromium.new_context(base_url=live_server.url, locale="en-CA")
                context.add_cookies(
                    [{"name": "django_language", "value": language, "url": live_server.url}]
                )
                page = context.new_page()
                _sign_in(page)
                for file, name, width, height in SHOTS:
                    page.set_viewport_size({"width": width, "height": height})
                    page.goto(pages[name])
                    page.wait_for_load_state("networkidle")
                    suffix = "" if language == "en" else "-fr"
                    page.screenshot(path=str(folder / f"{file}{suffix}.png"), full_page=True)
                context.close()
        finally:
            call_command("flush", interactive=False, verbosity=0)
    written = sorted(p.name for p in folder.glob("*.png"))
    assert len(written) >= 2 * len(SHOTS), written
