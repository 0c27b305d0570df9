"""Who may do what to a game: the least club role each action needs."""

from __future__ import annotations

from enum import Enum

from kaiser_club.actors import Actor
from kaiser_club.roles import Role

from .models import Game


class GameAction(Enum):
    READ = Role.PLAYER
    RECORD = Role.SCOREKEEPER  # record a hand, undo the last
    MANAGE = Role.ORGANISER  # start, correct, call time, forfeit, clock, history


def may_on_game(*, actor: Actor, action: GameAction, game: Game) -> bool:
    """By the actor's role in the game's club (asked once, or known from the game's read)."""
    return actor.has_role(club_id=game.club_id, at_least=action.value)
