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

The season is found by its club and name. Every game's hands are replayed through the rules
engine: the scores, winners and ends in the file are never read, and a hand the rules refuse
stops the import with the game and hand named. Tables get fresh codes.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from kaiser_club.errors import InvalidInput, NotAllowed
from kaiser_club.models import Club, Player
from kaiser_club.people import Choice
from kaiser_club.roles import Role
from kaiser_club.selectors import AnyUser, club_ids_with_role
from scoring.choices import HandStatus
from scoring.convert import entry_fields, hand_to_entry, result_fields, state_fields
from scoring.models import Game, Hand, Team
from scoring.rules import (
    GameState,
    HandRefused,
    RuleSet,
    RuleSetInvalid,
    Seat,
    UnknownPreset,
    apply_hand,
    forfeit,
    new_game,
    preset,
)
from scoring.rules import Team as Side
from scoring.services.hands import request_digest

from ..choices import ResultKind
from ..models import Entry, Event, Pairing, Round, Season, Substitution, Table
from ..services.entries import team_for
from ..services.results import outcome_of_game
from ..services.tables import new_code
from .export import (
    ENTRY_FIELDS,
    EVENT_FIELDS,
    FORMAT_NAME,
    FORMAT_VERSION,
    GAME_FIELDS,
    HAND_FIELDS,
    PAIRING_FIELDS,
    SEATS,
)
from .people import PersonMatch, match_players

T = TypeVar("T")
DATE_FIELDS = {"date", "starts_on", "ends_on"}
TIME_FIELDS = {
    "registered_at",
    "checked_in_at",
    "withdrawn_at",
    "started_at",
    "ended_at",
    "paused_at",
    "time_called_at",
    "completed_at",
    "confirmed_at",
}


class ImportRefused(InvalidInput):
    """The file cannot be imported; the message says where and why."""


@dataclass(frozen=True)
class ImportNote:
    """A row of the file that the import treats otherwise than the file says, and why."""

    row: str  # as the file names it: "Team 3 (Aces)", "Player jo@example.org", "Club regina"
    why: str

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
    """Who imports and the clubs they organise, read once; the notes the import makes."""

    actor: AnyUser | None
    organised: frozenset[int] | None  # None: every club (staff, or the server's operator)
    notes: list[ImportNote] = field(default_factory=list)
    choices: Mapping[int, Choice] = field(default_factory=dict)  # file's player ref -> record
    people: list[PersonMatch] = field(default_factory=list)
    preview: bool = False

    @classmethod
    def of(cls, actor: AnyUser | None, choices: Mapping[int, Choice] | None = None) -> _Scope:
        if actor is None:
            return cls(actor=None, organised=None, choices=choices or {})
        ids = club_ids_with_role(user=actor, at_least=Role.ORGANISER)
        organised = None if ids is None else frozenset(ids)
        return cls(actor=actor, organised=organised, choices=choices or {})

    @property
    def everywhere(self) -> bool:
        return self.organised is None

    def organises(self, club: Club) -> bool:
        return self.organised is None or club.id in self.organised

    def note(self, row: str, why: str) -> None:
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


def read_document(raw: bytes) -> Any:
    """An uploaded file's JSON (every door reads uploads with this, for the same sentence)."""
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ImportRefused(f"The file is not JSON: {exc}") from None


def _need(data: Any, key: str, where: str) -> Any:
    if not isinstance(data, Mapping) or key not in data:
        raise ImportRefused(f"{where} has no '{key}': the file is incomplete or not an export.")
    return data[key]


def _list(data: Any, key: str, where: str = "The file") -> list[Any]:
    value = _need(data, key, where)
    if not isinstance(value, list):
        raise ImportRefused(f"{where}: '{key}' should be a list.")
    return value


def _value(name: str, raw: Any, where: str) -> Any:
    if raw is None:
        return None
    if name in DATE_FIELDS:
        parsed: Any = parse_date(str(raw)) if isinstance(raw, str) else None
    elif name in TIME_FIELDS:
        parsed = parse_datetime(str(raw)) if isinstance(raw, str) else None
    elif name == "client_id":
        try:
            parsed = uuid.UUID(str(raw))
        except ValueError:
            parsed = None
    else:
        return raw
    if parsed is None:
        raise ImportRefused(f"{where}: '{name}' is not a valid value ({raw!r}).")
    return parsed


def _values(data: Any, names: list[str], where: str) -> dict[str, Any]:
    return {name: _value(name, _need(data, name, where), where) for name in names}


def checked(row: models.Model, where: str) -> None:
    """The row's own fields as the model allows them (choices, lengths, ranges): no queries."""
    relations = [f.name for f in row._meta.fields if f.is_relation]
    try:
        row.clean_fields(exclude=relations)
    except ValidationError as exc:
        problems = "; ".join(
            f"{name}: {' '.join(str(m) for m in messages)}"
            for name, messages in exc.message_dict.items()
        )
        raise ImportRefused(f"{where}: {problems}") from None


def _ref(table: Mapping[Any, T], raw: Any, what: str, where: str) -> T:
    if raw not in table:
        raise ImportRefused(f"{where} names {what} {raw!r}, which the file does not have.")
    return table[raw]


def _opt_ref(table: Mapping[Any, T], raw: Any, what: str, where: str) -> T | None:
    return None if raw is None else _ref(table, raw, what, where)


def check_header(data: Any) -> None:
    if not isinstance(data, Mapping) or data.get("format") != FORMAT_NAME:
        raise ImportRefused("This file is not a Kaiser Club event export.")
    version = data.get("version")
    if version != FORMAT_VERSION:
        raise ImportRefused(
            f"This file is in export format version {version!r}; this server reads version "
            f"{FORMAT_VERSION}. Export it again from a server of the same version."
        )


def _rules(preset_name: Any, rules: Any, where: str) -> RuleSet:
    try:
        preset(str(preset_name))
    except UnknownPreset as exc:
        raise ImportRefused(f"{where}: {exc}") from None
    if not isinstance(rules, Mapping):
        raise ImportRefused(f"{where}: the rule set should be an object.")
    try:
        return RuleSet.from_dict(rules)
    except RuleSetInvalid as exc:
        raise ImportRefused(f"{where}: {exc}") from None


def _clubs(data: Any, scope: _Scope) -> dict[str, _FileClub]:
    clubs: dict[str, _FileClub] = {}
    for raw in _list(data, "clubs"):
        slug = str(_need(raw, "slug", "A club"))
        name = str(_need(raw, "name", f"Club {slug}"))
        club = Club.objects.filter(slug=slug).first()
        if club is None and not scope.everywhere:
            scope.note(
                f"Club {slug} ({name})",
                "it is not on this server, and only staff may add a club; it is not created.",
            )
        elif club is None:
            if Club.objects.filter(name=name).exists():
                raise ImportRefused(
                    f"Club {slug} is not on this server, and another club is named {name}."
                )
            club = Club.objects.create(
                slug=slug,
                name=name,
                town=str(raw.get("town") or ""),
                default_preset=str(raw.get("default_preset") or "club"),
            )
            scope.note(f"Club {slug} ({name})", "it is not on this server; it is created.")
        clubs[slug] = _FileClub(slug=slug, name=name, club=club)
    return clubs


def _file_club_name(data: Any, slug: str) -> str:
    """The name the file gives the club with this slug, for a sentence (the slug if none)."""
    raws = data.get("clubs") if isinstance(data, Mapping) else None
    for raw in raws if isinstance(raws, list) else []:
        if isinstance(raw, Mapping) and str(raw.get("slug")) == slug and raw.get("name"):
            return str(raw["name"])
    return slug


def _check_event_club(data: Any, scope: _Scope) -> None:
    """Raises NotAllowed unless the actor organises the event's club (staff for a club that is
    not on this server); reads only the file's header, the event's club and the clubs."""
    check_header(data)
    slug = str(_need(_need(data, "event", "The file"), "club", "The event"))
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        if not scope.everywhere:
            raise NotAllowed(
                f"The event's club, {_file_club_name(data, slug)} ({slug}), is not on this "
                "server; only staff may import an event of a club that is not here (the club "
                "is created with the event)."
            )
    elif not scope.organises(club):
        raise NotAllowed(
            f"The event's club, {club.name}, is not one you organise; only its organisers may "
            "import its events."
        )


def _players(data: Any, scope: _Scope, host: Club) -> dict[int, Player]:
    return match_players(_list(data, "players"), scope, host, data, _need)


def _team_club(
    raw: Any, clubs: Mapping[str, _FileClub], event_club: Club, scope: _Scope, where: str
) -> Club | None:
    """The club the team is made in: the file's, unless the actor does not organise it."""
    named = _opt_ref(clubs, raw.get("club"), "club", where)
    if named is None:
        return None
    name = raw.get("name")
    row = f"{where} ({name})" if name else where
    if named.club is None:
        scope.note(
            row,
            f"club '{named.name}' is not on this server, and only staff may add a club; the "
            f"team becomes a team of {event_club.name}.",
        )
        return event_club
    if not scope.organises(named.club):
        scope.note(
            row,
            f"club '{named.name}' is not one you organise; the team becomes a team of "
            f"{event_club.name}.",
        )
        return event_club
    return named.club


def _teams(
    data: Any,
    clubs: Mapping[str, _FileClub],
    players: Mapping[int, Player],
    event_club: Club,
    scope: _Scope,
) -> dict[int, Team]:
    teams: dict[int, Team] = {}
    for raw in _list(data, "teams"):
        where = f"Team {raw.get('ref') if isinstance(raw, Mapping) else raw!r}"
        one = _ref(players, _need(raw, "player_one", where), "player", where)
        two = _ref(players, _need(raw, "player_two", where), "player", where)
        if one.id == two.id:
            raise ImportRefused(f"{where} has the same player twice.")
        club = _team_club(raw, clubs, event_club, scope, where)
        name = str(raw.get("name") or "")
        # A partnership already known to its club is the same team, so its statistics and
        # history carry on rather than splitting across a copy.
        teams[_need(raw, "ref", where)] = (
            team_for(club=club, player_one=one, player_two=two, name=name)
            if club is not None
            else Team.objects.create(player_one=one, player_two=two, name=name)
        )
    return teams


def replay_game(
    rules: RuleSet, first_dealer: Seat, raw: Mapping[str, Any], where: str
) -> tuple[GameState, list[tuple[Hand, GameState]]]:
    """The game the file's hands make, each hand checked by the rules engine in turn."""
    state = new_game(rules, first_dealer)
    called = _value("time_called_at", raw.get("time_called_at"), where)
    if called is not None:  # as scoring.rules.replay does
        state = replace(state, time_called_at=called, awaiting_hand_in_play=True)
    confirmed = state
    rows: list[tuple[Hand, GameState]] = []
    hands = _list(raw, "hands", where)
    for position, hand_raw in enumerate(hands, start=1):
        number = hand_raw.get("number") if isinstance(hand_raw, Mapping) else None
        here = f"{where}, hand {number if number is not None else position}"
        values = _values(hand_raw, HAND_FIELDS, here)
        if values["number"] != position:
            raise ImportRefused(f"{here}: hands must be numbered 1, 2, 3… in order.")
        pending = values["status"] == HandStatus.PENDING
        if values["status"] not in (HandStatus.PENDING, HandStatus.CONFIRMED):
            raise ImportRefused(f"{here}: unknown status {values['status']!r}.")
        if pending and position != len(hands):
            raise ImportRefused(f"{here}: only the last hand of a game may wait for confirmation.")
        hand = Hand(**values)
        try:
            entry = hand_to_entry(hand)
            after = apply_hand(confirmed, entry)
        except HandRefused as exc:
            raise ImportRefused(f"{here}: {exc}") from None
        except ValueError as exc:
            raise ImportRefused(f"{here}: {exc}") from None
        hand.request_digest = request_digest(entry)
        for name, value in {**entry_fields(entry), **result_fields(after.hands[-1])}.items():
            setattr(hand, name, value)
        checked(hand, here)
        rows.append((hand, after))
        if not pending:
            confirmed = after
    forfeited_by = raw.get("forfeited_by") or ""
    if forfeited_by:
        try:
            confirmed = forfeit(confirmed, Side(forfeited_by))
        except (HandRefused, ValueError) as exc:
            raise ImportRefused(f"{where}: the forfeit cannot stand: {exc}") from None
    return confirmed, rows


def _games(
    data: Any,
    event: Event,
    teams: Mapping[int, Team],
    players: Mapping[int, Player],
    created_by: Any,
) -> dict[int, Game]:
    games: dict[int, Game] = {}
    for raw in _list(data, "games"):
        ref = _need(raw, "ref", "A game")
        where = f"Game {ref}"
        values = _values(raw, GAME_FIELDS, where)
        rules = _rules(values["preset"], values["rules"], where)
        try:
            first_dealer = Seat(values["first_dealer"])
        except ValueError:
            raise ImportRefused(
                f"{where}: unknown first dealer {values['first_dealer']!r}."
            ) from None
        ns = _ref(teams, _need(raw, "ns_team", where), "team", where)
        ew = _ref(teams, _need(raw, "ew_team", where), "team", where)
        seats = {seat: _ref(players, _need(raw, seat, where), "player", where) for seat in SEATS}
        state, hands = replay_game(rules, first_dealer, raw, where)
        game = Game(
            club=event.club,
            ns_team=ns,
            ew_team=ew,
            **seats,
            **values,
            created_by=created_by,
        )
        game.rules = rules.to_dict()
        for name, value in state_fields(state).items():
            setattr(game, name, value)
        if not state.over:
            game.ended_at = None
        checked(game, where)
        game.save()
        for hand, _after in hands:
            hand.game = game
        Hand.with_pending.bulk_create([hand for hand, _after in hands])
        games[ref] = game
    return games


def _entry_club(
    raw: Any, clubs: Mapping[str, _FileClub], event: Event, scope: _Scope, where: str
) -> Club | None:
    """The entry's home club: any club on this server (it only labels the entry, as at
    registration); one that is not here and is not created becomes the event's club."""
    named = _opt_ref(clubs, raw.get("club"), "club", where)
    if named is None or named.club is not None:
        return None if named is None else named.club
    name = raw.get("name")
    scope.note(
        f"{where} ({name})" if name else where,
        f"club '{named.name}' is not on this server, and only staff may add a club; the "
        f"entry's home club becomes {event.club.name}.",
    )
    return event.club


def _entries(
    data: Any,
    event: Event,
    clubs: Mapping[str, _FileClub],
    teams: Mapping[int, Team],
    players: Mapping[int, Player],
    scope: _Scope,
) -> dict[int, Entry]:
    entries: dict[int, Entry] = {}
    for raw in _list(data, "entries"):
        ref = _need(raw, "ref", "An entry")
        where = f"Entry {ref}"
        entry = Entry(
            event=event,
            team=_opt_ref(teams, raw.get("team"), "team", where),
            player=_opt_ref(players, raw.get("player"), "player", where),
            club=_entry_club(raw, clubs, event, scope, where),
            **_values(raw, ENTRY_FIELDS, where),
        )
        checked(entry, where)
        entry.save()
        entries[ref] = entry
    # registered_at is auto_now_add: put the file's time back.
    for ref, raw in zip(entries, _list(data, "entries"), strict=True):
        registered = _value("registered_at", raw.get("registered_at"), f"Entry {ref}")
        if registered is not None:
            Entry.objects.filter(id=entries[ref].id).update(registered_at=registered)
    return entries


def _pairings(
    data: Any,
    event: Event,
    rounds: Mapping[int, Round],
    tables: Mapping[int, Table],
    entries: Mapping[int, Entry],
    teams: Mapping[int, Team],
    games: Mapping[int, Game],
) -> None:
    rows: dict[int, Pairing] = {}
    raws = _list(data, "pairings")
    for raw in raws:
        ref = _need(raw, "ref", "A pairing")
        where = f"Pairing {ref}"
        row = Pairing(
            event=event,
            round=_ref(rounds, _need(raw, "round", where), "round", where),
            table=_opt_ref(tables, raw.get("table"), "table", where),
            home=_opt_ref(entries, raw.get("home"), "entry", where),
            away=_opt_ref(entries, raw.get("away"), "entry", where),
            home_team=_opt_ref(teams, raw.get("home_team"), "team", where),
            away_team=_opt_ref(teams, raw.get("away_team"), "team", where),
            game=_opt_ref(games, raw.get("game"), "game", where),
            **_values(raw, PAIRING_FIELDS, where),
        )
        if row.game is not None and row.result != ResultKind.ADJUSTED:
            # A game's result comes from its replayed hands, never from the file.
            outcome = outcome_of_game(event, row.game)
            if outcome[0] != ResultKind.PENDING or row.result in (
                ResultKind.PLAYED,
                ResultKind.FORFEIT,
            ):
                row.result, row.winner_side, row.home_points, row.away_points = outcome
        checked(row, where)
        rows[ref] = row
    Pairing.objects.bulk_create(list(rows.values()))
    linked = []
    for raw in raws:
        row = rows[raw["ref"]]
        where = f"Pairing {raw['ref']}"
        winner_to = _opt_ref(rows, raw.get("winner_to"), "pairing", where)
        loser_to = _opt_ref(rows, raw.get("loser_to"), "pairing", where)
        if winner_to or loser_to:
            row.winner_to, row.loser_to = winner_to, loser_to
            linked.append(row)
    Pairing.objects.bulk_update(linked, ["winner_to", "loser_to"])


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
    _check_event_club(data, scope)
    scope.preview = preview
    raw_event = _need(data, "event", "The file")
    _rules(
        _need(raw_event, "preset", "The event"), _need(raw_event, "rules", "The event"), "The event"
    )
    try:
        with transaction.atomic():
            event = _import(data, raw_event, scope)
            if preview:
                raise _RolledBack(_preview_of(event, scope))
            return ImportResult(event=event, notes=scope.notes, people=scope.people)
    except _RolledBack as done:
        return done.preview
    except (IntegrityError, DataError) as exc:
        raise ImportRefused(
            f"The file contradicts itself and was not imported: {str(exc).splitlines()[0]}"
        ) from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise ImportRefused(f"The file has a value of the wrong kind: {exc}") from None


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


def _import(data: Any, raw_event: Any, scope: _Scope) -> Event:
    clubs = _clubs(data, scope)
    club = _ref(clubs, _need(raw_event, "club", "The event"), "club", "The event").club
    if club is None:  # _check_event_club let it through: staff would have created it
        raise NotAllowed("Only staff may import an event of a club that is not on this server.")
    season = None
    raw_season = raw_event.get("season")
    if raw_season:
        name = str(_need(raw_season, "name", "The season"))
        season = Season.objects.filter(club=club, name=name).first()
        if season is None:
            season = Season.objects.create(
                club=club,
                **_values(raw_season, ["name", "starts_on", "ends_on", "tiebreaks"], "The season"),
            )
    event = Event(
        club=club,
        season=season,
        created_by=scope.created_by,
        **_values(raw_event, EVENT_FIELDS, "The event"),
    )
    checked(event, "The event")
    event.save()
    players = _players(data, scope, club)
    teams = _teams(data, clubs, players, club, scope)
    entries = _entries(data, event, clubs, teams, players, scope)
    rounds = {}
    for raw in _list(data, "rounds"):
        round_ = Round(
            event=event, **_values(raw, ["number", "label", "status", "started_at"], "A round")
        )
        checked(round_, f"Round {round_.number}")
        round_.save()
        rounds[round_.number] = round_
    tables = {}
    for raw in _list(data, "tables"):
        number = _need(raw, "number", "A table")
        code = new_code() if raw.get("has_code", True) else None
        tables[number] = Table.objects.create(
            event=event, number=number, code=code, code_issued_at=_now() if code else None
        )
    games = _games(data, event, teams, players, scope.created_by)
    _pairings(data, event, rounds, tables, entries, teams, games)
    for raw in _list(data, "substitutions"):
        where = "A substitution"
        Substitution.objects.create(
            game=_ref(games, _need(raw, "game", where), "game", where),
            entry=_ref(entries, _need(raw, "entry", where), "entry", where),
            seat=_need(raw, "seat", where),
            replaced=_ref(players, _need(raw, "replaced", where), "player", where),
            substitute=_ref(players, _need(raw, "substitute", where), "player", where),
            reason=str(raw.get("reason") or ""),
        )
    return event


def _now() -> dt.datetime:
    return timezone.now()
