"""Every write to games and hands. Each service runs in one transaction and locks the game row."""

from .clock import clock_add_minutes, clock_pause, clock_resume, clock_start, clock_sweep
from .games import (
    game_call_time,
    game_create,
    game_forfeit,
    game_seat_player,
    game_start,
    games_start_many,
    rules_from,
)
from .hands import Recorded, hand_correct, hand_record, hand_undo_last
from .manage import (
    clock_add_minutes_by,
    clock_pause_by,
    clock_resume_by,
    game_call_time_by,
    game_forfeit_by,
)
from .play import hand_fix, hand_submit, hand_take_back
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
    "game_seat_player",
    "game_start",
    "games_start_many",
    "hand_correct",
    "hand_fix",
    "hand_record",
    "hand_submit",
    "hand_take_back",
    "hand_undo_last",
    "rules_from",
    "team_create",
]
