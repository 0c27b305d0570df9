"""Every write of the events app. Each service is one transaction; work on one event is
serialised by locking the event's row."""

from .csv_import import ImportResult, entries_import, parse
from .entries import (
    entry_check_in,
    entry_check_in_all,
    entry_register_player,
    entry_register_player_by_name,
    entry_register_team,
    entry_register_team_by_names,
    entry_reinstate,
    entry_substitute,
    entry_update,
    entry_withdraw,
)
from .events import event_change_rules, event_create, event_update, season_create
from .generation import generate, generation_request, generation_run
from .results import (
    game_result_sync,
    pairing_adjust,
    pairing_forfeit,
    pairing_mark_late,
    pairing_rollback,
    pairing_set_bye_points,
    rollback_preview,
)
from .rounds import (
    pairing_clock,
    round_add_minutes,
    round_pause,
    round_resume,
    round_start,
    round_start_waiting,
    round_swap_tables,
    round_swap_teams,
)
from .tables import display_code, normalise_code, table_add, table_path, table_renew, table_revoke

__all__ = [
    "ImportResult",
    "display_code",
    "entries_import",
    "entry_check_in",
    "entry_check_in_all",
    "entry_register_player",
    "entry_register_player_by_name",
    "entry_register_team",
    "entry_register_team_by_names",
    "entry_reinstate",
    "entry_substitute",
    "entry_update",
    "entry_withdraw",
    "event_change_rules",
    "event_create",
    "event_update",
    "game_result_sync",
    "generate",
    "generation_request",
    "generation_run",
    "normalise_code",
    "pairing_adjust",
    "pairing_clock",
    "pairing_forfeit",
    "pairing_mark_late",
    "pairing_rollback",
    "pairing_set_bye_points",
    "parse",
    "rollback_preview",
    "round_add_minutes",
    "round_pause",
    "round_resume",
    "round_start",
    "round_start_waiting",
    "round_swap_tables",
    "round_swap_teams",
    "season_create",
    "table_add",
    "table_path",
    "table_renew",
    "table_revoke",
]
