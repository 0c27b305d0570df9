"""The events app listens to scoring: a finished or changed game moves its pairing (and the
bracket) on; a change to a finished game's winner is refused once the winner played on."""

from __future__ import annotations

import logging
from typing import Any

from scoring.signals import game_changed, game_correcting, game_finished, game_result_changing

from .services.results import game_result_sync, lock_event_of_game, refuse_if_played_on

log = logging.getLogger(__name__)


def on_game_changed(sender: Any, game_id: int, **kwargs: Any) -> None:
    if kwargs.get("outcome_may_change") is False:
        return  # a game in progress before and after: its pairing has no result to move

    # Runs after the game's own commit: a failure here must not turn a recorded hand into an
    # error for the tablet. The beat task resync_missed picks up whatever was missed.
    try:
        game_result_sync(game_id=game_id)
    except Exception:
        log.exception("Could not carry on the result of game %s", game_id)


def on_game_result_changing(sender: Any, game_id: int, over: bool, winner: str, **kw: Any) -> None:
    refuse_if_played_on(
        game_id=game_id, over=over, winner=winner, roll_back=bool(kw.get("roll_back"))
    )


def on_game_correcting(sender: Any, game_id: int, **kwargs: Any) -> None:
    if kwargs.get("roll_back"):  # only a roll back writes to the event (refuse_if_played_on)
        lock_event_of_game(game_id=game_id)


def connect() -> None:
    game_finished.connect(on_game_changed, dispatch_uid="tournaments.game_finished")
    game_changed.connect(on_game_changed, dispatch_uid="tournaments.game_changed")
    game_result_changing.connect(
        on_game_result_changing, dispatch_uid="tournaments.game_result_changing"
    )
    game_correcting.connect(on_game_correcting, dispatch_uid="tournaments.game_correcting")
