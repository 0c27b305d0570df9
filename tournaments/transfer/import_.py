"""An exported event read back in, in one transaction: a file with anything wrong writes nothing.

Who may do what is decided here, once, from the importing user (the *actor*), so every door
(the API, the organiser's page, ``manage.py import_event``) gives the same answer:

- the actor needs the organiser role in the event's club; an event of a club that is not on
  this server needs staff (the club is created with the event);
- any other club missing here is created only for staff;
- a team is never made in a club where the actor is not an organiser: such a team becomes a
  team of the event's club (an entry keeps an existing club as its home club, as registration
  allows; a club not created here becomes the event's club);
- players are found before a record is made (``people.match_players``): by email among the
  records the clubs the actor organises know (staff: every record), then by name among the
  records the event's club knows; more than one candidate is the actor's choice (``choices``);
  otherwise a new player record is made. The preview lists who is matched to whom.

Every row treated otherwise than the file says gets an ``ImportNote`` (the row and why), which
the preview lists before anything is written and the import returns. Notes and refusals name
rows by the file's own refs, names and emails, never by another club's player records.

Before anything is written, the whole file is read and checked without a query
(``document.read``): every value against its column and the app's ranges, every reference,
every row that must be unique, every game's hands replayed through the rules engine (the
scores, winners and ends in the file are never read). A refusal names the file's row; should
the database still refuse a row, the answer names the file's rows that clash, never the
database's words. The season is found by its club and name. Tables get fresh codes.

The players' sign-ups are written as the file has them (their waiting list in its order), each
player with a new private link (``export`` says what stays behind). An import tells no one
anything (``outbox.receivers.quiet``): its rounds, a finished event and withdrawn entries are
the old server's news, told there already, and the waiting list is not moved on by it.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from kaiser_club.errors import NotAllowed
from kaiser_club.models import Club, Player
from kaiser_club.people import Choice
from kaiser_club.request_limits import nesting_depth_exceeds, too_deep_text
from kaiser_club.roles import Role
from kaiser_club.selectors import AnyUser, club_ids_with_role
from kaiser_club.sentences import N_, Said, stored
from scoring.models import Game, Hand, Team
from scoring.rows_and_rules import state_fields

from ..choices import ResultKind
from ..models import (
    Entry,
    Event,
    Pairing,
    Registrant,
    Registration,
    Round,
    Season,
    Substitution,
    Table,
)
from ..outbox.receivers import quiet
from ..services.entries import team_for
from ..services.results import outcome_of_game
from ..services.tables import new_code
from .document import (
    THE_FILE,
    Document,
    DocumentRow,
    check_header,
    event_club_slug,
    file_club_name,
    first_clash,
    need,
    read,
)
from .people import PersonMatch, match_players
from .values import ImportRefused

logger = logging.getLogger(__name__)

__all__ = ["ImportNote", "ImportPreview", "ImportRefused", "ImportResult"]


@dataclass(frozen=True)
class ImportNote:
    """A row of the file that the import treats otherwise than the file says, and why."""

    row: Said  # as the file names it: "Team 3 (Aces)", "Player jo@example.org", "Club regina"
    why: Said

    def __str__(self) -> str:
        return f"{self.row}: {self.why}"


@dataclass(frozen=True)
class ImportResult:
    """The new event, and the rows imported otherwise than the file says."""

    event: Event
    notes: list[ImportNote]
    people: list[PersonMatch] = field(default_factory=list)  # who was matched to whom


@dataclass(frozen=True)
class ImportPreview:
    """What importing the file would do, from a full import that was rolled back."""

    name: str
    club: str
    counts: dict[str, int]  # entries, rounds, games and hands the import would write
    notes: list[ImportNote]
    people: list[PersonMatch] = field(default_factory=list)  # who would be matched to whom

    def as_dict(self) -> dict[str, Any]:
        return {
            "dry_run": True,
            "name": self.name,
            "club": self.club,
            "counts": self.counts,
            "notes": [str(note) for note in self.notes],
            "people": [person.as_dict() for person in self.people],
        }


@dataclass
class _Scope:
    """Who imports and the clubs they organise, read once; the notes the import makes; the
    row of the file being written (for a sentence, should the database refuse it)."""

    actor: AnyUser | None
    organised: frozenset[int] | None  # None: every club (staff, or the server's operator)
    member_of: frozenset[int] | None = None  # clubs where the actor holds any role (None: all)
    notes: list[ImportNote] = field(default_factory=list)
    writing: Said = THE_FILE
    choices: Mapping[int, Choice] = field(default_factory=dict)  # file's player ref -> record
    people: list[PersonMatch] = field(default_factory=list)
    preview: bool = False
    data: Any = None  # the document as read (the people's pools look at its clubs)

    @classmethod
    def of(cls, actor: AnyUser | None, choices: Mapping[int, Choice] | None = None) -> _Scope:
        if actor is None:
            return cls(actor=None, organised=None, choices=choices or {})
        ids = club_ids_with_role(user=actor, at_least=Role.ORGANISER)
        organised = None if ids is None else frozenset(ids)
        seen = club_ids_with_role(user=actor, at_least=Role.PLAYER)
        member_of = None if seen is None else frozenset(seen)
        return cls(actor=actor, organised=organised, member_of=member_of, choices=choices or {})

    @property
    def everywhere(self) -> bool:
        return self.organised is None

    def organises(self, club: Club) -> bool:
        return self.organised is None or club.id in self.organised

    def sees(self, club: Club) -> bool:
        """Whether the actor is in the club (staff: every club): a club of the file the actor
        is not in is taken as one that is not on this server, and said alike."""
        return self.member_of is None or club.id in self.member_of

    def note(self, row: Said, why: Said) -> None:
        self.notes.append(ImportNote(row=row, why=why))

    @property
    def created_by(self) -> Any:
        return self.actor if self.actor is not None and self.actor.is_authenticated else None


@dataclass(frozen=True)
class _FileClub:
    """A club the file names, and the club of this server it stands for."""

    slug: str
    name: str
    club: Club | None  # None: not on this server and not created (only staff may add a club)


class _NotJsonNumber(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise _NotJsonNumber(name)


def read_document(raw: bytes) -> Any:
    """An uploaded file's JSON (every door reads uploads with this, for the same sentence):
    strict JSON (NaN and Infinity are not JSON numbers), nested no deeper than any request."""
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise ImportRefused(N_("The file is not JSON: it is not UTF-8 text.")) from None
    except _NotJsonNumber as exc:
        raise ImportRefused(
            N_("The file is not JSON: %(exc)s is not a JSON number.", exc=exc)
        ) from None
    except json.JSONDecodeError as exc:
        # A sentence, not the parser's own message ("Expecting value: line 1 column 1").
        raise ImportRefused(
            _(
                "The file is not JSON, so not an exported event (it stops making sense at "
                "line %(line)s, column %(column)s). Choose the .json file that an event's "
                "Export (JSON) link gave."
            )
            % {"line": exc.lineno, "column": exc.colno}
        ) from None
    except RecursionError:
        raise ImportRefused(N_("The file: %(why)s", why=too_deep_text())) from None
    if nesting_depth_exceeds(data):
        raise ImportRefused(N_("The file: %(why)s", why=too_deep_text()))
    return data


def checked(row: models.Model, where: Said) -> None:
    """The row's own fields as the model allows them (choices, lengths, ranges): no queries. A
    second look after the file's reading, which should already have refused any such value.
    A null that the column allows is not "blank" here (Django's field check says so of a
    nullable BooleanField, such as a misdeal's ``made``)."""
    exclude = [
        f.name
        for f in row._meta.fields
        if f.is_relation or (f.null and getattr(row, f.attname) is None)
    ]
    try:
        row.clean_fields(exclude=exclude)
    except ValidationError as exc:
        problems = "; ".join(
            f"{name}: {' '.join(str(m) for m in messages)}"
            for name, messages in exc.message_dict.items()
        )
        raise ImportRefused(N_("%(where)s: %(problems)s", where=where, problems=problems)) from None


def _check_event_club(data: Any, slug: str, scope: _Scope) -> None:
    """Raises NotAllowed unless the actor organises the event's club (staff for a club that is
    not on this server); reads only the file's header, the event's club and the clubs."""
    club = Club.objects.filter(slug=slug).first()
    if scope.everywhere or (club is not None and scope.organises(club)):
        return
    # A club that is not here and another club are refused alike, in the file's words: the
    # answer tells nothing of which clubs this server holds, nor their names.
    raise NotAllowed(
        N_(
            "The event's club, %(club)s (%(slug)s), is not a club you organise: only its "
            "organisers may import its events, and only staff an event of a club that is not on "
            "this server (the club is then created with the event).",
            club=file_club_name(data, slug),
            slug=slug,
        )
    )


class _RolledBack(Exception):
    """Leaves the savepoint of a preview, rolling back everything the import wrote."""

    def __init__(self, preview: ImportPreview) -> None:
        super().__init__("preview")
        self.preview = preview


@transaction.atomic
def event_import(
    *, data: Any, actor: AnyUser | None, choices: Mapping[int, Choice] | None = None
) -> ImportResult:
    """Creates the event the file describes, as a new event; all of it or nothing.

    ``actor`` is the importing user, whose organiser roles scope the import (see the module's
    docstring); None is the server's operator at the command line, who may do what staff may.
    ``choices`` says which record a player of the file is (ref -> id, or NEW) where more than
    one could be. Raises NotAllowed (the actor may not import this event), ImportRefused (the
    file) or ChooseRecord (a player more than one record could be, and no choice for it)."""
    result = _run(data, _Scope.of(actor, choices), preview=False)
    assert isinstance(result, ImportResult)
    return result


@transaction.atomic
def event_import_preview(
    *, data: Any, actor: AnyUser | None, choices: Mapping[int, Choice] | None = None
) -> ImportPreview:
    """What ``event_import`` would do with the file, and the rows it would treat otherwise than
    the file says; refused exactly as the import would be. The import is run in full and rolled
    back, so nothing is written and a preview that passes means an import that passes (unless
    the data here changes in between)."""
    result = _run(data, _Scope.of(actor, choices), preview=True)
    assert isinstance(result, ImportPreview)
    return result


def _run(data: Any, scope: _Scope, *, preview: bool) -> ImportResult | ImportPreview:
    check_header(data)
    _check_event_club(data, event_club_slug(data), scope)
    document = read(data)
    scope.preview, scope.data = preview, data
    try:
        with transaction.atomic(), quiet():
            event = _write(document, scope)
            if preview:
                raise _RolledBack(_preview_of(event, scope))
            return ImportResult(event=event, notes=scope.notes, people=scope.people)
    except _RolledBack as done:
        return done.preview
    except (IntegrityError, DataError):
        # Not expected: the reading refuses what the database would. Said in the file's terms.
        logger.warning("Event import: the database refused %s", scope.writing, exc_info=True)
        raise ImportRefused(
            first_clash(document)
            or N_(
                "%(writing)s: this row cannot be stored with the rest of the file (it repeats "
                "or contradicts another row, or a record already on this server).",
                writing=scope.writing,
            )
        ) from None
    except (TypeError, ValueError, OverflowError):
        logger.warning("Event import: a value of %s", scope.writing, exc_info=True)
        raise ImportRefused(
            N_(
                "%(writing)s: a value of this row is not one this server can store.",
                writing=scope.writing,
            )
        ) from None


def _preview_of(event: Event, scope: _Scope) -> ImportPreview:
    games = Game.objects.filter(pairing__event=event).values("id")
    return ImportPreview(
        name=event.name,
        club=event.club.name,
        counts={
            "entries": Entry.objects.filter(event=event).count(),
            "rounds": Round.objects.filter(event=event).count(),
            "games": games.count(),
            "hands": Hand.with_pending.filter(game_id__in=games).count(),
        },
        notes=list(scope.notes),
        people=list(scope.people),
    )


# --- writing the document -------------------------------------------------------------------


def _write(doc: Document, scope: _Scope) -> Event:
    clubs = _clubs(doc, scope)
    club = clubs[doc.event.links["club"]].club
    if club is None:  # _check_event_club let it through: staff would have created it
        raise NotAllowed(N_("Only staff may import an event of a club that is not on this server."))
    season = _season(doc.season, club, scope)
    scope.writing = N_("The event")
    event = Event(club=club, season=season, created_by=scope.created_by, **doc.event.values)
    checked(event, "The event")
    event.save()
    players = _players(doc, scope, club)
    teams = _teams(doc, clubs, players, club, scope)
    entries = _entries(doc, event, clubs, teams, players, scope)
    rounds = {}
    for row in doc.rounds:
        scope.writing = row.where
        round_ = Round(event=event, **row.values)
        checked(round_, row.where)
        round_.save()
        rounds[row.key] = round_
    tables = {}
    for row in doc.tables:
        scope.writing = row.where
        code = new_code() if row.values["has_code"] else None
        tables[row.key] = Table.objects.create(
            event=event, number=row.key, code=code, code_issued_at=_now() if code else None
        )
    games = _games(doc, event, teams, players, scope)
    _pairings(doc, event, rounds, tables, entries, teams, games, scope)
    for row in doc.substitutions:
        scope.writing = row.where
        Substitution.objects.create(
            game=games[row.links["game"]],
            entry=entries[row.links["entry"]],
            replaced=players[row.links["replaced"]],
            substitute=players[row.links["substitute"]],
            **row.values,
        )
    _registrations(doc, event, entries, players, scope)
    return event


def _clubs(doc: Document, scope: _Scope) -> dict[str, _FileClub]:
    clubs: dict[str, _FileClub] = {}
    for row in doc.clubs:
        scope.writing = row.where
        slug, name = row.values["slug"], row.values["name"]
        club = Club.objects.filter(slug=slug).first()
        if club is not None and not scope.sees(club):
            club = None  # another club is said as one that is not here: nothing of it is told
        if club is None and not scope.everywhere:
            scope.note(
                N_("Club %(slug)s (%(name)s)", slug=slug, name=name),
                N_(
                    "it is not one of your clubs: nothing of the file is put in it (only staff "
                    "may add a club to this server)."
                ),
            )
        elif club is None:
            if Club.objects.filter(name=name).exists():
                raise ImportRefused(
                    N_(
                        "Club %(slug)s is not on this server, and another club is named %(name)s.",
                        slug=slug,
                        name=name,
                    )
                )
            club = Club(**row.values)
            checked(club, row.where)
            club.save()
            scope.note(
                N_("Club %(slug)s (%(name)s)", slug=slug, name=name),
                N_("it is not on this server; it is created."),
            )
        clubs[slug] = _FileClub(slug=slug, name=name, club=club)
    return clubs


def _season(row: DocumentRow | None, club: Club, scope: _Scope) -> Season | None:
    if row is None:
        return None
    scope.writing = row.where
    found = Season.objects.filter(club=club, name=row.values["name"]).first()
    if found is not None:
        return found
    season = Season(club=club, **row.values)
    checked(season, row.where)
    season.save()
    return season


def _players(doc: Document, scope: _Scope, host: Club) -> dict[int, Player]:
    """The file's players as records here (``people.match_players``): found by email or name
    among what the importer may see, or new visitors of the event's club."""
    scope.writing = N_("The players")
    raws = [{"ref": row.key, **row.values} for row in doc.players]
    return match_players(raws, scope, host, scope.data, need)


def _same_here(rows: list[DocumentRow], link: str, objects: Mapping[int, Any]) -> None:
    """Refuses two rows whose ``link`` (two rows of the file) is one record here: two players
    of the file with one email, two teams of the file that are one partnership."""
    seen: dict[int, DocumentRow] = {}
    for row in rows:
        ref = row.links[link]
        if ref is None:
            continue
        record = objects[ref].id
        first = seen.setdefault(record, row)
        if first is not row:
            raise ImportRefused(
                SAME_HERE[link].with_params(
                    first=first.where,
                    second=row.where,
                    first_ref=first.links[link],
                    second_ref=ref,
                )
            )


SAME_HERE = {
    "team": N_(
        "%(first)s and %(second)s: their teams (%(first_ref)s and %(second_ref)s of the file) "
        "are one team here, and an event enters each team once."
    ),
    "player": N_(
        "%(first)s and %(second)s: their players (%(first_ref)s and %(second_ref)s of the "
        "file) are one player here, and an event enters each player once."
    ),
}


def _team_club(
    row: DocumentRow, clubs: Mapping[str, _FileClub], event_club: Club, scope: _Scope
) -> Club | None:
    """The club the team is made in: the file's, unless the actor does not organise it."""
    slug = row.links["club"]
    if slug is None:
        return None
    named = clubs[slug]
    if named.club is None or not scope.organises(named.club):
        # A club that is not here (only staff add one) and a club the actor does not organise
        # are said alike: the note tells nothing of which clubs this server holds.
        scope.note(
            row.where,
            N_(
                "club '%(name)s' is not one you organise; the team becomes a team of %(club)s.",
                name=named.name,
                club=event_club.name,
            ),
        )
        return event_club
    return named.club


def _teams(
    doc: Document,
    clubs: Mapping[str, _FileClub],
    players: Mapping[int, Player],
    event_club: Club,
    scope: _Scope,
) -> dict[int, Team]:
    teams: dict[int, Team] = {}
    for row in doc.teams:
        scope.writing = row.where
        one, two = players[row.links["player_one"]], players[row.links["player_two"]]
        if one.id == two.id:
            raise ImportRefused(
                N_(
                    "%(where)s: its players (%(one)s and %(two)s of the file) are one player "
                    "here (the same email), and a team is two players.",
                    where=row.where,
                    one=row.links["player_one"],
                    two=row.links["player_two"],
                )
            )
        club = _team_club(row, clubs, event_club, scope)
        name = row.values["name"]
        # A partnership already known to its club is the same team, so its statistics and
        # history carry on rather than splitting across a copy.
        teams[row.key] = (
            team_for(club=club, player_one=one, player_two=two, name=name)
            if club is not None
            else Team.objects.create(player_one=one, player_two=two, name=name)
        )
    return teams


def _entry_club(
    row: DocumentRow, clubs: Mapping[str, _FileClub], event: Event, scope: _Scope
) -> Club | None:
    """The entry's home club: a club of the actor's (it only labels the entry, as at
    registration); one that is not here, or not the actor's, becomes the event's club."""
    slug = row.links["club"]
    if slug is None:
        return None
    named = clubs[slug]
    if named.club is not None:
        return named.club
    scope.note(
        row.where,
        N_(
            "club '%(name)s' is not one of your clubs; the entry's home club becomes %(club)s.",
            name=named.name,
            club=event.club.name,
        ),
    )
    return event.club


def _entries(
    doc: Document,
    event: Event,
    clubs: Mapping[str, _FileClub],
    teams: Mapping[int, Team],
    players: Mapping[int, Player],
    scope: _Scope,
) -> dict[int, Entry]:
    _same_here(doc.entries, "team", teams)
    _same_here(doc.entries, "player", players)
    entries: dict[int, Entry] = {}
    for row in doc.entries:
        scope.writing = row.where
        team, player = row.links["team"], row.links["player"]
        entry = Entry(
            event=event,
            team=None if team is None else teams[team],
            player=None if player is None else players[player],
            club=_entry_club(row, clubs, event, scope),
            **row.values,
        )
        checked(entry, row.where)
        entry.save()
        # registered_at is auto_now_add: put the file's time back.
        if row.values["registered_at"] is not None:
            Entry.objects.filter(id=entry.id).update(registered_at=row.values["registered_at"])
        entries[row.key] = entry
    return entries


def _games(
    doc: Document,
    event: Event,
    teams: Mapping[int, Team],
    players: Mapping[int, Player],
    scope: _Scope,
) -> dict[int, Game]:
    games: dict[int, Game] = {}
    for row in doc.games:
        scope.writing = row.where
        ns, ew = teams[row.links["ns_team"]], teams[row.links["ew_team"]]
        if ns.id == ew.id:
            raise ImportRefused(
                N_(
                    "%(where)s: its teams (%(ns)s and %(ew)s of the file) are one partnership "
                    "here, and a game is between two.",
                    where=row.where,
                    ns=row.links["ns_team"],
                    ew=row.links["ew_team"],
                )
            )
        seats = {seat: players[row.links[seat]] for seat in ("north", "east", "south", "west")}
        seen: dict[int, str] = {}
        for seat, player in seats.items():
            other = seen.setdefault(player.id, seat)
            if other != seat:
                raise ImportRefused(
                    N_(
                        "%(where)s: the players in %(other)s and %(seat)s (%(one)s and "
                        "%(two)s of the file) are one player here (the same email), and a "
                        "player sits once at a game.",
                        where=row.where,
                        other=other,
                        seat=seat,
                        one=row.links[other],
                        two=row.links[seat],
                    )
                )
        game = Game(
            club=event.club,
            ns_team=ns,
            ew_team=ew,
            **seats,
            **row.values,
            created_by=scope.created_by,
        )
        assert row.state is not None
        for name, value in state_fields(row.state).items():
            setattr(game, name, value)
        if not row.state.over:
            game.ended_at = None
        checked(game, row.where)
        game.save()
        for number, hand in enumerate(row.hands, start=1):
            hand.game = game
            checked(hand, f"{row.where}, hand {number}")
        Hand.with_pending.bulk_create(row.hands)
        games[row.key] = game
    return games


def _pairings(
    doc: Document,
    event: Event,
    rounds: Mapping[int, Round],
    tables: Mapping[int, Table],
    entries: Mapping[int, Entry],
    teams: Mapping[int, Team],
    games: Mapping[int, Game],
    scope: _Scope,
) -> None:
    def one(table: Mapping[int, Any], ref: int | None) -> Any:
        return None if ref is None else table[ref]

    rows: dict[int, Pairing] = {}
    for file_row in doc.pairings:
        scope.writing = file_row.where
        links = file_row.links
        row = Pairing(
            event=event,
            round=rounds[links["round"]],
            table=one(tables, links["table"]),
            home=one(entries, links["home"]),
            away=one(entries, links["away"]),
            home_team=one(teams, links["home_team"]),
            away_team=one(teams, links["away_team"]),
            game=one(games, links["game"]),
            **file_row.values,
        )
        if row.game is not None and row.result != ResultKind.ADJUSTED:
            # A game's result comes from its replayed hands, never from the file.
            outcome = outcome_of_game(event, row.game)
            if outcome[0] != ResultKind.PENDING or row.result in (
                ResultKind.PLAYED,
                ResultKind.FORFEIT,
            ):
                row.result, row.winner_side, row.home_points, row.away_points = outcome
        checked(row, file_row.where)
        rows[file_row.key] = row
    scope.writing = N_("The pairings")
    Pairing.objects.bulk_create(list(rows.values()))
    linked = []
    for file_row in doc.pairings:
        winner_to, loser_to = file_row.links["winner_to"], file_row.links["loser_to"]
        if winner_to or loser_to:
            row = rows[file_row.key]
            row.winner_to, row.loser_to = one(rows, winner_to), one(rows, loser_to)
            linked.append(row)
    Pairing.objects.bulk_update(linked, ["winner_to", "loser_to"])


def _registrations(
    doc: Document,
    event: Event,
    entries: Mapping[int, Entry],
    players: Mapping[int, Player],
    scope: _Scope,
) -> None:
    """The sign-ups as the file has them, each player with a new private link (the model's
    default); their times put back after (``created_at`` is set on creation)."""
    base_url = str(getattr(settings, "REPORTS_BASE_URL", ""))[:200]
    rows: list[tuple[DocumentRow, Registration]] = []
    for file_row in doc.registrations:
        scope.writing = file_row.where
        values = {k: v for k, v in file_row.values.items() if k not in ("registrants", "refusal")}
        entry = file_row.links["entry"]
        row = Registration(
            event=event,
            entry=None if entry is None else entries[entry],
            base_url=base_url,
            refusal_said=stored(file_row.values["refusal"]) if file_row.values["refusal"] else None,
            **values,
        )
        checked(row, file_row.where)
        rows.append((file_row, row))
    scope.writing = N_("The registrations")
    Registration.objects.bulk_create([row for _, row in rows])
    now = _now()
    for file_row, row in rows:
        row.created_at = file_row.values["created_at"] or now
    Registration.objects.bulk_update([row for _, row in rows], ["created_at"])
    registrants = []
    for file_row, row in rows:
        for one in file_row.values["registrants"]:
            scope.writing = one.where
            player = one.links["player"]
            registrant = Registrant(
                registration=row,
                player=None if player is None else players[player],
                **one.values,
            )
            checked(registrant, one.where)
            registrants.append(registrant)
    scope.writing = N_("The registrations")
    Registrant.objects.bulk_create(registrants)


def _now() -> dt.datetime:
    return timezone.now()
