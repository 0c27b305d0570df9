"""Entries from a CSV file: a preview with a message per bad row, and nothing imported while any
row is wrong.

Teams: a header row with ``player_one`` and ``player_two`` (and, optionally, ``team``, ``seed``,
``rating``, ``club``). Progressive events: ``player`` (and ``seed``, ``rating``, ``club``).
A player is found by name (a member of the event's club first) or created.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models.functions import Lower

from kaiser_club.errors import InvalidInput
from kaiser_club.models import Club, Player
from kaiser_club.spreadsheet import check_csv_size
from kaiser_club.text import clean_text
from scoring.models import Team
from scoring.scope import players_open_to

from .. import limits
from ..models import Entry, Event
from .entries import entry_register_player, entry_register_team

MAX_ROWS = 2000
MAX_BYTES = 1_000_000  # two thousand entries of long names fit in a fifth of it
PLAYER_NAME_MAX = Player._meta.get_field("name").max_length or 120
TEAM_NAME_MAX = min(
    Entry._meta.get_field("name").max_length or 160, Team._meta.get_field("name").max_length or 160
)


@dataclass
class ImportRow:
    line: int
    values: dict[str, str]
    errors: list[str] = field(default_factory=list)
    new_players: list[str] = field(default_factory=list)
    seed: int | None = None
    rating: float | None = None
    club: Club | None = None
    players: list[Player | None] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "values": self.values,
            "errors": self.errors,
            "new_players": self.new_players,
        }


@dataclass
class ImportResult:
    rows: list[ImportRow]
    created: list[Entry] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.rows) and not any(row.errors for row in self.rows)

    @property
    def error_count(self) -> int:
        return sum(1 for row in self.rows if row.errors)


def _reader(text: str) -> csv.DictReader[str]:
    first = text.lstrip("\ufeff").splitlines()[0] if text.strip() else ""
    delimiter = ";" if first.count(";") > first.count(",") else ","
    return csv.DictReader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter)


def _rows_of(reader: csv.DictReader[str]) -> Iterator[dict[str | Any, str | Any]]:
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error:
            raise InvalidInput(
                f"Line {reader.line_num + 1} of the file could not be read: a field is far longer "
                "than any name (or a quote is not closed). Check that line, then import again."
            ) from None


def parse(*, event: Event, text: str) -> ImportResult:
    """Reads and checks every row without writing anything."""
    if not text.strip():
        raise InvalidInput("The file is empty.")
    reader = _reader(text)
    columns = [c.strip().lower() for c in (reader.fieldnames or [])]
    needed = ["player"] if event.individual else ["player_one", "player_two"]
    missing = [c for c in needed if c not in columns]
    if missing:
        raise InvalidInput(
            f"The first row must name the columns; missing: {', '.join(missing)}. "
            f"Columns read: {', '.join(columns) or 'none'}."
        )
    rows: list[ImportRow] = []
    for raw in _rows_of(reader):
        values = {
            (k or "").strip().lower(): clean_text(v or "")
            for k, v in raw.items()
            if isinstance(v, str) or v is None
        }
        if not any(values.values()):
            continue
        rows.append(ImportRow(line=reader.line_num, values=values))
        if len(rows) > MAX_ROWS:
            raise InvalidInput(f"A file may hold at most {MAX_ROWS} entries.")
    if not rows:
        raise InvalidInput("The file has a header row but no entries.")
    _check_rows(event, rows, needed)
    return ImportResult(rows=rows)


def _check_rows(event: Event, rows: list[ImportRow], needed: list[str]) -> None:
    names = {r.values.get(c, "").lower() for r in rows for c in needed} - {""}
    found: dict[str, list[Player]] = {}
    members = set(event.club.memberships.values_list("player_id", flat=True))
    # Only the players the club knows: a name never picks another club's player.
    known = players_open_to(club_id=event.club_id)
    for player in known.annotate(key=Lower("name")).filter(key__in=names):
        found.setdefault(player.name.lower(), []).append(player)
    clubs = {c.slug: c for c in Club.objects.all()} | {
        c.name.lower(): c for c in Club.objects.all()
    }
    entered = _entered_players(event)
    taken_seeds = dict(
        Entry.objects.filter(event=event, seed__isnull=False).values_list("seed", "name")
    )
    seen_players: dict[str, int] = {}
    seen_seeds: dict[int, int] = {}
    for row in rows:
        for column in needed:
            name = row.values.get(column, "")
            if not name:
                row.errors.append(f"{column.replace('_', ' ')} is empty.")
                row.players.append(None)
                continue
            if len(name) > PLAYER_NAME_MAX:
                row.errors.append(
                    f"A player's name has at most {PLAYER_NAME_MAX} characters; "
                    f"the {column.replace('_', ' ')} has {len(name)}."
                )
                row.players.append(None)
                continue
            key = name.lower()
            if seen_players.get(key) == row.line:
                row.errors.append(f"A team needs two different players; {name} is named twice.")
            elif key in seen_players:
                row.errors.append(f"{name} is also on line {seen_players[key]}.")
            seen_players.setdefault(key, row.line)
            candidates = found.get(key, [])
            local = [p for p in candidates if p.id in members]
            chosen = local if len(local) == 1 else candidates
            if len(chosen) > 1:
                row.errors.append(
                    f"More than one player is called {name}; register this entry by hand."
                )
                row.players.append(None)
            elif chosen:
                row.players.append(chosen[0])
                if chosen[0].id in entered:
                    row.errors.append(f"{name} is already entered ({entered[chosen[0].id]}).")
            else:
                row.players.append(None)
                row.new_players.append(name)
        team = row.values.get("team", "")
        if len(team) > TEAM_NAME_MAX:
            row.errors.append(
                f"A team's name has at most {TEAM_NAME_MAX} characters; this one has {len(team)}."
            )
        seed = row.values.get("seed", "")
        if seed:
            if not seed.isdigit() or not limits.SEED[0] <= int(seed) <= limits.SEED[1]:
                row.errors.append(
                    f"Seed {seed[:20]!r} is not a whole number from {limits.SEED[0]} "
                    f"to {limits.SEED[1]}."
                )
            else:
                row.seed = int(seed)
                if row.seed in seen_seeds:
                    row.errors.append(f"Seed {seed} is also on line {seen_seeds[row.seed]}.")
                elif row.seed in taken_seeds:
                    row.errors.append(f"Seed {seed} is already {taken_seeds[row.seed]}'s.")
                seen_seeds.setdefault(row.seed, row.line)
        rating = row.values.get("rating", "")
        if rating:
            try:
                value = float(rating)
            except ValueError:
                value = math.nan
            low, high = limits.RATING
            if math.isfinite(value) and low <= value <= high:
                row.rating = value
            else:
                row.errors.append(
                    f"Rating {rating[:20]!r} is not a number from {low:g} to {high:g}."
                )
        club = row.values.get("club", "")
        if club:
            row.club = clubs.get(club.lower())
            if row.club is None:
                row.errors.append(f"There is no club called {club!r}.")


def _entered_players(event: Event) -> dict[int, str]:
    entered: dict[int, str] = {}
    for name, player, one, two in (
        Entry.objects.filter(event=event)
        .exclude(status="withdrawn")
        .values_list("name", "player_id", "team__player_one_id", "team__player_two_id")
    ):
        for pid in (player, one, two):
            if pid:
                entered[pid] = name
    return entered


@transaction.atomic
def entries_import(*, event: Event, text: str) -> ImportResult:
    """Imports every row, or none: a file with any bad row is refused with the messages."""
    result = parse(event=event, text=text)
    if not result.ok:
        raise InvalidInput(
            f"{result.error_count} row{'s have' if result.error_count != 1 else ' has'} "
            "problems, so nothing was imported. Fix the file and try again.",
            extra={"rows": [r.as_dict() for r in result.rows if r.errors]},
        )
    for row in result.rows:
        players = [
            p or Player.objects.create(name=row.values[c], host_club=event.club)
            for p, c in zip(
                row.players,
                ["player"] if event.individual else ["player_one", "player_two"],
                strict=True,
            )
        ]
        if event.individual:
            entry = entry_register_player(
                event=event, player=players[0], seed=row.seed, rating=row.rating, club=row.club
            )
        else:
            entry = entry_register_team(
                event=event,
                player_one=players[0],
                player_two=players[1],
                name=row.values.get("team", ""),
                seed=row.seed,
                rating=row.rating,
                club=row.club,
            )
        result.created.append(entry)
    return result


def check_size(text: str) -> None:
    """Refuses a file bigger than one import takes, before ``parse`` or ``entries_import``
    (and its transaction) reads it: both doors call this first."""
    check_csv_size(text, max_bytes=MAX_BYTES, max_rows=MAX_ROWS, rows_are="entries")
