"""The clock: docs/rules.md, "The clock" (a decision following the card-game tournaments
that publish one).

Once time is called at T, a hand completed at or before T (or with no completion time)
counts as before the call. The first hand completed after T is the hand in play: it counts,
and every later hand is after time too. After a played hand after time, unless that hand
ended the game by the rules, the higher score wins on time; on equal scores one more hand is
played at a time until one breaks the tie. A misdeal completes no hand, so it is never the
hand that ends a game on time: the re-deal is.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from scoring.rules.results import Ending, HandResult
from scoring.rules.types import EndReason, HandEntry, HandKind, Side

if TYPE_CHECKING:
    from scoring.rules.game import GameState


def is_after_time(state: GameState, entry: HandEntry) -> bool:
    """The hand was completed after time was called, or follows one that was."""
    called = state.time_called_at
    if called is None:
        return False
    if state.any_after_time:
        return True
    return entry.completed_at is not None and entry.completed_at > called


def end_on_time(result: HandResult) -> Ending | None:
    """After time: a played hand with unequal scores ends the game; the higher score wins."""
    if not result.after_time or result.entry.kind is HandKind.MISDEAL:
        return None
    if result.scores.ns == result.scores.ew:
        return None
    return (Side.NS if result.scores.ns > result.scores.ew else Side.EW, EndReason.TIME)


def awaiting_hand_in_play(called: datetime | None, hands: Iterable[HandResult], over: bool) -> bool:
    """Time was called and no hand has been played since: the hand in play is awaited."""
    if called is None or over:
        return False
    return not any(hand.after_time and hand.entry.kind is HandKind.PLAYED for hand in hands)
