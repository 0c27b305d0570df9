"""Entries from a CSV file: a preview with a message per bad row, and nothing imported while any
row is wrong.

Teams: a header row with ``player_one`` and ``player_two`` (and, optionally, ``team``, ``seed``,
``rating``, ``club``). Progressive events: ``player`` (and ``seed``, ``rating``, ``club``).
A player is the one record of that name the event's club knows (members, former members,
visitors, players of its partnerships; ``kaiser_club.people``), else a new visitor record. A
name more than one record could be is refused with the candidates' ids: the optional columns
``player_one_id``, ``player_two_id`` (``player_id``) say which record, or ``new`` for another
person.

The preview and the import are an organiser's: both take the actor and refuse anyone else before
reading the file against the club's players.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput
from kaiser_club.models import Club, Player
from kaiser_club.people import Pool, facts_of, name_key, parse_choice
from kaiser_club.request_limits import whole_number_text
from kaiser_club.sentences import N_, Np_, render
from kaiser_club.spreadsheet import check_csv_size
from kaiser_club.text import clean_text
from scoring.models import Team
from scoring.scope import not_known, players_open_to
from scoring.services.teams import TEAM_NAME_TOO_LONG

from .. import limits
from ..models import Entry, Event
from .entries import entry_register_player_unchecked, entry_register_team_unchecked
from .organisers import require_organiser

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
    # newline="": the csv module splits the lines itself, so a file whose lines end in a lone
    # carriage return (an old Mac's, or one pasted from one) reads as rows, not as one field.
    return csv.DictReader(io.StringIO(text.lstrip("\ufeff"), newline=""), delimiter=delimiter)


def _unreadable(reader: csv.DictReader[str]) -> InvalidInput:
    """The line the reader could not finish: the one after the lines it read."""
    return InvalidInput(
        N_(
            "Line %(line)s of the file could not be read: a field is far longer than any "
            "name (or a quote is not closed). Check that line, then import again.",
            line=reader.line_num + 1,
        )
    )


def _rows_of(reader: csv.DictReader[str]) -> Iterator[dict[str | Any, str | Any]]:
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error:
            raise _unreadable(reader) from None


def entries_preview(*, actor: Actor, event: Event, text: str) -> ImportResult:
    """Every row and its problems, for the organiser to see before importing."""
    require_organiser(actor, event)
    return parse(event=event, text=text)


def parse(*, event: Event, text: str) -> ImportResult:
    """Reads and checks every row without writing anything."""
    if not text.strip():
        raise InvalidInput(N_("The file is empty."))
    reader = _reader(text)
    try:
        header = reader.fieldnames or []
    except csv.Error:
        raise _unreadable(reader) from None
    columns = [c.strip().lower() for c in header]
    needed = ["player"] if event.individual else ["player_one", "player_two"]
    missing = [c for c in needed if c not in columns]
    if missing:
        raise InvalidInput(
            N_(
                "The first row must name the columns; missing: %(missing)s. "
                "Columns read: %(columns)s.",
                missing=", ".join(missing),
                columns=", ".join(columns) or N_("none"),
            )
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
            raise InvalidInput(N_("A file may hold at most %(most)s entries.", most=MAX_ROWS))
    if not rows:
        raise InvalidInput(N_("The file has a header row but no entries."))
    _check_rows(event, rows, needed)
    return ImportResult(rows=rows)


def _check_rows(event: Event, rows: list[ImportRow], needed: list[str]) -> None:
    # Only the players the club knows: a name never picks another club's player.
    pool = Pool(players_open_to(club_id=event.club_id))
    clubs = {c.slug: c for c in Club.objects.all()} | {
        c.name.lower(): c for c in Club.objects.all()
    }
    entered = _entered_players(event)
    taken_seeds = dict(
        Entry.objects.filter(event=event, seed__isnull=False).values_list("seed", "name")
    )
    seen_players: dict[str, int] = {}
    seen_records: dict[int, int] = {}
    seen_seeds: dict[int, int] = {}
    for row in rows:
        for column in needed:
            name = row.values.get(column, "")
            if not name:
                row.errors.append(gettext("No name for %(who)s.") % {"who": _who(column)})
                row.players.append(None)
                continue
            if len(name) > PLAYER_NAME_MAX:
                row.errors.append(
                    gettext("A player's name has at most %(max)s characters; %(who)s has %(n)s.")
                    % {"max": PLAYER_NAME_MAX, "who": _who(column), "n": len(name)}
                )
                row.players.append(None)
                continue
            key = name_key(name)
            if seen_players.get(key) == row.line:
                row.errors.append(
                    gettext("A team needs two different players; %(name)s is named twice.")
                    % {"name": name}
                )
            try:
                choice = parse_choice(row.values.get(f"{column}_id", ""))
            except InvalidInput as exc:
                row.errors.append(exc.message)
                row.players.append(None)
                continue
            if isinstance(choice, int) and pool.by_id(choice) is None:
                row.errors.append(not_known(club=event.club, player_id=choice).message)
                row.players.append(None)
                continue
            match = pool.match(name=name, choice=choice)
            earlier = seen_players.get(key, row.line)
            if match.player is None and choice is None and earlier != row.line:
                row.errors.append(
                    gettext("%(name)s is also on line %(line)s.") % {"name": name, "line": earlier}
                )
            seen_players.setdefault(key, row.line)
            if match.ambiguous:
                facts = facts_of(match.candidates, club=event.club)
                listed = "; ".join(f"{p.name} ({facts[p.id].summary()})" for p in match.candidates)
                row.errors.append(
                    gettext(
                        "More than one player could be %(name)s: %(list)s. Write the right one's "
                        "id in a %(column)s_id column, or new for another person."
                    )
                    % {"name": name, "list": listed, "column": column}
                )
                row.players.append(None)
            elif match.player is not None:
                found = match.player
                row.players.append(found)
                if found.id in seen_records and seen_records[found.id] != row.line:
                    row.errors.append(
                        gettext("%(name)s is also on line %(line)s.")
                        % {"name": name, "line": seen_records[found.id]}
                    )
                seen_records.setdefault(found.id, row.line)
                if found.id in entered:
                    row.errors.append(
                        gettext("%(name)s is already entered (%(entry)s).")
                        % {"name": name, "entry": entered[found.id]}
                    )
            else:
                row.players.append(None)
                row.new_players.append(name)
        team = row.values.get("team", "")
        if len(team) > TEAM_NAME_MAX:
            # The sentence the entries and teams services refuse a long name with.
            too_long = TEAM_NAME_TOO_LONG.with_params(limit=TEAM_NAME_MAX, length=len(team))
            row.errors.append(render(too_long))
        seed = row.values.get("seed", "")
        if seed:
            number = whole_number_text(seed, limits.SEED[1])
            if number is None or number < limits.SEED[0]:
                row.errors.append(
                    gettext("Seed '%(seed)s' is not a whole number from %(low)s to %(high)s.")
                    % {"seed": seed[:20], "low": limits.SEED[0], "high": limits.SEED[1]}
                )
            else:
                row.seed = number
                if row.seed in seen_seeds:
                    row.errors.append(
                        gettext("Seed %(seed)s is also on line %(line)s.")
                        % {"seed": seed, "line": seen_seeds[row.seed]}
                    )
                elif row.seed in taken_seeds:
                    row.errors.append(
                        gettext("Seed %(seed)s is already %(name)s's.")
                        % {"seed": seed, "name": taken_seeds[row.seed]}
                    )
                seen_seeds.setdefault(row.seed, row.line)
        rating = row.values.get("rating", "")
        if rating:
            try:  # ASCII only: float() would read "١٢" as 12
                value = float(rating) if rating.isascii() else math.nan
            except ValueError:
                value = math.nan
            low, high = limits.RATING
            if math.isfinite(value) and low <= value <= high:
                row.rating = value
            else:
                row.errors.append(
                    gettext("Rating '%(rating)s' is not a number from %(low)s to %(high)s.")
                    % {"rating": rating[:20], "low": f"{low:g}", "high": f"{high:g}"}
                )
        club = row.values.get("club", "")
        if club:
            row.club = clubs.get(club.lower())
            if row.club is None:
                row.errors.append(gettext("There is no club called '%(club)s'.") % {"club": club})


def _who(column: str) -> str:
    """A CSV column's player in words: "the first player", never "player one"."""
    return {
        "player_one": gettext("the first player"),
        "player_two": gettext("the second player"),
    }.get(column, gettext("the player"))


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
def entries_import(*, actor: Actor, event: Event, text: str) -> ImportResult:
    """Imports every row, or none: a file with any bad row is refused with the messages."""
    require_organiser(actor, event)
    result = parse(event=event, text=text)
    if not result.ok:
        raise InvalidInput(
            Np_(
                "%(count)s row has problems, so nothing was imported. Fix the file and try again.",
                "%(count)s rows have problems, so nothing was imported. Fix the file and try "
                "again.",
                count=result.error_count,
            ),
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
            entry = entry_register_player_unchecked(
                event=event, player=players[0], seed=row.seed, rating=row.rating, club=row.club
            )
        else:
            entry = entry_register_team_unchecked(
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
    check_csv_size(
        text,
        max_bytes=MAX_BYTES,
        max_rows=MAX_ROWS,
        too_many_rows=N_(
            "The file has %(rows)s entries; at most %(max_rows)s can be imported at once: split it."
        ),
    )
