"""A door that serves one game at a time (a table's tablet) moves on to its next game; the
client says which game it showed when the hand was entered (``game_shown``), and a write for a
game the door has left since is refused, the same for every action."""

from __future__ import annotations

from kaiser_club.errors import Conflict
from kaiser_club.sentences import N_

from ..models import Game


def left_game_shown(game_id: int | None, game_shown: int | None) -> bool:
    """Whether the door, now at ``game_id`` (None: at no game), has left the game the client
    showed. Without ``game_shown`` the client named the game itself (the games API)."""
    return game_id is None or (game_shown is not None and game_id != game_shown)


def moved_on() -> Conflict:
    return Conflict(
        N_(
            "This table has moved on to another game since this was entered. "
            "Check the score sheet of the game it was for with the organiser."
        ),
        code="table_moved_on",
    )


def at_game_shown(game: Game | None, game_shown: int | None) -> Game:
    """``game``, the game the door is at (None: at no game), if it is still the one the client
    showed; else refused: the door moved on."""
    if game is None or left_game_shown(game.id, game_shown):
        raise moved_on()
    return game
