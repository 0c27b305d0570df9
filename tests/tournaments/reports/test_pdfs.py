"""Each PDF's text, read back with pypdf: what the organiser prints is what the event holds."""

from __future__ import annotations

import base64
import re

import pytest

from tests.tournaments.helpers import generate, make_event, staff_actor, win_for
from tournaments.models import Pairing, Round, Table
from tournaments.qr import qr_svg
from tournaments.reports import render
from tournaments.services.tables import display_code

from .helpers import ask, page_count, pdf_text, swiss_after_round_one, three_hands

pytestmark = pytest.mark.django_db


def positions(text: str, names: list[str]) -> list[int]:
    found = []
    for name in names:
        match = re.search(rf"\b{re.escape(name)}\b", text)
        assert match, f"{name!r} is not in the PDF"
        found.append(match.start())
    return found


def test_standings_pdf_lists_the_teams_in_order() -> None:
    event, pairings = swiss_after_round_one(4)
    homes = [p.home for p in pairings if p.home is not None]
    aways = [p.away for p in pairings if p.away is not None]
    # Default order: wins, then point difference (equal here: every win is 60–0), then seed.
    expected = [e.name for e in sorted(homes, key=lambda e: e.seed or 0)]
    expected += [e.name for e in sorted(aways, key=lambda e: e.seed or 0)]
    text = pdf_text(ask(event, "standings"))
    assert "Standings" in text and event.name in text
    spots = positions(text, expected)
    assert spots == sorted(spots), f"order in the PDF differs from {expected}"
    assert "+60" in text and "\u221260" in text


def test_score_sheet_pdf_shows_every_hand_and_the_running_scores() -> None:
    event = make_event(teams=2, format="swiss", rounds=1)
    generate(event)
    pairing = Pairing.objects.get(event=event, game__isnull=False)
    assert pairing.game is not None
    three_hands(pairing.game)
    job = ask(event, "score_sheet", game=pairing.game)
    text = pdf_text(job)
    lines = [line.split() for line in text.splitlines()]
    # hand number, dealer, bidder, contract …, then N–S change, total, E–W change, total
    hand_rows = {cells[0]: cells for cells in lines if cells and cells[0] in {"1", "2", "3"}}
    assert hand_rows["1"][-4:] == ["+10", "10", "+0", "0"]
    assert hand_rows["2"][-4:] == ["+8", "18", "\u22128", "\u22128"]
    assert hand_rows["3"][-4:] == ["+24", "42", "\u22122", "\u221210"]
    assert "9 NT" in text
    assert "N–S 42" in text and "E–W -10" in text
    for name in ("T1a", "T1b", "T2a", "T2b"):
        assert name in text


def test_round_tables_pdf_lists_each_table_with_its_teams() -> None:
    event = make_event(teams=6, format="swiss")
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    job = ask(event, "round_tables", round_=round_)
    text = pdf_text(job)
    assert "Round 1: tables" in text
    for p in Pairing.objects.filter(round=round_).select_related("home", "away", "table"):
        assert p.home is not None and p.away is not None and p.table is not None
        line = next(line for line in text.splitlines() if p.home.name in line)
        assert line.split()[0] == str(p.table.number)
        assert p.away.name in line


def test_bracket_pdf_draws_every_match_with_its_feeds() -> None:
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    first = list(
        Pairing.objects.filter(event=event, round__number=1).select_related("home", "away")
    )
    assert len(first) == 2
    win_for(first[0], first[0].home)  # type: ignore[arg-type]
    text = pdf_text(ask(event, "bracket"))
    for name in ("Team 1", "Team 2", "Team 3", "Team 4"):
        assert name in text
    # every match by the name players give it, never its code (W1-1, W2-1)
    for name in ("Semi-final 1", "Semi-final 2", "Final"):
        assert name in text
    assert "W1-1" not in text and "W2-1" not in text
    # the final: the first semi-final's winner is known, the other still a feed
    assert f"Winner of Semi-final {first[1].code.split('-')[1]}" in text
    assert "60" in text


def test_blank_sheet_has_the_players_seats_rules_and_empty_rows() -> None:
    event = make_event(teams=2, format="swiss", rounds=1)
    generate(event)
    pairing = Pairing.objects.select_related("game__north", "game__east").get(
        event=event, game__isnull=False
    )
    game = pairing.game
    assert game is not None
    job = ask(event, "blank_sheets", game=game)
    text = pdf_text(job)
    assert page_count(job) == 1
    assert "Paper score sheet" in text
    for seat, player in zip(
        ("North", "East", "South", "West"),
        (game.north, game.east, game.south, game.west),
        strict=True,
    ):
        assert seat in text and player.name in text
    # the tournament preset (club sheet): to 52, bids 7–12, bid-out at 47, 60 minutes
    assert "Game to 52; bids 7 to 12." in text
    assert "Bid-out at 47" in text
    assert "60 minutes" in text
    numbers = [line.strip() for line in text.splitlines()]
    assert "22" in numbers and "23" not in numbers  # 22 empty rows


def test_blank_sheets_of_a_round_make_one_page_per_table() -> None:
    event = make_event(teams=6, format="swiss")
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    job = ask(event, "blank_sheets", round_=round_)
    assert page_count(job) == 3
    assert job.subject == "round-1"


def test_table_cards_carry_each_tables_code_and_qr_link() -> None:
    event = make_event(teams=4, format="swiss")
    generate(event)
    job = ask(event, "table_cards", base_url="http://hall.local:8000/")
    text = pdf_text(job)
    tables = list(Table.objects.filter(event=event).order_by("number"))
    assert page_count(job) == len(tables) == 2
    flat = text.replace("\n", " ")
    for t in tables:
        assert t.code is not None
        assert f"Table {t.number}" in flat
        assert display_code(t.code) in flat
    # the QR code given to WeasyPrint encodes the table's own link
    html = render.html_for(job)
    for t in tables:
        svg = qr_svg(f"http://hall.local:8000/t/{t.code}/", scale=10)
        assert base64.b64encode(svg.encode()).decode() in html


def test_a_revoked_table_card_says_so_instead_of_a_dead_code() -> None:
    from tournaments.services import table_revoke

    event = make_event(teams=2, format="swiss", rounds=1)
    generate(event)
    table = table_revoke(actor=staff_actor(), table=Table.objects.get(event=event, number=1))
    text = pdf_text(ask(event, "table_cards", table=table))
    assert "revoked" in text


def test_a_report_in_french_when_the_organiser_asked_in_french() -> None:
    event, _ = swiss_after_round_one(2)
    job = ask(event, "standings", language="fr")
    text = pdf_text(job)
    assert "28 novembre 2026" in text  # the event's date, in the organiser's language
    assert "28 November 2026" in pdf_text(ask(event, "round_tables", round_=event.round_set.get()))


def test_the_html_loads_nothing_from_outside() -> None:
    event, _ = swiss_after_round_one(2)
    job = ask(event, "standings")
    html = render.html_for(job)
    assert "http://" not in html and "https://" not in html and "<link" not in html
    with pytest.raises(ValueError, match="disallowed protocol"):
        render.local_only_fetcher().fetch("http://example.com/font.woff")
