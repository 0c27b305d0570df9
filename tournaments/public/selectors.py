"""Reads for the public pages, each a fixed number of queries however big the event.

Only what counts is shown: hands waiting for confirmation are left out (scoring's default
manager), a game's score is its confirmed score. A player's name is always shown; their page
and a link to it only when the player made their page public (``Player.is_public``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import connection
from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from kaiser_club.models import Player
from scoring.choices import GameStatus
from scoring.models import Game, Hand

from .. import selectors
from ..choices import EventKind, ResultKind
from ..models import Entry, Event, Pairing, Round, Season, Table
from ..naming import remember_rounds
from ..standings.versions import with_versions

PAIRING_RELATED = [*selectors.PAIRING_RELATED, "round"]
# What a game's line shows (``present.game_line``, ``round_clock``), for the lists of every
# game of a round: half the cost of reading whole rows (a game's rules, its dozen times).
PLAYERS = [
    f"{side}_team__{slot}__{name}"
    for side in ("home", "away")
    for slot in ("player_one", "player_two")
    for name in ("name", "is_public")
]
LINE_FIELDS = [
    *("round", "table", "home", "away", "home_team", "away_team", "game"),
    *("result", "home_points", "away_points", "winner_side"),
    *("table__number", "home__name", "away__name", "round__number", "round__label"),
    *("home_team__player_one", "home_team__player_two"),
    *("away_team__player_one", "away_team__player_two"),
    *PLAYERS,
    *("game__status", "game__ns_score", "game__ew_score", "game__hand_count", "game__end_reason"),
    *("game__started_at", "game__time_limit_minutes", "game__added_minutes"),
    *("game__paused_seconds", "game__paused_at", "game__time_called_at"),
]


def public_event(event_id: int) -> Event | None:
    """The event with its club, season and version fingerprints, if its public pages are on
    (one query: what a 304 costs)."""
    return (
        with_versions(Event.objects.select_related("club", "season"))
        .filter(pk=event_id, public_pages=True)
        .first()
    )


PUBLIC_INDEX_LIMIT = 200


def public_events() -> list[Event]:
    """The events whose pages are public, newest first, with their club (one query)."""
    return list(
        Event.objects.filter(public_pages=True)
        .select_related("club")
        .order_by("-date", "-id")[:PUBLIC_INDEX_LIMIT]
    )


def public_season(season_id: int) -> Season | None:
    """A season whose leaderboard is public: one of its club nights has public pages."""
    return (
        Season.objects.select_related("club")
        .filter(
            pk=season_id,
            events__kind=EventKind.CLUB_NIGHT,
            events__public_pages=True,
        )
        .distinct()
        .first()
    )


def season_events(season: Season) -> QuerySet[Event]:
    return Event.objects.filter(
        season=season, kind=EventKind.CLUB_NIGHT, public_pages=True
    ).order_by("date", "id")


def rounds_of(event: Event) -> list[Round]:
    """Every round with its counts (``tournaments.selectors.rounds_of``), in order (one
    query)."""
    rounds: list[Round] = list(selectors.rounds_of(event=event).order_by("number"))
    remember_rounds(event, rounds)  # naming them needs no other query
    return rounds


def current_round(rounds: list[Round]) -> Round | None:
    """The round the hall is on: the last with games being played, else the last started,
    else the first (``rounds`` from ``rounds_of``)."""
    playing = [r for r in rounds if getattr(r, "playing", 0)]
    if playing:
        return playing[-1]
    started = [r for r in rounds if r.started]
    if started:
        return started[-1]
    return rounds[0] if rounds else None


def pairings_of_round(round_: Round) -> list[Pairing]:
    return list(
        Pairing.objects.filter(round=round_, cancelled=False)
        .select_related(*PAIRING_RELATED)
        .only(*LINE_FIELDS)
        .order_by("table__number", "match_number", "id")
    )


def live_pairings(event: Event) -> list[Pairing]:
    """Games being played now, table by table (one query)."""
    return list(
        Pairing.objects.filter(
            event=event,
            result=ResultKind.PENDING,
            cancelled=False,
            game__status=GameStatus.IN_PROGRESS,
        )
        .select_related(*PAIRING_RELATED)
        .only(*LINE_FIELDS)
        .order_by("table__number", "round__number", "id")
    )


def now_playing_rows(event: Event) -> list[dict[str, Any]]:
    """The games being played, as plain values: what the standings' "playing now" column
    needs, without building a dozen model instances per game (one query)."""
    rows = (
        Pairing.objects.filter(
            event=event,
            result=ResultKind.PENDING,
            cancelled=False,
            game__status=GameStatus.IN_PROGRESS,
        )
        .order_by()
        .values(
            "home_id",
            "away_id",
            "home__name",
            "away__name",
            "table__number",
            "home_team__player_one_id",
            "home_team__player_two_id",
            "away_team__player_one_id",
            "away_team__player_two_id",
            "home_team__player_one__name",
            "home_team__player_two__name",
            "away_team__player_one__name",
            "away_team__player_two__name",
        )
    )
    return [dict(row) for row in rows]


def bracket_rows(event: Event) -> list[Pairing]:
    return list(
        Pairing.objects.filter(event=event, match_number__isnull=False)
        .select_related(*PAIRING_RELATED)
        .order_by("match_number")
    )


def pairing_with_hands(event: Event, pairing_id: int) -> Pairing | None:
    """A game's pairing, its seats' players and its confirmed hands (two queries). Read as
    the one row it is, not with ``first()``: a LIMIT over sixteen joined tables cost
    PostgreSQL 20 to 35 ms to plan (3 ms without), for every score sheet rendered."""
    found = list(
        Pairing.objects.filter(event=event, pk=pairing_id)
        .select_related(
            *PAIRING_RELATED,
            "game__north",
            "game__east",
            "game__south",
            "game__west",
        )
        .prefetch_related(
            Prefetch("game__hands", queryset=Hand.objects.order_by("number"), to_attr="sheet")
        )
        .order_by()
    )
    return found[0] if found else None


def entry_of(event: Event, entry_id: int) -> Entry | None:
    return (
        Entry.objects.filter(event=event, pk=entry_id)
        .select_related("team__player_one", "team__player_two", "player", "club")
        .first()
    )


def pairings_of_entry(entry: Entry) -> list[Pairing]:
    return list(
        Pairing.objects.filter(Q(home=entry) | Q(away=entry), cancelled=False)
        .select_related(*PAIRING_RELATED)
        .order_by("round__number", "match_number", "id")
    )


def public_player(player_id: int) -> Player | None:
    return Player.objects.filter(pk=player_id, is_public=True).first()


def pairings_of_player(event: Event, player: Player) -> list[Pairing]:
    seated = Q()
    for side in ("home_team", "away_team"):
        for slot in ("player_one", "player_two"):
            seated |= Q(**{f"{side}__{slot}": player})
    return list(
        Pairing.objects.filter(seated, event=event, cancelled=False)
        .select_related(*PAIRING_RELATED)
        .order_by("round__number", "id")
    )


def entries_of(event: Event) -> list[Entry]:
    return list(
        Entry.objects.filter(event=event)
        .select_related("team__player_one", "team__player_two", "player")
        .order_by("seed", "name", "id")
    )


@dataclass(frozen=True)
class RoundClock:
    """The round's clock as the hall sees it: the deadline of the games still running
    (the latest, when some were given extra minutes), or the time left while paused."""

    state: str  # "running", "paused", "time", "none"
    deadline: datetime | None = None
    remaining: int | None = None  # seconds, while paused

    @property
    def deadline_ms(self) -> int | None:
        return int(self.deadline.timestamp() * 1000) if self.deadline else None


def round_clock(pairings: list[Pairing], now: datetime | None = None) -> RoundClock:
    now = now or timezone.now()
    running: list[datetime] = []
    paused: list[timedelta] = []
    called = False
    for pairing in pairings:
        game = pairing.game
        if game is None or game.status != GameStatus.IN_PROGRESS:
            continue
        deadline = game.deadline
        if deadline is None:
            continue
        if game.time_called_at is not None:
            called = True
        elif game.paused_at is not None:
            paused.append(deadline - game.paused_at)
        else:
            running.append(deadline)
    if running:
        return RoundClock("running", deadline=max(running))
    if paused:
        return RoundClock("paused", remaining=max(0, int(max(paused).total_seconds())))
    if called:
        return RoundClock("time")
    return RoundClock("none")


def round_rows(*, event_id: int, number: int) -> str | None:
    """The rows a round's page shows beyond what the event's results counter covers: the
    event's rounds (the page's tabs and the round's state), and the games and tables of the
    round's pairings, as the versions PostgreSQL keeps of those rows (``xmin``, as
    ``sheet_rows``). A look-up by the event's rounds and one round's pairings, whatever the
    event's size. None when the event has no such round."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT string_agg(version, ',' ORDER BY what) FROM ("
            f"SELECT 'r' || r.id AS what, r.number AS number, r.xmin::text AS version "
            f"FROM {Round._meta.db_table} r WHERE r.event_id = %s "
            "UNION ALL "
            "SELECT 'p' || p.id, NULL, "
            "COALESCE(g.xmin::text, '-') || ':' || COALESCE(t.xmin::text, '-') "
            f"FROM {Pairing._meta.db_table} p "
            f"JOIN {Round._meta.db_table} pr ON pr.id = p.round_id AND pr.number = %s "
            f"LEFT JOIN {Game._meta.db_table} g ON g.id = p.game_id "
            f"LEFT JOIN {Table._meta.db_table} t ON t.id = p.table_id "
            "WHERE p.event_id = %s"
            ") shown HAVING bool_or(number = %s)",
            [event_id, number, event_id, number],
        )
        row = cursor.fetchone()
    return None if row is None or row[0] is None else str(row[0])


def sheet_rows(*, event_id: int, pairing_id: int) -> str | None:
    """The rows a game's score sheet shows beyond what the event's results counter covers
    (its game, whose row every hand writes; its round; its table), as the versions of those
    rows PostgreSQL keeps (``xmin`` moves with every write to a row, by whatever path):
    one look-up by primary key. None when there is no such game in the event."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT g.xmin::text, r.xmin::text, t.xmin::text FROM {Pairing._meta.db_table} p "
            f"LEFT JOIN {Game._meta.db_table} g ON g.id = p.game_id "
            f"LEFT JOIN {Round._meta.db_table} r ON r.id = p.round_id "
            f"LEFT JOIN {Table._meta.db_table} t ON t.id = p.table_id "
            "WHERE p.id = %s AND p.event_id = %s",
            [pairing_id, event_id],
        )
        row = cursor.fetchone()
    return None if row is None else ":".join(str(value) for value in row)
