"""Every write to games and hands. Each service runs in one transaction and locks the game row."""

from .clock import clock_add_minutes, clock_pause, clock_resume, clock_start, clock_sweep
from .games import (
    game_call_time,
    game_forfeit,
    game_seat_player,
    game_start,
    games_start_many,
    rules_from,
)
from .hands import Recorded, hand_correct, hand_record, hand_undo_last

__all__ = [
    "Recorded",
    "clock_add_minutes",
    "clock_pause",
    "clock_resume",
    "clock_start",
    "clock_sweep",
    "game_call_time",
    "game_forfeit",
    "game_seat_player",
    "game_start",
    "games_start_many",
    "hand_correct",
    "hand_record",
    "hand_undo_last",
    "rules_from",
]
