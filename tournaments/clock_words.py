"""A game's clock as the organiser reads it: the time left ("12 min left"), never the
deadline's hour; nothing at all for a game without a clock."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.choices import GameStatus


def minutes_left(game: Any, now: datetime | None = None) -> int | None:
    """Whole minutes left on the game's clock (rounded up; 0 once time is up), or None when
    the game has no running or paused clock."""
    deadline = getattr(game, "deadline", None)
    if deadline is None or game.time_called_at is not None:
        return None
    at = game.paused_at or now or timezone.now()
    return max(0, math.ceil((deadline - at).total_seconds() / 60))


def clock_text(game: Any, now: datetime | None = None) -> str:
    """'12 min left', 'paused · 12 min left', 'time called', 'not started', or '' (no clock,
    or the game is over)."""
    if game is None or game.status != GameStatus.IN_PROGRESS:
        return ""
    if game.time_limit_minutes is None:
        return ""
    if game.time_called_at is not None:
        return _("time called")
    if game.started_at is None:
        return _("not started")
    left = minutes_left(game, now)
    assert left is not None
    words = ngettext("%(n)s min left", "%(n)s min left", left) % {"n": left}
    if game.paused_at is not None:
        return _("paused · %(left)s") % {"left": words}
    return words


def has_clock(event: Any) -> bool:
    """Whether the event's games play against a clock (a time limit is set)."""
    return bool(event.time_limit)
