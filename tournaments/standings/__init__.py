"""Standings: team standings in the organiser's tie-break order, pools, individual standings
of progressive events, season leaderboards, and elimination placings; cached per event.

- ``rows``, ``metrics``, ``ranking``, ``placings``: plain Python, no database (Tabbycat-style
  metrics registered by name; the ranking with head-to-head mini-tables; bracket placings).
- ``queries``: the aggregate reads, a fixed number of queries however big the event.
- ``versions`` and ``cache``: one-query version stamps, and the cache the pages read, replaced
  when a game changes.
"""

from .cache import EventTables, event_tables, refresh_event, season_table
from .metrics import REGISTRY as METRICS
from .queries import (
    decided,
    event_placings,
    event_player_standings,
    event_standings,
    player_standings,
    pool_standings,
    season_leaderboard,
)
from .ranking import rank
from .rows import Encounter, StandingsRow
from .versions import Versions, event_versions, season_version, with_versions

__all__ = [
    "METRICS",
    "Encounter",
    "EventTables",
    "StandingsRow",
    "Versions",
    "decided",
    "event_placings",
    "event_player_standings",
    "event_standings",
    "event_tables",
    "event_versions",
    "player_standings",
    "pool_standings",
    "rank",
    "refresh_event",
    "season_leaderboard",
    "season_table",
    "season_version",
    "with_versions",
]
