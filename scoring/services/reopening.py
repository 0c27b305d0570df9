"""Reopening a finished game by taking back its last hand: one rule for club games and event
games alike (docs/rules.md, "Reopening a finished game").

A finished game's result is read by the ratings, the statistics and (at an event) the
standings, so taking its last hand back is not the table's to do at any time:

- whoever entered the game's last hand may take it back within ``REOPEN_WINDOW`` of the end,
  while no later game of any of its four players has a hand recorded and the two partnerships
  have not both agreed to the result (the table that just finished, noticing a mistyped last
  hand);
- otherwise only an organiser of the club may, saying why; the reason goes into the game's
  history with who reopened it.

Ratings and statistics are read from the finished games (``scoring.ratings``), so a reopened
game leaves them at once, and comes back when it ends again.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, NotAllowed
from kaiser_club.text import clean_text

from ..choices import GameStatus, HandAction
from ..models import Game, GameChange, Hand
from .verification import acknowledged_teams

REOPEN_WINDOW = timedelta(minutes=10)


def reopening_reason(*, game: Game, actor: Actor, director: bool, reason: str) -> str:
    """The reason kept with the take-back of ``game``'s last hand when the game is over (""
    when it is not), or a refusal: the rule above."""
    if game.status != GameStatus.FINISHED or game.forfeited_by:
        return ""  # a forfeit's hands are not taken back at all (``hand_undo_locked`` says so)
    reason = clean_text(reason)
    if just_finished_by(game=game, actor=actor):
        if acknowledged_teams(game=game) >= {"ns", "ew"} and not director:
            raise NotAllowed(
                gettext(
                    "Both partnerships agreed to this result: only an organiser of the club "
                    "can reopen the game now."
                ),
                code="reopen_not_allowed",
            )
        return reason or gettext("Reopened right after it ended, by whoever entered its last hand.")
    if not director:
        raise NotAllowed(
            gettext(
                "This game is over. Only whoever entered its last hand can take it back, within "
                "%(minutes)s minutes of the end and before its players start another game; "
                "after that an organiser of the club reopens or corrects it."
            )
            % {"minutes": int(REOPEN_WINDOW.total_seconds() // 60)},
            code="reopen_not_allowed",
        )
    if not reason:
        message = gettext(
            "Say why this finished game is reopened: the reason is kept in its history, and "
            "its result leaves the ratings and standings until it ends again."
        )
        raise InvalidInput(message, code="reason_required", field_errors={"reason": [message]})
    return reason


def just_finished_by(*, game: Game, actor: Actor) -> bool:
    """Whether ``actor`` entered the last hand of ``game`` and may still take it back."""
    last = last_hand_change(game=game)
    if last is None or last.action != HandAction.RECORD or not _same_writer(last, actor):
        return False
    return still_reopenable_by_its_table(game=game)


def still_reopenable_by_its_table(*, game: Game) -> bool:
    """Whether ``game`` ended within the window and none of its players has had a hand
    recorded in another game since (the one who entered its last hand may take it back)."""
    ended = game.ended_at
    if ended is None or timezone.now() - ended > REOPEN_WINDOW:
        return False
    return not _played_on(game, since=ended)


# The changes that make or unmake a hand: what "the last thing done at this game" means.
HAND_CHANGES = (HandAction.RECORD, HandAction.UNDO, HandAction.CORRECT, HandAction.DISCARD)


def last_hand_change(*, game: Game) -> GameChange | None:
    """The latest record, undo, correction or discard of a hand at ``game``."""
    return (
        GameChange.objects.filter(game=game, action__in=HAND_CHANGES)
        .order_by("-at", "-id")
        .only("action", "by_id", "by_label")
        .first()
    )


def _same_writer(change: GameChange, actor: Actor) -> bool:
    if actor.by is not None:
        return change.by_id == actor.by.id
    return bool(actor.label) and change.by_id is None and change.by_label == actor.label


def _played_on(game: Game, *, since: datetime) -> bool:
    players = [game.north_id, game.east_id, game.south_id, game.west_id]
    seated = (
        Q(north_id__in=players)
        | Q(east_id__in=players)
        | Q(south_id__in=players)
        | Q(west_id__in=players)
    )
    later = Game.objects.filter(seated).exclude(id=game.id)
    return Hand.with_pending.filter(game__in=later, recorded_at__gt=since).exists()
