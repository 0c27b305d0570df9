"""The one CSV writer of the app: every export (the public standings, a club's members) writes
its cells here, so none of them can hand a spreadsheet a formula.

A cell that starts with ``=``, ``+``, ``-`` or ``@`` (or a tab or a line break before one) is a
formula to Excel, LibreOffice and Google Sheets: a team named ``=HYPERLINK(...)`` or
``+cmd|' /C calc'!A0`` would run on the organiser's computer. Such a cell is written after an
apostrophe, which spreadsheets show as text and ``from_cell`` (the members import) takes off
again. Numbers such as ``-12`` or ``+3.5`` stay numbers.

A cell is quoted when it holds a quote, a line break, or any separator a spreadsheet may split
on: Excel in French splits on ``;``, so ``Aces;=1+1`` unquoted would become a cell of its own,
starting with ``=``. Lines end with CRLF, as RFC 4180 and spreadsheets expect.

``check_csv_size`` is the other direction: a CSV file to import, refused with a sentence when it
is bigger than its import takes, before the import reads it into the database.
"""

from __future__ import annotations

import csv
import decimal
import io
import re
from collections.abc import Iterable
from typing import Any, Protocol

from kaiser_club.sentences import N_, Sentence, grouped

from .errors import InvalidInput

# ASCII and their full-width forms, which some spreadsheets also read as formula signs.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "＝", "＋", "－", "＠")
QUOTE_WHEN = re.compile(r'[",;\t\r\n|]|^\s|\s$')
NUMBER = re.compile(r"^[+-]?(\d+([.,]\d+)?|[.,]\d+)([eE][+-]?\d+)?%?$")
LINE_END = "\r\n"


class Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def _guarded(text: str) -> bool:
    """Whether ``text`` must be written after an apostrophe: a formula, or text that already
    starts with the apostrophe of one (so that reading it back gives the same text)."""
    if text.startswith(FORMULA_STARTS):
        return not NUMBER.match(text)
    return text.startswith("'") and _guarded(text[1:])


def cell(value: Any) -> str:
    """The text of one cell: None is empty, numbers as Python writes them, text with an
    apostrophe before anything a spreadsheet would run."""
    if value is None:
        return ""
    if isinstance(value, int | float | decimal.Decimal):
        return str(value)
    text = str(value)
    return f"'{text}" if _guarded(text) else text


def from_cell(text: str) -> str:
    """What ``cell`` was given, from a cell it wrote (imports read exports back with this)."""
    if text.startswith("'") and _guarded(text[1:]):
        return text[1:]
    return text


def _quoted(text: str) -> str:
    if QUOTE_WHEN.search(text):
        return '"' + text.replace('"', '""') + '"'
    return text


def line(values: Iterable[Any]) -> str:
    """One CSV line, its cells made safe and quoted where needed, with its line end."""
    return ",".join(_quoted(cell(value)) for value in values) + LINE_END


class CsvWriter:
    """``csv.writer``'s two methods, writing safe cells to ``out`` (a file, an HttpResponse)."""

    def __init__(self, out: Writable) -> None:
        self.out = out

    def writerow(self, values: Iterable[Any]) -> None:
        self.out.write(line(values))

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for values in rows:
            self.writerow(values)


def csv_text(rows: Iterable[Iterable[Any]]) -> str:
    out = io.StringIO()
    CsvWriter(out).writerows(rows)
    return out.getvalue()


def check_csv_size(text: str, *, max_bytes: int, max_rows: int, too_many_rows: Sentence) -> None:
    """Refuses a CSV file of more than ``max_bytes`` (as UTF-8) or more than ``max_rows`` rows
    after its header. ``too_many_rows`` says so in the import's own words, a whole sentence
    with the parameters ``rows`` and ``max_rows`` (a translation agrees its words with what a
    row is, which a noun slotted into a shared sentence cannot). A file that is not CSV is left
    to its import, which says where."""
    size = len(text.encode("utf-8", errors="replace"))
    if size > max_bytes:
        raise InvalidInput(
            N_(
                "The file has %(size)s bytes; at most %(max_bytes)s can be imported at once: split "
                "it.",
                size=grouped(size),
                max_bytes=grouped(max_bytes),
            )
        )
    rows = -1  # the header
    try:
        for values in csv.reader(io.StringIO(text.lstrip("\ufeff"))):
            if any(value.strip() for value in values):
                rows += 1
    except csv.Error:
        return
    if rows > max_rows:
        raise InvalidInput(
            too_many_rows.with_params(rows=grouped(rows), max_rows=grouped(max_rows))
        )
