"""Standings kept in the Django cache, replaced when a game changes, never by a timeout.

Each entry is stored with the version it was computed from (``versions.py``). When a
transaction that records, confirms, undoes or corrects a hand commits, scoring sends
``game_changed``; the receiver here finds the event through the game's pairing and replaces the
entry if the event's results moved (a finished game, a correction to one); a hand in a game
still in progress leaves the standings as they are. Readers check the version too (one query),
so whatever else changes a result (a forfeit or a bye recorded by the organiser, a process
whose cache the receiver did not reach) is never served stale. With Redis away the cache
answers as an empty one (``kaiser_club/cache.py``): every reader computes the standings, and
an entry written before the outage is still checked against the version when Redis is back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models import OuterRef, Subquery

from kaiser_club import broker
from scoring.choices import GameStatus, HandAction
from scoring.models import GameChange
from scoring.signals import game_changed

from ..choices import DEFAULT_TIEBREAKS, EventKind, ResultKind
from ..models import Event, Pairing, Season
from .placings import after_first_stage, after_pools
from .queries import (
    bracket_matches,
    event_placings,
    event_player_standings,
    event_standings,
    pool_standings,
    season_leaderboard,
)
from .rows import StandingsRow
from .versions import event_versions, season_version, with_versions

log = logging.getLogger(__name__)

PREFIX = "kaiser:standings:v3"  # v3: a staged event's first stage
# What a game in progress records hand by hand: none of it can change a result.
HANDS_ADDED = (HandAction.RECORD, HandAction.CONFIRM, HandAction.DISCARD)
T = TypeVar("T")


@dataclass
class EventTables:
    """Everything the standings of one event show. ``placings`` is THE event's order, for
    every format: the API, the organiser's pages, the public pages, the projector, the PDF and
    the CSV all print it (``StandingsRow.place_text``: "5=" for a shared fifth).

    - "teams" (round robin, Swiss) and "players" (progressive): ranked by the event's
      tie-breaks; rows no tie-break separates share a place.
    - "placings" (single and double elimination): the bracket's placings; the teams still
      playing first, with no place yet.
    - "pools": the knockout's placings, then the teams the pools eliminated, by their place
      in their pool (``placings.after_pools``); ``pools`` holds each pool's own table, and
      ``knockout`` says whether the knockout has been drawn.
    - "staged" (a Swiss or round robin, then a knockout): the knockout's placings, then the
      teams that did not go on, by the first stage's standings
      (``placings.after_first_stage``); ``first_stage`` holds that stage's own table.
    """

    kind: str  # "teams", "players" (progressive), "placings" (elimination), "pools", "staged"
    order_by: list[str]
    placings: list[StandingsRow] = field(default_factory=list)
    pools: dict[int, list[StandingsRow]] = field(default_factory=dict)
    knockout: bool = False
    first_stage: list[StandingsRow] = field(default_factory=list)

    @property
    def rows(self) -> list[StandingsRow]:
        """The ranked table of a round robin, Swiss or progressive event (its placings)."""
        return self.placings if self.kind in ("teams", "players") else []

    def top(self, last: int) -> list[StandingsRow]:
        """The rows placed ``last`` or better, every row sharing a place included (two teams
        sharing 5th both appear in a top five)."""
        return [row for row in self.placings if 0 < row.place <= last]


def compute_event_tables(event: Event) -> EventTables:
    """The event's standings, computed now (a fixed number of queries)."""
    order_by = list(event.tiebreaks or DEFAULT_TIEBREAKS)
    if event.individual:
        return EventTables("players", order_by, placings=event_player_standings(event=event))
    if event.is_bracket:
        return EventTables("placings", order_by, placings=event_placings(event=event))
    if event.format == "pools":
        pools = pool_standings(event=event)
        knockout = event_placings(event=event) if bracket_matches(event) else []
        return EventTables(
            "pools",
            order_by,
            placings=after_pools(knockout, pools),
            pools=pools,
            knockout=bool(knockout),
        )
    if event.staged:
        stage = event_standings(event=event, first_stage=True)
        knockout = event_placings(event=event) if bracket_matches(event) else []
        return EventTables(
            "staged",
            order_by,
            placings=after_first_stage(knockout, stage),
            first_stage=stage,
            knockout=bool(knockout),
        )
    return EventTables("teams", order_by, placings=event_standings(event=event))


def _cached(key: str, version: str, compute: Callable[[], T]) -> T:
    hit = cache.get(key)
    if hit is not None and hit[0] == version:
        return hit[1]  # type: ignore[no-any-return]
    value = compute()
    cache.set(key, (version, value), timeout=None)
    return value


def event_key(event_id: int) -> str:
    return f"{PREFIX}:event:{event_id}"


def season_key(season_id: int) -> str:
    return f"{PREFIX}:season:{season_id}"


def event_tables(*, event: Event, version: str | None = None) -> EventTables:
    """THE selector of an event's standings and placings, which every surface reads: from the
    cache when they are still current. ``version``: the
    event's results version if the caller already has it (otherwise one query reads it)."""
    version = version or event_versions(event).results
    return _cached(event_key(event.id), version, lambda: compute_event_tables(event))


def season_table(*, season: Season, version: str | None = None) -> list[StandingsRow]:
    version = version or season_version(season)
    return _cached(season_key(season.id), version, lambda: season_leaderboard(season=season))


def refresh_event(event_id: int) -> bool:
    """Replaces the event's cached standings (and its season's leaderboard) if its results
    moved. True if anything was recomputed."""
    event = with_versions(Event.objects.select_related("season").filter(pk=event_id)).first()
    if event is None:
        return False
    version = event_versions(event).results
    hit = cache.get(event_key(event_id))
    changed = hit is None or hit[0] != version
    if changed:
        cache.set(event_key(event_id), (version, compute_event_tables(event)), timeout=None)
    season = event.season
    if changed and season is not None and event.kind == EventKind.CLUB_NIGHT:
        season_version_now = season_version(season)
        cache.set(
            season_key(season.id),
            (season_version_now, season_leaderboard(season=season)),
            timeout=None,
        )
    return changed


def on_game_changed(sender: Any, game_id: int, **kwargs: Any) -> None:
    """Sent after the hand's transaction committed (and after the events app carried the
    game's result to its pairing: this receiver is connected after that one). A hand added to a
    game still being played leaves every result as it was: nothing to do but this one lookup.
    Anything else (the game ended; a correction or an undo, which may have taken a result
    back) has the event's standings recomputed by a Celery task, so that the tablet's answer
    does not wait for them (at once, in the request, when there is no broker). A change the
    sender says moves no result (``outcome_may_change`` False) needs not even the lookup."""
    if kwargs.get("outcome_may_change") is False:
        return
    try:
        last_change = GameChange.objects.filter(game_id=OuterRef("game_id")).order_by("-id")
        row = (
            Pairing.objects.filter(game_id=game_id)
            .values("event_id", "result", "game__status")
            .annotate(last_action=Subquery(last_change.values("action")[:1]))
            .first()
        )
        if row is None:
            return
        if (
            row["result"] == ResultKind.PENDING
            and row["game__status"] == GameStatus.IN_PROGRESS
            and row["last_action"] in HANDS_ADDED
        ):
            return
        _queue_refresh(row["event_id"])
    except Exception:  # the hand is recorded; a reader recomputes from the version anyway
        log.exception("Could not refresh the standings after game %s changed", game_id)


def _queue_refresh(event_id: int) -> None:
    try:  # no retries, and none at all in an outage noticed a moment ago (kaiser_club/broker.py)
        broker.send("tournaments.refresh_standings", event_id)
    except Exception as exc:  # broker.Unreachable, or the task failed (no broker: it ran here)
        log.info("Standings of event %s computed in the request (%s)", event_id, exc)
        refresh_event(event_id)


def connect() -> None:
    game_changed.connect(on_game_changed, dispatch_uid="tournaments.standings.cache")
