"""One score sheet on every surface: the club's game page, the organiser's game page, the
public game page, the table page and the PDF render the rows of scoring/score_sheet.py through
the one partial (templates/scoring/_score_sheet.html, marked ``data-score-sheet``), so a hand
reads the same wherever it is shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.core.cache import cache
from django.test import Client

from kaiser_club.roles import Role
from scoring.rules import Contract
from tests.factories import member
from tests.scoring.hands import EW, NS, E, S, W, played, record
from tests.table.helpers import Setup, make_table, opened
from tests.tournaments.reports.helpers import ask, pdf_text
from tournaments.reports import render

pytestmark = pytest.mark.django_db

SHEET = re.compile(r"<table [^>]*data-score-sheet>.*?</table>", re.S)
BODY = re.compile(r"<tbody[^>]*>(.*?)</tbody>", re.S)
HAND_ONE = 'South <span class="contract">8 NT</span>'
HAND_TWO = 'West <span class="contract">9 ♣</span> <span class="set">set</span>'


@pytest.fixture
def played_table() -> Setup:
    """A table whose game has a made no-trump, a set, and a hand waiting for confirmation."""
    cache.clear()
    setup = make_table(verification=True)
    record(setup.game, played(S, 8, 8, NS, NS, contract=Contract.NO_TRUMP))  # +20
    record(setup.game, played(W, 9, 4, NS, EW))  # E–W: 4 tricks and the 3♠, set: −9; N–S +9
    record(setup.game, played(E, 7, 5, EW, NS), pending=True, entered_by_seat=1)
    return setup


def sheet_of(html: str) -> str:
    found = SHEET.findall(html)
    assert len(found) == 1, "one score sheet, from the partial"
    return found[0]


def rows_of(html: str) -> str:
    body = BODY.search(sheet_of(html))
    assert body is not None
    return re.sub(r"\s+", " ", body[1]).strip()


def organiser(setup: Setup) -> Client:
    client = Client()
    client.force_login(member(setup.event.club, Role.ORGANISER))
    return client


def test_the_four_pages_render_the_same_rows_from_the_partial(played_table: Setup) -> None:
    setup = played_table
    game, event, pairing = setup.game, setup.event, setup.pairing
    club_page = organiser(setup).get(f"/games/{game.id}/").content.decode()
    organisers = organiser(setup).get(f"/events/{event.id}/games/{pairing.id}/").content.decode()
    public = Client().get(f"/e/{event.id}/games/{pairing.id}/").content.decode()
    table = opened(setup).get(f"/table/{setup.table.id}/").content.decode()

    # The two confirmed hands, worded once: the bid, the set, each side's score and change.
    for html in (club_page, organisers, public, table):
        rows = rows_of(html)
        assert HAND_ONE in rows and HAND_TWO in rows
        assert '<td class="num">20 <small>(+20)</small></td>' in rows
        assert '<td class="num">\u22129 <small>(\u22129)</small></td>' in rows
    assert rows_of(club_page) == rows_of(public)
    # The table adds its hand waiting for confirmation, last, in the body its script fills.
    assert rows_of(table).startswith(rows_of(public))
    assert 'class="pending"' in rows_of(table) and "waiting for confirmation" in rows_of(table)
    assert '<tbody id="sheet-body">' in sheet_of(table)
    # The organiser's: each confirmed hand's number links to its correction.
    assert '<a href="?hand=2#correct" aria-label="Correct hand 2">2</a>' in rows_of(organisers)
    assert rows_of(organisers).count("?hand=") == 2
    assert "?hand=" not in rows_of(club_page)


def test_the_pdf_prints_the_same_rows_with_each_sides_change_and_total(
    played_table: Setup, settings: pytest.FixtureRequest, tmp_path: Path
) -> None:
    settings.MEDIA_ROOT = str(tmp_path)  # type: ignore[attr-defined]
    job = ask(played_table.event, "score_sheet", game=played_table.game)
    html = render.html_for(job)
    rows = rows_of(html)
    assert HAND_ONE in rows and HAND_TWO in rows
    assert "waiting for confirmation" not in rows  # counted hands only
    assert "data-score-sheet" in html and "N–S total" in sheet_of(html)
    lines = {line.split()[0]: line.split() for line in pdf_text(job).splitlines() if line}
    assert lines["1"][-4:] == ["+20", "20", "+0", "0"]
    assert lines["2"][-4:] == ["+9", "29", "\u22129", "\u22129"]
    assert "8 NT" in " ".join(lines["1"]) and "set" in lines["2"]
