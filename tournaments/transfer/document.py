"""An event export read and checked without a single query, before the import writes anything:

- every value against the column that stores it and the app's own ranges (``values.py``),
- every reference against the rows the file has,
- every row that must be unique in the event (refs, round and table numbers, seeds, a game
  played once, one pairing per table and round, match numbers, a hand's client id, a sign-up's
  place on the waiting list and its entry, an email signed up once while its sign-up is active),
- every game's hands, replayed in turn through the rules engine,
- every sign-up against its status (a place on the waiting list only while waiting, no entry
  while pending or waiting) and its event (one player a sign-up in an individual event, two in
  a team event, each with their own email). The sign-up settings and ``registrations`` are
  optional: a document written before they were exported is an event closed to sign-ups.

The import writes only a ``Document``. A file with anything wrong is refused with a sentence
that names the file's row: rows with a ref by their ref ("Entry 3 (Aces)"), rounds and tables
by their number ("Round 2"), other rows by their place in the file ("Substitution 1 of the
file"). ``first_clash`` is also what the import says when the database refuses a row after
all: the file's rows that clash ("Tables 2 and 5 of the file both have number 3."), never the
database's own words.
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils.translation import get_supported_language_variant

from kaiser_club.errors import InvalidInput
from kaiser_club.models import Club, Player
from kaiser_club.sentences import N_, Said, Sentence
from kaiser_club.sentences import of as said_by
from kaiser_club.text import clean_text
from scoring.choices import HandStatus
from scoring.models import Game, Hand
from scoring.models import Team as TeamRow
from scoring.rows_and_rules import entry_fields, hand_to_entry, result_fields
from scoring.rules import (
    PRESETS,
    GameState,
    HandRefused,
    RuleSet,
    RuleSetInvalid,
    Seat,
    Side,
    apply_hand,
    forfeit,
    new_game,
)
from scoring.rules.ruleset import MAX_TIME_LIMIT_MINUTES
from scoring.services.clock import MAX_ADDED_MINUTES
from scoring.services.hands import request_digest

from .. import limits
from ..choices import ResultKind, Tiebreak, default_tiebreaks
from ..models import (
    Entry,
    Event,
    Pairing,
    Registrant,
    Registration,
    RegistrationStatus,
    Round,
    Season,
    Substitution,
)
from ..models.registrations import ACTIVE_STATUSES
from ..pairing.bracket import Stage
from ..services.events import _check as check_event_settings
from .export import (
    ENTRY_FIELDS,
    EVENT_FIELDS,
    FORMAT_NAME,
    FORMAT_VERSION,
    GAME_FIELDS,
    HAND_FIELDS,
    PAIRING_FIELDS,
    REGISTRANT_FIELDS,
    REGISTRATION_FIELDS,
    REGISTRATION_SETTINGS,
    SEATS,
)
from .values import (
    Choice,
    Code,
    Custom,
    Flag,
    ImportRefused,
    Moment,
    Reader,
    SeatNumber,
    Text,
    Whole,
    column,
    refuse,
    shown,
    storable,
    whole_number,
)

NAME_IN_ROW = 40  # a row's own name, as a sentence shows it beside its ref
# A place on the waiting list: a move renumbers from the last one up, so a bound far below the
# column's keeps every later number storable.
WAITING_ORDER = (1, 1_000_000)
REFUSAL_MAX = 1000  # the refusal's reason, in words (kept as a sentence, not in a column)
PRESET_NAMES = tuple(PRESETS)


# --- the values only the app's rules describe -------------------------------------------------


def read_tiebreaks(raw: Any, where: Said) -> list[str]:
    """The tie-break order: registered metrics, each at most once (as ``check_tiebreaks``)."""
    known = set(Tiebreak.values)
    if (
        not isinstance(raw, list)
        or not raw
        or not all(isinstance(t, str) and t in known for t in raw)
        or len(set(raw)) != len(raw)
    ):
        refuse(
            where,
            N_(
                "the tie-break order %(value)s is not a list of these, each at most once: "
                "%(choices)s.",
                value=shown(raw),
                choices=", ".join(Tiebreak.values),
            ),
        )
    return list(raw)


def read_rules(raw: Any, where: Said) -> RuleSet:
    """The rule set as ``RuleSet.from_dict`` reads it (its ranges keep every score, target and
    clock storable), its names cleaned like every name."""
    if not isinstance(raw, Mapping):
        refuse(where, N_("the rules %(value)s are not an object.", value=shown(raw)))
    try:
        rules = RuleSet.from_dict(raw)
    except RuleSetInvalid as exc:
        refuse(where, N_("the rules: %(exc)s", exc=exc))
    texts = {}
    for option in ("name", "title", "good_card", "bad_card"):
        text = clean_text(getattr(rules, option))
        if not storable(text):
            refuse(
                where,
                N_(
                    "the rules' %(option)s %(value)s has characters that cannot be stored.",
                    option=option,
                    value=shown(text),
                ),
            )
        texts[option] = text
    return replace(
        rules,
        name=texts["name"],
        title=texts["title"],
        good_card=texts["good_card"],
        bad_card=texts["bad_card"],
    )


def _in(model: type[Any], name: str, **options: Any) -> Reader:
    return column(model, name, label=name, **options)


EVENT_READERS: dict[str, Reader] = {
    "kind": _in(Event, "kind"),
    "name": _in(Event, "name"),
    "date": _in(Event, "date"),
    "venue": _in(Event, "venue"),
    "status": _in(Event, "status"),
    "preset": Choice("preset", PRESET_NAMES),
    "format": _in(Event, "format"),
    "minutes_per_game": _in(Event, "minutes_per_game", within=limits.MINUTES_PER_GAME),
    "rounds": _in(Event, "rounds", within=limits.ROUNDS),
    "tiebreaks": Custom("tiebreaks", read_tiebreaks),
    "seeding": _in(Event, "seeding"),
    "forfeit_winner_score": _in(Event, "forfeit_winner_score", within=limits.FORFEIT_SCORE),
    "forfeit_loser_score": _in(Event, "forfeit_loser_score", within=limits.FORFEIT_SCORE),
    "check_in_required": _in(Event, "check_in_required"),
    "third_place": _in(Event, "third_place"),
    "grand_final_reset": _in(Event, "grand_final_reset"),
    "pool_count": _in(Event, "pool_count", within=limits.POOL_COUNT),
    "pool_advance": _in(Event, "pool_advance", within=limits.POOL_ADVANCE),
    "knockout_size": _in(Event, "knockout_size", within=limits.KNOCKOUT_SIZE),
    "knockout_kind": _in(Event, "knockout_kind"),
    "verification": _in(Event, "verification"),
    "public_pages": _in(Event, "public_pages"),
}
# The sign-up settings, and their values in a document written before they were exported.
REGISTRATION_SETTINGS_READERS: dict[str, tuple[Reader, Any]] = {
    "registration": (_in(Event, "registration"), "closed"),
    "capacity": (_in(Event, "capacity", within=limits.CAPACITY), None),
    "registration_closes_at": (_in(Event, "registration_closes_at"), None),
}
SEASON_READERS: dict[str, Reader] = {
    "starts_on": _in(Season, "starts_on"),
    "ends_on": _in(Season, "ends_on"),
}
ENTRY_READERS: dict[str, Reader] = {
    "name": _in(Entry, "name"),
    "seed": _in(Entry, "seed", within=limits.SEED),
    "rating": _in(Entry, "rating", within=limits.RATING),
    "pool": _in(Entry, "pool", within=limits.POOL),
    "status": _in(Entry, "status"),
    "late": _in(Entry, "late"),
    "registered_at": Moment("registered_at", null=True),  # none: now, as at registration
    "checked_in_at": _in(Entry, "checked_in_at"),
    "withdrawn_at": _in(Entry, "withdrawn_at"),
}
TABLE_READERS: dict[str, Reader] = {"has_code": Flag("has_code")}
ROUND_READERS: dict[str, Reader] = {
    "label": _in(Round, "label"),
    "status": _in(Round, "status"),
    "started_at": _in(Round, "started_at"),
}
GAME_READERS: dict[str, Reader] = {
    "first_dealer": _in(Game, "first_dealer"),
    "preset": Choice("preset", PRESET_NAMES),
    "from_paper": _in(Game, "from_paper"),
    "forfeited_by": _in(Game, "forfeited_by"),
    "ended_at": _in(Game, "ended_at"),
    "time_limit_minutes": _in(Game, "time_limit_minutes", within=(1, MAX_TIME_LIMIT_MINUTES)),
    "started_at": _in(Game, "started_at"),
    "paused_at": _in(Game, "paused_at"),
    "paused_seconds": _in(Game, "paused_seconds"),
    "added_minutes": _in(Game, "added_minutes", within=(-MAX_ADDED_MINUTES, MAX_ADDED_MINUTES)),
    "time_called_at": _in(Game, "time_called_at"),
}
HAND_READERS: dict[str, Reader] = {
    "number": _in(Hand, "number", within=(1, limits.HANDS_PER_GAME)),
    "client_id": _in(Hand, "client_id"),
    "status": _in(Hand, "status"),
    "kind": _in(Hand, "kind"),
    "bidder": _in(Hand, "bidder"),
    "bid": _in(Hand, "bid", within=(1, 12)),
    "contract": _in(Hand, "contract"),
    "trump": _in(Hand, "trump"),
    "forced": _in(Hand, "forced"),
    "bidding_team_tricks": _in(Hand, "bidding_team_tricks", within=(0, 8)),
    "five_hearts": _in(Hand, "five_hearts"),
    "three_spades": _in(Hand, "three_spades"),
    "bidder_tricks": _in(Hand, "bidder_tricks", within=(0, 8)),
    "misdeal_reason": _in(Hand, "misdeal_reason"),
    "completed_at": _in(Hand, "completed_at"),
    "entered_by_seat": _in(Hand, "entered_by_seat"),
    "confirmed_by_seat": _in(Hand, "confirmed_by_seat"),
    "confirmed_at": _in(Hand, "confirmed_at"),
}
PAIRING_READERS: dict[str, Reader] = {
    "pool": _in(Pairing, "pool", within=limits.POOL),
    "first_dealer_home": _in(Pairing, "first_dealer_home"),
    "match_number": _in(Pairing, "match_number", within=limits.MATCH_NUMBER),
    "code": Code("code", 12),
    "stage": _in(Pairing, "stage", choices=[s.value for s in Stage]),
    "winner_to_side": _in(Pairing, "winner_to_side"),
    "loser_to_side": _in(Pairing, "loser_to_side"),
    "home_seeded": _in(Pairing, "home_seeded"),
    "away_seeded": _in(Pairing, "away_seeded"),
    "conditional": _in(Pairing, "conditional"),
    "cancelled": _in(Pairing, "cancelled"),
    "advanced": _in(Pairing, "advanced"),
    "result": _in(Pairing, "result"),
    "winner_side": _in(Pairing, "winner_side"),
    "home_points": _in(Pairing, "home_points", within=limits.FORFEIT_SCORE),
    "away_points": _in(Pairing, "away_points", within=limits.FORFEIT_SCORE),
    "reason": _in(Pairing, "reason"),
    "points_set_by_organiser": _in(Pairing, "points_set_by_organiser"),
    "played_late": _in(Pairing, "played_late"),
}


def read_language(raw: Any, where: Said) -> str:
    """The language a sign-up was made in: one this server speaks (its messages are written in
    it), as the column holds it."""
    language = Text("language", 8, required=True, clean=False).read(raw, where)
    try:
        get_supported_language_variant(language)
    except LookupError:
        refuse(
            where,
            N_("the language %(value)s is not one this server speaks.", value=shown(raw)),
        )
    return language


REGISTRATION_READERS: dict[str, Reader] = {
    "name": _in(Registration, "name"),
    "status": _in(Registration, "status"),
    "waiting_order": _in(Registration, "waiting_order", within=WAITING_ORDER),
    "language": Custom("language", read_language),
    "created_at": Moment("created_at", null=True),  # none: now, as at sign-up
    "decided_at": _in(Registration, "decided_at"),
}
REGISTRANT_READERS: dict[str, Reader] = {
    "name": _in(Registrant, "name"),
    "email": _in(Registrant, "email"),
    "emails_stopped": _in(Registrant, "emails_stopped"),
}
# Every field the export writes has its reader here (the rules are read with their preset).
assert set(EVENT_READERS) | {"rules"} | set(REGISTRATION_SETTINGS_READERS) == set(EVENT_FIELDS)
assert set(REGISTRATION_SETTINGS_READERS) == set(REGISTRATION_SETTINGS)
assert set(REGISTRATION_READERS) == set(REGISTRATION_FIELDS)
assert set(REGISTRANT_READERS) | {"position"} == set(REGISTRANT_FIELDS)
assert set(ENTRY_READERS) == set(ENTRY_FIELDS)
assert set(GAME_READERS) | {"rules"} == set(GAME_FIELDS)
assert set(HAND_READERS) == set(HAND_FIELDS)
assert set(PAIRING_READERS) == set(PAIRING_FIELDS)


# --- the document -----------------------------------------------------------------------------


@dataclass
class DocumentRow:
    """One row of the file: what a sentence calls it, its values as they will be stored, and
    the rows of the file it names (by their refs, numbers or slugs)."""

    where: Said
    values: dict[str, Any]
    key: Any = None  # its ref, number or slug
    position: int = 0  # its place in its list, from 1
    links: dict[str, Any] = field(default_factory=dict)


@dataclass
class GameRow(DocumentRow):
    state: GameState | None = None  # after the confirmed hands (and a forfeit)
    hands: list[Hand] = field(default_factory=list)


@dataclass
class Document:
    clubs: list[DocumentRow]
    event: DocumentRow  # links: club (slug)
    season: DocumentRow | None
    players: list[DocumentRow]
    teams: list[DocumentRow]  # links: club, player_one, player_two
    entries: list[DocumentRow]  # links: team, player, club
    rounds: list[DocumentRow]  # key: number
    tables: list[DocumentRow]  # key: number
    games: list[GameRow]  # links: ns_team, ew_team, the four seats
    pairings: list[DocumentRow]  # links: round, table, home, away, home_team, away_team, game, …
    substitutions: list[DocumentRow]  # links: game, entry, replaced, substitute
    # links: entry; values: the registration's, with "registrants" (DocumentRows, links: player)
    registrations: list[DocumentRow] = field(default_factory=list)


def need(data: Any, key: str, where: Said) -> Any:
    if not isinstance(data, Mapping) or key not in data:
        refuse(where, N_("it has no '%(key)s': the file is incomplete or not an export.", key=key))
    return data[key]


def check_header(data: Any) -> None:
    if not isinstance(data, Mapping) or data.get("format") != FORMAT_NAME:
        raise ImportRefused(N_("This file is not a Kaiser Club event export."))
    version = data.get("version")
    if version != FORMAT_VERSION:
        raise ImportRefused(
            N_(
                "This file is in export format version %(version)s; this server reads version "
                "%(ours)s. Export it again from a server of the same version.",
                version=shown(version),
                ours=FORMAT_VERSION,
            )
        )


def event_club_slug(data: Any) -> str:
    """The slug of the event's club, read before anything else (who may import is decided by
    it); a value that is no slug is refused here, before any query."""
    raw_event = need(data, "event", N_("The file"))
    slug = need(raw_event, "club", N_("The event"))
    return column(Club, "slug", label="club").read(slug, N_("The event"))


def file_club_name(data: Any, slug: str) -> str:
    """The (cleaned) name the file gives the club with this slug, for a sentence."""
    raws = data.get("clubs") if isinstance(data, Mapping) else None
    for raw in raws if isinstance(raws, list) else []:
        if (
            isinstance(raw, Mapping)
            and raw.get("slug") == slug
            and isinstance(raw.get("name"), str)
        ):
            name = clean_text(raw["name"])
            if name and storable(name):
                return name if len(name) <= NAME_IN_ROW else name[: NAME_IN_ROW - 1] + "…"
    return slug


def read(data: Any) -> Document:
    """The whole file, checked; raises ImportRefused naming the first row that is wrong."""
    check_header(data)
    clubs = _clubs(data)
    slugs = {row.key for row in clubs}
    raw_event = need(data, "event", N_("The file"))
    if not isinstance(raw_event, Mapping):
        refuse(
            N_("The event"),
            N_("it is %(value)s, not an object.", value=shown(raw_event)),
        )
    event = _event(raw_event, slugs)
    season = _season(raw_event.get("season"))
    players = _players(data)
    player_refs = {row.key for row in players}
    teams = _teams(data, slugs, player_refs)
    individual = Event(format=event.values["format"]).individual
    entries = _entries(data, slugs, {row.key for row in teams}, player_refs, individual)
    rounds = _numbered(data, "rounds", N_("Round"), limits.ROUND_NUMBER, ROUND_READERS)
    tables = _numbered(data, "tables", N_("Table"), limits.TABLE_NUMBER, TABLE_READERS)
    games = _games(data, {row.key for row in teams}, player_refs)
    pairings = _pairings(data, rounds, tables, entries, teams, games)
    substitutions = _substitutions(data, games, entries, player_refs)
    registrations = _registrations(data, {row.key for row in entries}, player_refs, individual)
    document = Document(
        clubs=clubs,
        event=event,
        season=season,
        players=players,
        teams=teams,
        entries=entries,
        rounds=rounds,
        tables=tables,
        games=games,
        pairings=pairings,
        substitutions=substitutions,
        registrations=registrations,
    )
    clash = first_clash(document)
    if clash:
        raise ImportRefused(clash)
    return document


THE_FILE = N_("The file")


def _rows(
    data: Any, key: str, kind: Said, owner: Said = THE_FILE
) -> list[tuple[int, Mapping[str, Any]]]:
    """The list ``key`` of the file, each row an object, with its place in the file."""
    value = need(data, key, owner)
    if not isinstance(value, list):
        refuse(
            owner,
            N_("its '%(key)s' %(value)s is not a list.", key=key, value=shown(value)),
        )
    found = []
    for position, raw in enumerate(value, start=1):
        if not isinstance(raw, Mapping):
            refuse(
                N_("%(kind)s %(position)s of the file", kind=kind, position=position),
                N_("it is %(value)s, not an object.", value=shown(raw)),
            )
        found.append((position, raw))
    return found


def _values(raw: Mapping[str, Any], readers: Mapping[str, Reader], where: Said) -> dict[str, Any]:
    return {name: reader.read(need(raw, name, where), where) for name, reader in readers.items()}


def _own_ref(raw: Mapping[str, Any], kind: Said, position: int) -> int:
    where = N_("%(kind)s %(position)s of the file", kind=kind, position=position)
    ref = need(raw, "ref", where)
    if not whole_number(ref) or ref < 1:
        refuse(
            where,
            N_("its ref %(ref)s is not a whole number of 1 or more.", ref=shown(ref)),
        )
    return int(ref)


def _named(kind: Said, ref: Any, name: Any) -> Said:
    """'Entry 3 (Aces)': the row's ref and, when it has one, its (cleaned) name."""
    if isinstance(name, str) and name:
        short = name if len(name) <= NAME_IN_ROW else name[: NAME_IN_ROW - 1] + "…"
        return N_("%(kind)s %(ref)s (%(name)s)", kind=kind, ref=ref, name=short)
    return N_("%(kind)s %(ref)s", kind=kind, ref=ref)


def _link(
    raw: Mapping[str, Any],
    key: str,
    known: Collection[Hashable],
    what: Said,
    where: Said,
    *,
    required: bool = False,
) -> Any:
    """The row of the file that ``raw[key]`` names (by ref, number or slug), or None."""
    value = need(raw, key, where) if required else raw.get(key)
    if value is None and not required:
        return None
    hashable = isinstance(value, str) or whole_number(value)
    if not hashable or value not in known:
        refuse(
            where,
            N_(
                "its %(key)s %(value)s is not %(what)s of the file.",
                key=key,
                value=shown(value),
                what=what,
            ),
        )
    return value


def _clubs(data: Any) -> list[DocumentRow]:
    rows = []
    for position, raw in _rows(data, "clubs", N_("Club")):
        where = N_("Club %(position)s of the file", position=position)
        slug = column(Club, "slug").read(need(raw, "slug", where), where)
        where = N_("Club %(slug)s", slug=slug)
        values = {
            "slug": slug,
            "name": _in(Club, "name").read(need(raw, "name", where), where),
            "town": _in(Club, "town").read(raw.get("town"), where),
            "default_preset": Choice("default_preset", PRESET_NAMES).read(
                raw.get("default_preset") or "club", where
            ),
        }
        rows.append(DocumentRow(where=where, values=values, key=slug, position=position))
    return rows


def _event(raw: Any, slugs: set[str]) -> DocumentRow:
    where = N_("The event")
    club = _link(raw, "club", slugs, N_("a club's slug"), where, required=True)
    values = _values(raw, EVENT_READERS, where)
    values["rules"] = read_rules(need(raw, "rules", where), where).to_dict()
    for name, (reader, absent) in REGISTRATION_SETTINGS_READERS.items():
        values[name] = reader.read(raw[name], where) if name in raw else absent
    try:
        check_event_settings(Event(**values))
    except InvalidInput as exc:
        refuse(where, exc.message)
    return DocumentRow(where=where, values=values, links={"club": club})


def _season(raw: Any) -> DocumentRow | None:
    if not raw:
        return None
    where = N_("The season")
    if not isinstance(raw, Mapping):
        refuse(where, N_("it is %(value)s, not an object.", value=shown(raw)))
    values = {"name": _in(Season, "name").read(need(raw, "name", where), where)}
    values |= {name: reader.read(raw.get(name), where) for name, reader in SEASON_READERS.items()}
    tiebreaks = raw.get("tiebreaks")
    values["tiebreaks"] = (
        default_tiebreaks() if tiebreaks is None else read_tiebreaks(tiebreaks, where)
    )
    if values["starts_on"] and values["ends_on"] and values["ends_on"] < values["starts_on"]:
        refuse(where, N_("it ends before it starts."))
    return DocumentRow(where=N_("The season (%(name)s)", name=values["name"]), values=values)


def _players(data: Any) -> list[DocumentRow]:
    rows = []
    for position, raw in _rows(data, "players", N_("Player")):
        ref = _own_ref(raw, N_("Player"), position)
        where: Said = N_("Player %(ref)s", ref=ref)
        name = _in(Player, "name").read(need(raw, "name", where), where)
        where = _named(N_("Player"), ref, name)
        email = _in(Player, "email").read(raw.get("email"), where)
        rows.append(DocumentRow(where, {"name": name, "email": email}, key=ref, position=position))
    return rows


def _teams(data: Any, slugs: set[str], players: set[int]) -> list[DocumentRow]:
    rows = []
    for position, raw in _rows(data, "teams", N_("Team")):
        ref = _own_ref(raw, N_("Team"), position)
        where: Said = N_("Team %(ref)s", ref=ref)
        name = _in(TeamRow, "name").read(raw.get("name"), where)
        where = _named(N_("Team"), ref, name)
        links = {
            "club": _link(raw, "club", slugs, N_("a club's slug"), where),
            "player_one": _link(raw, "player_one", players, N_("a player"), where, required=True),
            "player_two": _link(raw, "player_two", players, N_("a player"), where, required=True),
        }
        if links["player_one"] == links["player_two"]:
            refuse(
                where,
                N_(
                    "it has the same player twice (player %(player)s).",
                    player=links["player_one"],
                ),
            )
        rows.append(DocumentRow(where, {"name": name}, key=ref, position=position, links=links))
    return rows


def _entries(
    data: Any, slugs: set[str], teams: set[int], players: set[int], individual: bool
) -> list[DocumentRow]:
    rows = []
    for position, raw in _rows(data, "entries", N_("Entry")):
        ref = _own_ref(raw, N_("Entry"), position)
        where: Said = N_("Entry %(ref)s", ref=ref)
        name = ENTRY_READERS["name"].read(need(raw, "name", where), where)
        where = _named(N_("Entry"), ref, name)
        values = _values(raw, ENTRY_READERS, where)
        links = {
            "team": _link(raw, "team", teams, N_("a team"), where),
            "player": _link(raw, "player", players, N_("a player"), where),
            "club": _link(raw, "club", slugs, N_("a club's slug"), where),
        }
        if individual and (links["player"] is None or links["team"] is not None):
            refuse(where, N_("an entry of an individual event is one player (and no team)."))
        if not individual and (links["team"] is None or links["player"] is not None):
            refuse(where, N_("an entry of a team event is one team (and no single player)."))
        rows.append(DocumentRow(where, values, key=ref, position=position, links=links))
    return rows


def _numbered(
    data: Any, key: str, kind: Said, numbers: tuple[int, int], readers: Mapping[str, Reader]
) -> list[DocumentRow]:
    """Rounds and tables: named and referred to by their number."""
    rows = []
    for position, raw in _rows(data, key, kind):
        where = N_("%(kind)s %(position)s of the file", kind=kind, position=position)
        number = Whole("number", *numbers).read(need(raw, "number", where), where)
        where = N_("%(kind)s %(number)s", kind=kind, number=number or 0)
        values = {"number": number, **_values(raw, readers, where)}
        rows.append(DocumentRow(where, values, key=number, position=position))
    return rows


def _games(data: Any, teams: set[int], players: set[int]) -> list[GameRow]:
    rows = []
    for position, raw in _rows(data, "games", N_("Game")):
        ref = _own_ref(raw, N_("Game"), position)
        where = N_("Game %(ref)s", ref=ref)
        values = _values(raw, GAME_READERS, where)
        rules = read_rules(need(raw, "rules", where), where)
        values["rules"] = rules.to_dict()
        links = {
            "ns_team": _link(raw, "ns_team", teams, N_("a team"), where, required=True),
            "ew_team": _link(raw, "ew_team", teams, N_("a team"), where, required=True),
        }
        links |= {
            seat: _link(raw, seat, players, N_("a player"), where, required=True) for seat in SEATS
        }
        if links["ns_team"] == links["ew_team"]:
            refuse(
                where,
                N_("team %(team)s plays on both sides.", team=links["ns_team"]),
            )
        repeat = _first_repeat((seat, links[seat]) for seat in SEATS)
        if repeat:
            first, second, player = repeat
            refuse(
                where,
                N_(
                    "player %(player)s sits in two seats, %(first)s and %(second)s.",
                    player=player,
                    first=first,
                    second=second,
                ),
            )
        limit = values["time_limit_minutes"] or 0
        if values["added_minutes"] < -limit:
            refuse(
                where,
                N_(
                    "the added_minutes %(minutes)s take away more than the game's %(limit)s "
                    "minutes.",
                    minutes=values["added_minutes"],
                    limit=limit,
                ),
            )
        if values["paused_at"] is not None and values["started_at"] is None:
            refuse(where, N_("its clock is paused (paused_at) but was never started (started_at)."))
        state, hands = _replay(rules, values, raw, where)
        rows.append(
            GameRow(
                where, values, key=ref, position=position, links=links, state=state, hands=hands
            )
        )
    return rows


def _replay(
    rules: RuleSet, values: Mapping[str, Any], raw: Mapping[str, Any], where: Said
) -> tuple[GameState, list[Hand]]:
    """The game the file's hands make, each hand checked by the rules engine in turn; the
    Hand rows to write, their derived columns from the engine."""
    state = new_game(rules, Seat(values["first_dealer"]))
    if values["time_called_at"] is not None:  # as scoring.rules.replay does
        state = replace(state, time_called_at=values["time_called_at"], awaiting_hand_in_play=True)
    confirmed = state
    hands: list[Hand] = []
    raws = _rows(raw, "hands", f"{where}, hand", owner=where)
    ids: list[tuple[int, Any]] = []
    for position, hand_raw in raws:
        number = hand_raw.get("number")
        here = f"{where}, hand {number if whole_number(number) else position}"
        hand_values = _values(hand_raw, HAND_READERS, here)
        if hand_values["number"] != position:
            refuse(here, N_("hands must be numbered 1, 2, 3… in order."))
        pending = hand_values["status"] == HandStatus.PENDING
        if pending and position != len(raws):
            refuse(here, N_("only the last hand of a game may wait for confirmation."))
        if pending and hand_values["confirmed_by_seat"] is not None:
            refuse(here, N_("a hand waiting for confirmation has no confirmed_by_seat."))
        if hand_values["confirmed_by_seat"] is not None and hand_values["entered_by_seat"] is None:
            refuse(
                here, N_("a hand confirmed by a seat (confirmed_by_seat) needs entered_by_seat.")
            )
        ids.append((position, hand_values["client_id"]))
        hand = Hand(**hand_values)
        entry = hand_to_entry(hand)
        try:
            after = apply_hand(confirmed, entry)
        except HandRefused as exc:
            refuse(here, said_by(exc))
        hand.request_digest = request_digest(entry)
        for name, value in {**entry_fields(entry), **result_fields(after.hands[-1])}.items():
            setattr(hand, name, value)
        hands.append(hand)
        if not pending:
            confirmed = after
    repeat = _first_repeat(ids)
    if repeat:
        first, second, _ = repeat
        refuse(
            N_(
                "%(where)s, hands %(first)s and %(second)s", where=where, first=first, second=second
            ),
            N_("they have the same client_id."),
        )
    if values["forfeited_by"]:
        try:
            confirmed = forfeit(confirmed, Side(values["forfeited_by"]))
        except HandRefused as exc:
            refuse(where, N_("the forfeit cannot stand: %(exc)s", exc=exc))
    return confirmed, hands


def _pairings(
    data: Any,
    rounds: list[DocumentRow],
    tables: list[DocumentRow],
    entries: list[DocumentRow],
    teams: list[DocumentRow],
    games: list[GameRow],
) -> list[DocumentRow]:
    raws = _rows(data, "pairings", N_("Pairing"))
    refs = [(position, _own_ref(raw, N_("Pairing"), position)) for position, raw in raws]
    pairing_refs = {ref for _, ref in refs}
    known = {
        "round": ({r.key for r in rounds}, "a round's number"),
        "table": ({t.key for t in tables}, "a table's number"),
        "home": ({e.key for e in entries}, "an entry"),
        "away": ({e.key for e in entries}, "an entry"),
        "home_team": ({t.key for t in teams}, "a team"),
        "away_team": ({t.key for t in teams}, "a team"),
        "game": ({g.key for g in games}, "a game"),
        "winner_to": (pairing_refs, "a pairing"),
        "loser_to": (pairing_refs, "a pairing"),
    }
    games_by_ref = {g.key: g for g in games}
    rows = []
    for (position, raw), (_, ref) in zip(raws, refs, strict=True):
        where = N_("Pairing %(ref)s", ref=ref)
        links = {
            key: _link(raw, key, keys, what, where, required=key == "round")
            for key, (keys, what) in known.items()
        }
        game = games_by_ref.get(links["game"])
        result = PAIRING_READERS["result"].read(need(raw, "result", where), where)
        if _result_from_game(game, result):
            # Replaced by the replayed game's outcome: never read from the file.
            readers = {k: r for k, r in PAIRING_READERS.items() if k not in OUTCOME_FIELDS}
            values = _values(raw, readers, where)
            values |= {
                "result": result,
                "winner_side": "",
                "home_points": None,
                "away_points": None,
            }
        else:
            values = _values(raw, PAIRING_READERS, where)
        for side in ("winner_to", "loser_to"):
            if links[side] == ref:
                refuse(where, N_("its %(side)s %(ref)s is the pairing itself.", side=side, ref=ref))
        for one, other in (("home", "away"), ("home_team", "away_team")):
            if links[one] is not None and links[one] == links[other]:
                refuse(
                    where,
                    N_(
                        "its %(one)s and %(other)s are the same (%(player)s).",
                        one=one,
                        other=other,
                        player=links[one],
                    ),
                )
        if values["result"] == ResultKind.PENDING and values["winner_side"]:
            refuse(where, N_("a pending pairing has no winner_side."))
        rows.append(DocumentRow(where, values, key=ref, position=position, links=links))
    _check_bracket(rows)
    return rows


def _check_bracket(rows: list[DocumentRow]) -> None:
    """The bracket's shape as its pages draw it: a third-place match stands beside the final
    of a winners' bracket, so a bracket with one has winners' bracket matches too."""
    matches = [row for row in rows if row.values["match_number"] is not None]
    stages = {row.values["stage"] for row in matches}
    if Stage.THIRD_PLACE in stages and Stage.WINNERS not in stages:
        third = next(row for row in matches if row.values["stage"] == Stage.THIRD_PLACE)
        refuse(
            third.where,
            N_(
                "a third-place match follows a winners' bracket, and no numbered match of the file "
                "is of the winners stage."
            ),
        )


OUTCOME_FIELDS = ("result", "winner_side", "home_points", "away_points")


def _result_from_game(game: GameRow | None, result: str) -> bool:
    """Whether the pairing's result is its game's (as the import writes it): a game's result
    comes from its replayed hands unless the organiser adjusted it; an unfinished game leaves
    a bye or a pending result as the file says."""
    if game is None or result == ResultKind.ADJUSTED:
        return False
    finished = game.state is not None and game.state.over and game.state.winner is not None
    return finished or result in (ResultKind.PLAYED, ResultKind.FORFEIT)


def _substitutions(
    data: Any, games: list[GameRow], entries: list[DocumentRow], players: set[int]
) -> list[DocumentRow]:
    rows = []
    game_refs, entry_refs = {g.key for g in games}, {e.key for e in entries}
    for position, raw in _rows(data, "substitutions", N_("Substitution")):
        where = N_("Substitution %(position)s of the file", position=position)
        links = {
            "game": _link(raw, "game", game_refs, "a game", where, required=True),
            "entry": _link(raw, "entry", entry_refs, "an entry", where, required=True),
            "replaced": _link(raw, "replaced", players, N_("a player"), where, required=True),
            "substitute": _link(raw, "substitute", players, N_("a player"), where, required=True),
        }
        if links["replaced"] == links["substitute"]:
            refuse(
                where,
                N_("player %(player)s replaces themself.", player=links["replaced"]),
            )
        values = {
            "seat": SeatNumber("seat").read(need(raw, "seat", where), where),
            "reason": _in(Substitution, "reason").read(raw.get("reason"), where),
        }
        rows.append(DocumentRow(where, values, position=position, links=links))
    return rows


def _registrations(
    data: Any, entries: set[int], players: set[int], individual: bool
) -> list[DocumentRow]:
    """The sign-ups, each with its players; none in a document written before they were
    exported."""
    if not isinstance(data, Mapping) or "registrations" not in data:
        return []
    rows = []
    for position, raw in _rows(data, "registrations", N_("Registration")):
        where = N_("Registration %(position)s of the file", position=position)
        values = _values(raw, REGISTRATION_READERS, where)
        values["refusal"] = Text("refusal", REFUSAL_MAX).read(raw.get("refusal"), where)
        links = {"entry": _link(raw, "entry", entries, N_("an entry"), where)}
        status = values["status"]
        waiting = status == RegistrationStatus.WAITING
        if waiting and values["waiting_order"] is None:
            refuse(where, N_("a sign-up on the waiting list needs its waiting_order."))
        if not waiting and values["waiting_order"] is not None:
            refuse(where, N_("only a sign-up on the waiting list has a waiting_order."))
        still_waiting = (RegistrationStatus.PENDING, RegistrationStatus.WAITING)
        if status in still_waiting and links["entry"] is not None:
            refuse(where, N_("a sign-up still pending or waiting holds no entry."))
        values["registrants"] = _registrants(raw, where, players, individual)
        rows.append(DocumentRow(where, values, position=position, links=links))
    return rows


def _registrants(
    raw: Mapping[str, Any], where: Said, players: set[int], individual: bool
) -> list[DocumentRow]:
    """A sign-up's players: one in an individual event, two in a team event (as at sign-up),
    numbered 1, 2 in order, each with their own email."""
    raws = need(raw, "registrants", where)
    wanted = 1 if individual else 2
    if not isinstance(raws, list) or len(raws) != wanted:
        said = (
            N_("its registrants %(value)s are not a list of one player (an individual event).")
            if individual
            else N_("its registrants %(value)s are not a list of two players (a team event).")
        )
        refuse(where, said.with_params(value=shown(raws)))
    rows: list[DocumentRow] = []
    for position, one in enumerate(raws, start=1):
        here = N_("%(where)s, player %(position)s", where=where, position=position)
        if not isinstance(one, Mapping):
            refuse(here, N_("it is %(value)s, not an object.", value=shown(one)))
        number = Whole("position", 1, wanted).read(need(one, "position", here), here)
        if number != position:
            refuse(here, N_("a sign-up's players must be numbered 1, 2 in order."))
        values = {"position": number, **_values(one, REGISTRANT_READERS, here)}
        if not values["email"]:
            refuse(here, N_("the %(label)s is empty.", label="email"))
        links = {"player": _link(one, "player", players, N_("a player"), here)}
        rows.append(DocumentRow(here, values, position=position, links=links))
    repeat = _first_repeat((row.position, row.values["email"].lower()) for row in rows)
    if repeat:
        first, second, email = repeat
        refuse(
            where,
            N_(
                "its players %(first)s and %(second)s have one email, %(email)s: each player "
                "signs up with their own.",
                first=first,
                second=second,
                email=shown(email),
            ),
        )
    return rows


def _registration_clash(rows: list[DocumentRow]) -> Said | None:
    """Two sign-ups the event cannot hold both of: one place on the waiting list, one entry,
    or one email signed up twice while both are active (pending, registered or waiting)."""
    repeat = _first_repeat(
        (row.position, row.values["waiting_order"])
        for row in rows
        if row.values["status"] == RegistrationStatus.WAITING
    )
    if repeat:
        first, second, order = repeat
        return N_(
            "Registrations %(first)s and %(second)s of the file both have waiting order %(value)s.",
            first=first,
            second=second,
            value=order,
        )
    repeat = _first_repeat((row.position, row.links["entry"]) for row in rows)
    if repeat:
        first, second, entry = repeat
        return N_(
            "Registrations %(first)s and %(second)s of the file both became entry %(value)s.",
            first=first,
            second=second,
            value=entry,
        )
    repeat = _first_repeat(
        (row.position, one.values["email"].lower())
        for row in rows
        if row.values["status"] in ACTIVE_STATUSES
        for one in row.values["registrants"]
    )
    if repeat:
        first, second, email = repeat
        return N_(
            "Registrations %(first)s and %(second)s of the file both sign up %(value)s, and an "
            "email signs up once while its sign-up is pending, registered or waiting.",
            first=first,
            second=second,
            value=shown(email),
        )
    return None


# --- rows that must be unique -----------------------------------------------------------------


def _first_repeat(keyed: Iterable[tuple[Any, Hashable | None]]) -> tuple[Any, Any, Any] | None:
    """The first two rows with the same key (None never repeats): (first, second, key)."""
    seen: dict[Hashable, Any] = {}
    for row, key in keyed:
        if key is None:
            continue
        if key in seen:
            return seen[key], row, key
        seen[key] = row
    return None


def first_clash(document: Document) -> Said | None:
    """The first two rows of the file that the event cannot hold both of, as a sentence."""
    by_position: list[tuple[list[DocumentRow], Sentence]] = [
        (
            document.clubs,
            N_("Clubs %(first)s and %(second)s of the file both have slug %(value)s."),
        ),
        (
            document.players,
            N_("Players %(first)s and %(second)s of the file both have ref %(value)s."),
        ),
        (document.teams, N_("Teams %(first)s and %(second)s of the file both have ref %(value)s.")),
        (
            document.entries,
            N_("Entries %(first)s and %(second)s of the file both have ref %(value)s."),
        ),
        (
            document.rounds,
            N_("Rounds %(first)s and %(second)s of the file both have number %(value)s."),
        ),
        (
            document.tables,
            N_("Tables %(first)s and %(second)s of the file both have number %(value)s."),
        ),
        (document.games, N_("Games %(first)s and %(second)s of the file both have ref %(value)s.")),  # type: ignore[list-item]
        (
            document.pairings,
            N_("Pairings %(first)s and %(second)s of the file both have ref %(value)s."),
        ),
    ]
    for rows, sentence in by_position:
        repeat = _first_repeat((row.position, row.key) for row in rows)
        if repeat:
            first, second, key = repeat
            return sentence.with_params(first=first, second=second, value=shown(key))
    repeat = _first_repeat((row.position, row.values["name"]) for row in document.clubs)
    if repeat:
        first, second, name = repeat
        return N_(
            "Clubs %(first)s and %(second)s of the file both have the name %(value)s.",
            first=first,
            second=second,
            value=shown(name),
        )
    by_ref: list[tuple[list[DocumentRow], Sentence, Any]] = [
        (
            document.entries,
            N_("Entries %(first)s and %(second)s both enter team %(value)s."),
            lambda r: r.links["team"],
        ),
        (
            document.entries,
            N_("Entries %(first)s and %(second)s both enter player %(value)s."),
            lambda r: r.links["player"],
        ),
        (
            document.entries,
            N_("Entries %(first)s and %(second)s both have seed %(value)s."),
            lambda r: r.values["seed"],
        ),
        (
            document.pairings,
            N_("Pairings %(first)s and %(second)s both play game %(value)s."),
            lambda r: r.links["game"],
        ),
        (
            document.pairings,
            N_("Pairings %(first)s and %(second)s both have match number %(value)s."),
            lambda r: r.values["match_number"],
        ),
    ]
    for rows, said, key_of in by_ref:
        repeat = _first_repeat((row.key, key_of(row)) for row in rows)
        if repeat:
            first, second, key = repeat
            return said.with_params(first=first, second=second, value=key)
    repeat = _first_repeat(
        (row.key, (row.links["round"], row.links["table"]) if row.links["table"] else None)
        for row in document.pairings
    )
    if repeat:
        first, second, (round_number, table) = repeat
        return N_(
            "Pairings %(first)s and %(second)s both play at table %(table)s in round %(round)s.",
            first=first,
            second=second,
            table=table,
            round=round_number,
        )
    return _registration_clash(document.registrations)
