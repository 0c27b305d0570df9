"""The public pages in French: chosen from the browser's language, every string of the pages
translated, placings as French writes them (1er, 2e, 3e–4e)."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.utils import translation

from tournaments.models import Pairing
from tournaments.public.wording import placing_label

from ..helpers import generate, make_event, win_for
from .world import hall, live_game, results

pytestmark = pytest.mark.django_db

FR = {"HTTP_ACCEPT_LANGUAGE": "fr"}


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


@pytest.mark.parametrize(
    ("band", "english", "french"),
    [
        ((1, 1), "1st", "1er"),
        ((2, 2), "2nd", "2e"),
        ((3, 4), "3rd–4th", "3e–4e"),
        ((5, 8), "5th–8th", "5e–8e"),
        ((9, 16), "9th–16th", "9e–16e"),
        ((11, 12), "11th–12th", "11e–12e"),
        ((21, 22), "21st–22nd", "21e–22e"),
    ],
)
def test_placings_in_both_languages(band, english, french):
    with translation.override("en"):
        assert placing_label(band) == english
    with translation.override("fr"):
        assert placing_label(band) == french


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# English that the public pages would show if a string were left untranslated.
ENGLISH = [
    "Standings",
    "Live scores",
    "Projector",
    "Playing now",
    "Ranked by",
    "Team",
    "Won",
    "Lost",
    "Against",
    "Download as CSV",
    "Round clock",
    "Rounds",
    "Still playing",
    "Leaders",
    "not started",
    "playing",
    "This page updates itself",
    "Only finished games count",
    "Wins",
    "Point difference",
]


def test_the_pages_in_french_leave_no_english(client):
    made = hall(["Les As", "Les Rois", "Les Valets", "Les Dames"], format="swiss")
    results(made, [("Les As", "Les Rois", 52, 30), ("Les Valets", "Les Dames", 52, 40)])
    live_game(made, "Les As", "Les Valets", round=2, table_number=1)
    base = f"/e/{made.event.id}/"
    for url in (base, f"{base}standings/", f"{base}live/", f"{base}rounds/2/", f"{base}projector/"):
        answer = client.get(url, **FR)
        assert answer["Content-Language"] == "fr"
        text = visible_text(answer.content.decode())
        left = [word for word in ENGLISH if re.search(rf"\b{re.escape(word)}\b", text)]
        assert not left, f"{url}: {left}"
    standings = visible_text(client.get(f"{base}standings/", **FR).content.decode())
    assert "Classement par : Victoires, Écart de points" in standings
    assert "Équipe" in standings and "Gagnées" in standings
    assert "c. Les Valets, table 1" in standings


def test_placings_page_in_french(client):
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    for code in ("W1-1", "W1-2"):
        pairing = Pairing.objects.select_related("home").get(event=event, code=code)
        assert pairing.home is not None
        win_for(pairing, pairing.home)
    text = visible_text(client.get(f"/e/{event.id}/standings/", **FR).content.decode())
    assert "Rangs finaux" in text and "3e–4e" in text and "encore en jeu" in text
