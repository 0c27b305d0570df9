"""When a hand was played, as the server decides it (docs/rules.md, "When a hand was played").

A tablet says when it finished a hand, but the clock rule cannot rest on a client's clock: a
table could date every hand before time was called and play on. So the server takes the
table's word only where it can check it:

- never after the hand reached the server, never before the game's previous hand, nor before
  the game began (its clock's start, or its creation; a game entered from a paper sheet
  afterwards has no clock, and its hands were played before it was entered);
- once time has been called at T, only the first hand to reach the server after the call (no
  other hand, pending ones included, received since T) may be dated at or before T: the hand
  a tablet finished offline before the call and sent after it. Every later hand is after the
  call, whatever the table says.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Max

from ..models import Game, Hand

TICK = timedelta(microseconds=1)


def hand_played_at(*, game: Game, said: datetime | None, now: datetime) -> datetime:
    """The time the hand about to be recorded at ``game`` counts as played: ``said`` (the
    table's word; None is now) within the bounds above."""
    at = now if said is None or said > now else said
    if at < _last_change(game):
        earliest = _earliest(game)
        at = at if earliest is None else max(at, earliest)
    called = game.time_called_at
    if called is not None and at <= called and _received_since(game, called):
        at = max(now, called + TICK)
    return at


def _last_change(game: Game) -> datetime:
    """A moment no earlier than the previous hand's time: the game row's last write. A hand
    dated after it needs no read of the hands."""
    return max(moment for moment in (game.updated_at, game.started_at) if moment is not None)


def _earliest(game: Game) -> datetime | None:
    """The previous hand's time, or the game's start (or creation) when it has none."""
    previous = game.hands.aggregate(last=Max("completed_at"))["last"]
    start = None if game.from_paper else game.started_at or game.created_at
    return max((moment for moment in (previous, start) if moment is not None), default=None)


def _received_since(game: Game, called: datetime) -> bool:
    """Whether a hand (pending ones too) reached the server after time was called."""
    return Hand.with_pending.filter(game=game, recorded_at__gt=called).exists()
