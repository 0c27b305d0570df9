"""Events played to their end through the services, and their placings read back from every
surface: the API, the organiser's event page, the public standings, event home, bracket and
projector, the standings PDF (its text, through pypdf) and the CSV.

``play_to_the_end`` decides each game at random: most are played (hands recorded until one
side reaches the target), some are forfeited, some get an adjusted result; now and then a
team withdraws mid-event (its open games are forfeited, as the organiser's page does).
"""

from __future__ import annotations

import csv
import io
import random
import re
import tempfile
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.test import Client, TestCase, override_settings

from kaiser_club.errors import Conflict
from kaiser_club.roles import Role
from scoring.rules import Side
from tests.factories import member
from tournaments import services
from tournaments.choices import EntryStatus, EventStatus, ResultKind
from tournaments.models import Entry, Event, Pairing, Round

from .helpers import generate, win_game
from .reports.helpers import ask, pdf_text

Placings = list[tuple[str, str]]  # (place as printed, name), in order

ROUND_FORMATS = ("round_robin", "swiss", "pools", "progressive")


@dataclass
class Play:
    """Random but legal play. ``forfeits``, ``adjusted``: the share of games decided that way;
    ``withdrawals``: how many teams may withdraw mid-event."""

    rnd: random.Random
    forfeits: float = 0.1
    adjusted: float = 0.1
    withdrawals: int = 0
    withdraw_chance: float = 0.05
    keep: int = 2  # entries that never withdraw (a field must stay playable)
    log: list[str] = field(default_factory=list)

    def decide(self, row: Pairing) -> None:
        roll = self.rnd.random()
        if roll < self.forfeits:
            side = self.rnd.choice(["home", "away"])
            services.pairing_forfeit_unchecked(pairing=row, forfeiting=side, reason="Did not come")
            self.log.append(f"{row.code or row.id}: {side} forfeits")
        elif roll < self.forfeits + self.adjusted:
            # Played, then the organiser corrects the score sheet: perhaps another winner
            # (a bracket then takes back the next game the first winner was sent to).
            self.play(row)
            winner = self.rnd.choice(["home", "away"])
            high, low = self.rnd.randint(52, 70), self.rnd.randint(-20, 51)
            home, away = (high, low) if winner == "home" else (low, high)
            try:
                services.pairing_adjust_unchecked(
                    pairing=row,
                    winner=winner,
                    home_points=home,
                    away_points=away,
                    reason="Score sheet corrected",
                )
            except Conflict:
                # The winner already played on (a withdrawn opponent's game was forfeited at
                # once): the organiser is told to roll that game back first; the result stands.
                self.log.append(f"{row.code or row.id}: adjustment refused, played on")
                return
            self.log.append(f"{row.code or row.id}: adjusted, {winner} wins")
        else:
            self.play(row)

    def play(self, row: Pairing) -> None:
        side = self.rnd.choice([Side.NS, Side.EW])
        assert row.game_id is not None
        win_game(row.game_id, side)
        self.log.append(f"{row.code or row.id}: {side} wins")

    def maybe_withdraw(self, event: Event) -> None:
        if not self.withdrawals or self.rnd.random() >= self.withdraw_chance:
            return
        active = list(
            Entry.objects.filter(event=event).exclude(status=EntryStatus.WITHDRAWN).order_by("id")
        )
        if len(active) <= self.keep:
            return
        entry = self.rnd.choice(active)
        with TestCase.captureOnCommitCallbacks(execute=True):
            services.entry_withdraw_unchecked(entry=entry, reason="Went home")
        self.withdrawals -= 1
        self.log.append(f"{entry.name} withdraws")


def open_rows(event: Event) -> list[Pairing]:
    return list(
        Pairing.objects.filter(
            event=event,
            result=ResultKind.PENDING,
            cancelled=False,
            home_team__isnull=False,
            away_team__isnull=False,
        ).order_by("round__number", "id")
    )


def play_open_games(event: Event, play: Play) -> None:
    """Decides every game that can be played, and those it opens (a bracket's next ones)."""
    while rows := open_rows(event):
        row = play.rnd.choice(rows)
        play.maybe_withdraw(event)
        row.refresh_from_db()
        if row.decided or row.cancelled:
            continue
        with TestCase.captureOnCommitCallbacks(execute=True):
            play.decide(row)


def play_to_the_end(event: Event, play: Play, *, limit: int = 200) -> None:
    """Generates and plays each round (or the bracket, then the knockout) until the event is
    finished; fails if a generation is refused on the way."""
    for _ in range(limit):
        event.refresh_from_db()
        if event.status == EventStatus.FINISHED:
            return
        if event.is_bracket and Round.objects.filter(event=event).exists():
            raise AssertionError(f"The bracket is played out but the event is {event.status}.")
        job = generate(event)
        assert job.status == "done", (job.error, play.log)
        for round_ in Round.objects.filter(event=event, status="ready"):
            if round_.pairings.filter(result=ResultKind.PENDING).exists():
                services.round_start_unchecked(round_=round_)
        play_open_games(event, play)
    raise AssertionError(f"Not finished after {limit} generations: {play.log}")


# --- the surfaces ---------------------------------------------------------------------------


def api_placings(event: Event) -> Placings:
    client = Client()
    client.force_login(member(event.club, Role.ORGANISER))
    answer = client.get(f"/api/events/{event.id}/standings/")
    assert answer.status_code == 200, answer.content
    return [(row["place_text"], row["name"]) for row in answer.json()]


class _Tables(HTMLParser):
    """Every table of a page: its class and its body rows' cell texts; and ordered lists."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[tuple[str, list[list[str]]]] = []
        self.lists: list[tuple[str, list[str]]] = []
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._in_body = False
        self._item: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        css = dict(attrs).get("class") or ""
        if tag == "table":
            self.tables.append((css, []))
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "ol":
            self.lists.append((css, []))
        elif tag == "li" and self.lists:
            self._item = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self.tables[-1][1].append(self._row)
            self._row = None
        elif tag == "tbody":
            self._in_body = False
        elif tag == "li" and self._item is not None:
            self.lists[-1][1].append(" ".join("".join(self._item).split()))
            self._item = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        if self._item is not None:
            self._item.append(data)


def parse(html: str) -> _Tables:
    found = _Tables()
    found.feed(html)
    return found


def _name(cell: str) -> str:
    """The team's name without the note after it ("(withdrawn, 1 bye)", tournaments/public/
    marks.py)."""
    return re.sub(r" \((withdrawn|\d+ byes?|withdrawn, \d+ byes?)\)$", "", cell)


def public_placings(event: Event) -> Placings:
    """The public standings page's placings: the final placings table of a bracket (or of
    pools once the knockout is drawn), else the standings table."""
    html = Client().get(f"/e/{event.id}/standings/").content.decode()
    tables = parse(html).tables
    for css, rows in tables:
        if "placings" in css.split():
            return [(r[0].replace("–", ""), _name(r[2])) for r in rows]
    css, rows = tables[-1]
    return [(r[0], _name(r[1])) for r in rows]


def organiser_placings(event: Event) -> Placings:
    client = Client()
    client.force_login(member(event.club, Role.ORGANISER))
    html = client.get(f"/events/{event.id}/").content.decode()
    rows = parse(html).tables[-1][1]
    return [(r[0].replace("–", ""), _name(r[1])) for r in rows]


def _box(html: str) -> Placings:
    found = [items for css, items in parse(html).lists if css == "leaders"]
    assert found, "no placings box"
    out = []
    for item in found[0]:
        place, _, rest = item.partition(" ")
        out.append((place, rest.split(" 0 win")[0].split(" 1 win")[0]))
    return out


def home_box(event: Event) -> list[str]:
    """The public event home's box: "5= Name …" lines."""
    html = Client().get(f"/e/{event.id}/").content.decode()
    found = [items for css, items in parse(html).lists if css == "leaders"]
    return found[0] if found else []


def bracket_box(event: Event) -> list[str]:
    html = Client().get(f"/e/{event.id}/bracket/").content.decode()
    found = [items for css, items in parse(html).lists if css == "leaders"]
    return found[0] if found else []


def projector_placings(event: Event) -> Placings:
    html = Client().get(f"/e/{event.id}/projector/?part=1").content.decode()
    rows = [r for css, body in parse(html).tables if "pj-standings" in css for r in body]
    return [(r[0].replace("–", ""), r[1]) for r in rows]


def csv_tables(event: Event) -> list[list[list[str]]]:
    """The CSV's tables: each a header line then its rows (tables are split at blank lines)."""
    text = Client().get(f"/e/{event.id}/standings.csv").content.decode()
    tables: list[list[list[str]]] = [[]]
    for line in csv.reader(io.StringIO(text)):
        if not line:
            tables.append([])
        else:
            tables[-1].append(line)
    return tables


def csv_placings(event: Event) -> Placings:
    last = csv_tables(event)[-1]
    header, body = last[0], last[1:]
    place, name = header.index("#"), header.index("Team" if "Team" in header else "Player")
    return [(row[place], row[name]) for row in body]


def pdf_standings_text(event: Event) -> str:
    with tempfile.TemporaryDirectory() as media, override_settings(MEDIA_ROOT=media):
        return " ".join(pdf_text(ask(event, "standings")).split())


def pdf_has(text: str, placings: Placings, *, after: str = "") -> bool:
    """Whether the PDF's text lists these placings in this order (after ``after``)."""
    at = text.index(after) if after else 0
    for place, name in placings:
        found = re.compile(rf"(?<!\S){re.escape(place or '–')} {re.escape(name)}(?= )").search(
            text, at
        )
        if found is None:
            return False
        at = found.end()
    return True
