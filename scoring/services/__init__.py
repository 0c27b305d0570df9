"""Every write to games and hands. Each service runs in one transaction and locks the game row.

One verb per action, in two layers: ``hand_record_by``, ``hand_correct_by``, ``hand_undo_by``,
``clock_pause_by``... take the actor and decide who may act under the event's rules (every door
calls these); ``hand_record``, ``hand_correct``, ``hand_undo``, ``clock_pause``... are the same
actions' rules, for the system itself (the clock sweep, imports, demo data)."""

from .clock import clock_add_minutes, clock_pause, clock_resume, clock_start, clock_sweep
from .games import (
    game_call_time,
    game_create,
    game_forfeit,
    game_forfeit_undo,
    game_seat_player,
    game_start,
    games_start_many,
    rules_from,
)
from .hands import Recorded, hand_correct, hand_record, hand_undo
from .manage import (
    clock_add_minutes_by,
    clock_pause_by,
    clock_resume_by,
    game_call_time_by,
    game_forfeit_by,
)
from .play import hand_correct_by, hand_record_by, hand_undo_by
from .teams import team_create

__all__ = [
    "Recorded",
    "clock_add_minutes",
    "clock_add_minutes_by",
    "clock_pause",
    "clock_pause_by",
    "clock_resume",
    "clock_resume_by",
    "clock_start",
    "clock_sweep",
    "game_call_time",
    "game_call_time_by",
    "game_create",
    "game_forfeit",
    "game_forfeit_by",
    "game_forfeit_undo",
    "game_seat_player",
    "game_start",
    "games_start_many",
    "hand_correct",
    "hand_correct_by",
    "hand_record",
    "hand_record_by",
    "hand_undo",
    "hand_undo_by",
    "rules_from",
    "team_create",
]
