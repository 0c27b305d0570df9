"""An exported event read back in, in one transaction: a file with anything wrong writes nothing.

Clubs are found by slug (created when missing), the season by its club and name, players by
email (created when they have none or no match). Every game's hands are replayed through the
rules engine: the scores, winners and ends in the file are never read, and a hand the rules
refuse stops the import with the game and hand named. Tables get fresh codes.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db import DataError, IntegrityError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from kaiser_club.errors import InvalidInput
from kaiser_club.models import Club, Player
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


def _clubs(data: Any) -> dict[str, Club]:
    clubs: dict[str, Club] = {}
    for raw in _list(data, "clubs"):
        slug = str(_need(raw, "slug", "A club"))
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            name = str(_need(raw, "name", f"Club {slug}"))
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
        clubs[slug] = club
    return clubs


def _players(data: Any) -> dict[int, Player]:
    players: dict[int, Player] = {}
    for raw in _list(data, "players"):
        where = f"Player {raw.get('ref') if isinstance(raw, Mapping) else raw!r}"
        name, email = str(_need(raw, "name", where)), str(raw.get("email") or "")
        found = Player.objects.filter(email__iexact=email).order_by("id").first() if email else None
        players[_need(raw, "ref", where)] = found or Player.objects.create(name=name, email=email)
    return players


def _teams(data: Any, clubs: Mapping[str, Club], players: Mapping[int, Player]) -> dict[int, Team]:
    teams: dict[int, Team] = {}
    for raw in _list(data, "teams"):
        where = f"Team {raw.get('ref') if isinstance(raw, Mapping) else raw!r}"
        one = _ref(players, _need(raw, "player_one", where), "player", where)
        two = _ref(players, _need(raw, "player_two", where), "player", where)
        if one.id == two.id:
            raise ImportRefused(f"{where} has the same player twice.")
        club = _opt_ref(clubs, raw.get("club"), "club", where)
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
    data: Any, event: Event, teams: Mapping[int, Team], players: Mapping[int, Player], by: Any
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
            created_by=by if getattr(by, "is_authenticated", False) else None,
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


def _entries(
    data: Any,
    event: Event,
    clubs: Mapping[str, Club],
    teams: Mapping[int, Team],
    players: Mapping[int, Player],
) -> dict[int, Entry]:
    entries: dict[int, Entry] = {}
    for raw in _list(data, "entries"):
        ref = _need(raw, "ref", "An entry")
        where = f"Entry {ref}"
        entry = Entry(
            event=event,
            team=_opt_ref(teams, raw.get("team"), "team", where),
            player=_opt_ref(players, raw.get("player"), "player", where),
            club=_opt_ref(clubs, raw.get("club"), "club", where),
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


@transaction.atomic
def event_import(*, data: Any, by: Any = None) -> Event:
    """Creates the event the file describes, as a new event; all of it or nothing."""
    check_header(data)
    raw_event = _need(data, "event", "The file")
    _rules(
        _need(raw_event, "preset", "The event"), _need(raw_event, "rules", "The event"), "The event"
    )
    try:
        with transaction.atomic():
            return _import(data, raw_event, by)
    except (IntegrityError, DataError) as exc:
        raise ImportRefused(
            f"The file contradicts itself and was not imported: {str(exc).splitlines()[0]}"
        ) from None
    except (TypeError, ValueError, AttributeError) as exc:
        raise ImportRefused(f"The file has a value of the wrong kind: {exc}") from None


def _import(data: Any, raw_event: Any, by: Any) -> Event:
    clubs = _clubs(data)
    club = _ref(clubs, _need(raw_event, "club", "The event"), "club", "The event")
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
        created_by=by if getattr(by, "is_authenticated", False) else None,
        **_values(raw_event, EVENT_FIELDS, "The event"),
    )
    checked(event, "The event")
    event.save()
    players = _players(data)
    teams = _teams(data, clubs, players)
    entries = _entries(data, event, clubs, teams, players)
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
    games = _games(data, event, teams, players, by)
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


def import_club_slug(data: Any) -> str:
    """The slug of the club the file's event belongs to (for the permission check)."""
    check_header(data)
    return str(_need(_need(data, "event", "The file"), "club", "The event"))


def may_import(*, user: Any, data: Any) -> None:
    """An organiser of the file's club may import it; a club not on this server needs staff.
    Raises NotAllowed otherwise (ImportRefused for a file that is not an export)."""
    from kaiser_club.errors import NotAllowed
    from kaiser_club.roles import Role
    from kaiser_club.selectors import has_role

    slug = import_club_slug(data)
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        if not getattr(user, "is_staff", False):
            raise NotAllowed(
                f"Club {slug} is not on this server; only staff may import its events "
                "(the club is created with the event)."
            )
        return
    if not has_role(user=user, club_id=club.id, at_least=Role.ORGANISER):
        raise NotAllowed(f"Your role in {club} does not allow importing its events.")
