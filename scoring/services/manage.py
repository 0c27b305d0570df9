"""The organiser's actions on one game (call time, forfeit, the clock), each deciding who may
do it from the actor, as every door calls them. The rules are in games.py and clock.py."""

from __future__ import annotations

from kaiser_club.actors import Actor
from kaiser_club.refusals import role_refused

from ..models import Game
from ..permissions import GameAction
from ..rules import Side
from . import clock, games


def _may_manage(actor: Actor, game: Game) -> None:
    if not actor.has_role(club_id=game.club_id, at_least=GameAction.MANAGE.value):
        raise role_refused(game.club)


def game_call_time_by(*, actor: Actor, game: Game) -> Game:
    _may_manage(actor, game)
    return games.game_call_time(game_id=game.id, by=actor.by)


def game_forfeit_by(*, actor: Actor, game: Game, forfeited_by: Side, reason: str = "") -> Game:
    _may_manage(actor, game)
    return games.game_forfeit(
        game_id=game.id, forfeited_by=forfeited_by, by=actor.by, reason=reason
    )


def clock_pause_by(*, actor: Actor, game: Game) -> Game:
    _may_manage(actor, game)
    return clock.clock_pause(game_id=game.id)


def clock_resume_by(*, actor: Actor, game: Game) -> Game:
    _may_manage(actor, game)
    return clock.clock_resume(game_id=game.id)


def clock_add_minutes_by(*, actor: Actor, game: Game, minutes: int) -> Game:
    _may_manage(actor, game)
    return clock.clock_add_minutes(game_id=game.id, minutes=minutes)
