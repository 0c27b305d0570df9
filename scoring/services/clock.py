"""The game clock: start, pause, resume, add minutes, and the sweep that calls time on every
game past its deadline whether or not a tablet is open."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from kaiser_club.errors import InvalidInput
from kaiser_club.sentences import N_

from ..choices import GameStatus
from ..models import Game
from .state import call_time_if_due, current_state, lock_game, save_state

MAX_ADDED_MINUTES = 600


def _running(game: Game) -> None:
    if game.status == GameStatus.FINISHED:
        raise InvalidInput(N_("This game is over; its clock cannot change."))
    if game.time_limit_minutes is None:
        raise InvalidInput(N_("This game has no time limit."))


@transaction.atomic
def clock_start(*, game_id: int, at: datetime | None = None) -> Game:
    game = lock_game(game_id)
    _running(game)
    if game.started_at is None:
        game.started_at = at or timezone.now()
        game.version += 1  # a hand judged on the clock as it was is judged again
        game.save(update_fields=["started_at", "version", "updated_at"])
    return game


@transaction.atomic
def clock_pause(*, game_id: int) -> Game:
    game = lock_game(game_id)
    _running(game)
    if game.time_called_at is not None:
        raise InvalidInput(N_("Time has already been called in this game."))
    if game.paused_at is None:
        game.paused_at = timezone.now()
        game.version += 1  # a hand judged on the clock as it was is judged again
        game.save(update_fields=["paused_at", "version", "updated_at"])
    return game


@transaction.atomic
def clock_resume(*, game_id: int) -> Game:
    game = lock_game(game_id)
    _running(game)
    if game.paused_at is not None:
        game.paused_seconds += int((timezone.now() - game.paused_at).total_seconds())
        game.paused_at = None
        game.version += 1  # a hand judged on the clock as it was is judged again
        game.save(update_fields=["paused_at", "paused_seconds", "version", "updated_at"])
    return game


@transaction.atomic
def clock_add_minutes(*, game_id: int, minutes: int) -> Game:
    game = lock_game(game_id)
    _running(game)
    if game.time_called_at is not None:
        raise InvalidInput(N_("Time has already been called; minutes can no longer be added."))
    _check_new_deadline(game, minutes)
    game.added_minutes += minutes
    game.version += 1  # a hand judged on the clock as it was is judged again
    game.save(update_fields=["added_minutes", "version", "updated_at"])
    return game


def _check_new_deadline(game: Game, minutes: int) -> None:
    """The minutes added in all stay within a day's play, and never take away more than the
    game's time. Taken away past a hand already finished, time is called at that hand, not
    before it (``call_time_if_due``): the game goes on with the hand in play."""
    total = game.added_minutes + minutes
    if total > MAX_ADDED_MINUTES:
        raise InvalidInput(
            N_(
                "At most %(most)s minutes can be added to a game in all; "
                "%(added_minutes)s are already added.",
                most=MAX_ADDED_MINUTES,
                added_minutes=game.added_minutes,
            )
        )
    if minutes >= 0:
        return
    limit = game.time_limit_minutes or 0
    if limit + total < 0:
        raise InvalidInput(
            N_(
                "Only %(most)s minutes can be taken away from this game's time.",
                most=limit + game.added_minutes,
            )
        )


def clock_sweep(*, now: datetime | None = None) -> list[int]:
    """Calls time on every game past its deadline. Idempotent; re-reads each deadline under the
    row lock, so a pause or added minutes since the candidate query are respected."""
    now = now or timezone.now()
    running = Game.objects.filter(
        status=GameStatus.IN_PROGRESS,
        time_called_at__isnull=True,
        paused_at__isnull=True,
        started_at__isnull=False,
        time_limit_minutes__isnull=False,
    ).only("id", "started_at", "time_limit_minutes", "added_minutes", "paused_seconds")
    called = []
    for candidate in running:
        if candidate.deadline is None or candidate.deadline > now:
            continue
        with transaction.atomic():
            game = lock_game(candidate.id)
            if call_time_if_due(game, now=now):
                save_state(game, current_state(game))
                called.append(game.id)
    return called
