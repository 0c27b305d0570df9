"""Who may do what to a game: the least club role each action needs."""

from __future__ import annotations

from enum import Enum

from kaiser_club.roles import Role
from kaiser_club.selectors import AnyUser, has_role

from .models import Game


class GameAction(Enum):
    READ = Role.PLAYER
    RECORD = Role.SCOREKEEPER  # record a hand, undo the last
    MANAGE = Role.ORGANISER  # start, correct, call time, forfeit, clock, history


def may(*, user: AnyUser, action: GameAction, club_id: int | None) -> bool:
    return has_role(user=user, club_id=club_id, at_least=action.value)


def may_on_game(*, user: AnyUser, action: GameAction, game: Game) -> bool:
    return may(user=user, action=action, club_id=game.club_id)
