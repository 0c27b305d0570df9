"""The marks of a standings row (a win on time, a withdrawn team, its byes) are said in the
same words on the public standings page and in the standings PDF, each with a legend under
the table that says what it means; a mark that does not appear has no legend."""

from __future__ import annotations

import dataclasses
from html import unescape

import pytest
from django.test import Client, TestCase
from django.utils import timezone
from django.utils.translation import override

from scoring import services as scoring
from scoring.rules import Side
from tournaments.models import Entry, Event, Pairing
from tournaments.public import marks
from tournaments.reports.selectors import standings_data
from tournaments.standings.rows import StandingsRow

from ..helpers import generate, make_event
from ..reports.helpers import ask, pdf_text
from .world import hand, record

pytestmark = pytest.mark.django_db

ON_TIME = "* Won on time: time was called and the higher score won."
WITHDRAWN = "Withdrawn: no longer paired; the games it played stand."
BYE = "A bye counts as a win, with the round's average winning and losing scores"


def _three_teams_a_bye_a_win_on_time_and_a_withdrawal() -> tuple[Event, Pairing]:
    event = make_event(teams=3, format="swiss", rounds=2)
    Event.objects.filter(id=event.id).update(public_pages=True)
    generate(event)
    played = Pairing.objects.select_related("game").get(event=event, game__isnull=False)
    assert played.game is not None
    record(played.game, hand(Side.NS, bid=8, tricks=8))
    with TestCase.captureOnCommitCallbacks(execute=True):
        scoring.game_call_time(game_id=played.game.id)
    record(played.game, dataclasses.replace(hand(Side.EW), completed_at=timezone.now()))
    assert played.away_id is not None
    Entry.objects.filter(id=played.away_id).update(status="withdrawn")
    return event, played


def test_the_words_of_each_mark_and_the_legend_only_for_marks_that_appear() -> None:
    plain = StandingsRow(id=1, name="Ann et Bob")
    marked = StandingsRow(id=2, name="Cy et Dot", withdrawn=True, byes=2, wins_on_time=1)
    assert (marks.name_note(plain), marks.wins_mark(plain), marks.legend([plain])) == ("", "", [])
    assert marks.name_note(marked) == "(withdrawn, 2 byes)"
    assert marks.wins_mark(marked) == "*"
    said = marks.legend([plain, marked])
    assert said[0] == WITHDRAWN and said[1].startswith(BYE) and said[2] == ON_TIME
    with override("fr"):
        assert marks.name_note(marked) == "(retirée, 2 exemptions)"
        assert marks.legend([marked])[2].startswith("* Gagnée au temps")


def test_the_page_and_the_pdf_mark_the_same_rows_with_the_same_words() -> None:
    event, played = _three_teams_a_bye_a_win_on_time_and_a_withdrawal()
    winner, withdrawn = played.home, played.away
    assert winner is not None and withdrawn is not None
    bye_team = Entry.objects.exclude(id__in=[winner.id, withdrawn.id]).get(event=event)

    page = unescape(Client().get(f"/e/{event.id}/standings/").content.decode())
    assert f'{withdrawn.name}</a> <small class="muted">(withdrawn)</small>' in page
    assert f'{bye_team.name}</a> <small class="muted">(1 bye)</small>' in page
    assert '1<sup class="mark">*</sup>' in page
    for sentence in (WITHDRAWN, BYE, ON_TIME):
        assert sentence in page  # in the legend, not only on hover

    data = standings_data(event=event)
    notes = {row["name"]: (row["note"], row["wins_mark"]) for row in data["sections"][0].rows}
    assert notes[withdrawn.name] == ("(withdrawn)", "")
    assert notes[bye_team.name] == ("(1 bye)", "")
    assert notes[winner.name] == ("", "*")
    text = " ".join(pdf_text(ask(event, "standings")).split())
    assert f"{withdrawn.name} (withdrawn)" in text and f"{bye_team.name} (1 bye)" in text
    for sentence in (WITHDRAWN, BYE, ON_TIME):
        assert sentence in text
