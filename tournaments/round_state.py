"""A round's state in words, the same on every page: its status, or what it is waiting for.

Read from a round as ``selectors.rounds_of`` annotates it: how many games it has, how many are
still played, and how many of those have their clock paused."""

from __future__ import annotations

from django.utils.translation import gettext as _

from .choices import RoundStatus
from .models import Round


def round_state(round_: Round) -> str:
    games = getattr(round_, "games", None)
    playing = getattr(round_, "playing", 0)
    paused = getattr(round_, "paused", 0)
    if round_.status == RoundStatus.READY and games == 0:
        # A bracket's later round: its games are drawn as the games feeding it end.
        return _("Waiting for the games before it")
    if round_.status == RoundStatus.STARTED and playing and paused == playing:
        return _("Paused")
    return str(round_.get_status_display())
