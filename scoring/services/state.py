"""The one path from stored rows to the rules engine and back: lock a game, replay its hands,
write the derived state. Every write service goes through here."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from kaiser_club.errors import NotFound
from kaiser_club.sentences import N_
from kaiser_club.text import clean_reason

from ..choices import GameStatus, HandAction
from ..models import Game, GameChange, Hand
from ..rows_and_rules import (
    DERIVED_HAND_FIELDS,
    entry_as_json,
    game_rules,
    hand_to_entry,
    result_fields,
    state_fields,
)
from ..rules import GameState, HandEntry, HandRefused, Seat, Side, replay
from ..signals import game_changed, game_finished, game_result_changing


def lock_game(game_id: int, *, related: Sequence[str] = ()) -> Game:
    """The game row, locked until the transaction ends: writes to one game go one at a time.
    ``related``: rows read with it (``select_related`` paths), not locked."""
    games = (
        Game.objects.select_for_update(of=("self",)).select_related(*related)
        if related
        else Game.objects.select_for_update()
    )
    try:
        return games.get(id=game_id)
    except Game.DoesNotExist:
        raise NotFound(N_("There is no game %(game_id)s.", game_id=game_id)) from None


def stored_entries(game: Game) -> list[Hand]:
    return list(game.hands.order_by("number"))


def replay_entries(game: Game, entries: Iterable[HandEntry]) -> GameState:
    """Raises HandRefused if the entries no longer make a valid game."""
    return replay(
        game_rules(game),
        Seat(game.first_dealer),
        entries,
        time_called_at=game.time_called_at,
        forfeited_by=Side(game.forfeited_by) if game.forfeited_by else None,
    )


def current_state(game: Game, hands: list[Hand] | None = None) -> GameState:
    rows = stored_entries(game) if hands is None else hands
    try:
        return replay_entries(game, (hand_to_entry(h) for h in rows))
    except HandRefused as exc:  # stored hands were valid when written; rules are copied per game
        raise RuntimeError(f"Game {game.id}'s stored hands no longer replay: {exc}") from exc


def call_time_if_due(game: Game, *, now: datetime | None = None) -> bool:
    """Calls time at the deadline itself (not at whenever someone noticed). True if it did."""
    now = now or timezone.now()
    deadline = game.deadline
    if (
        game.status != GameStatus.IN_PROGRESS
        or game.time_called_at is not None
        or game.paused_at is not None
        or deadline is None
        or now < deadline
    ):
        return False
    # Never before a hand already recorded was completed: a hand entered while time was not up
    # counts as before the call, so the clock can neither end a game on a hand it never saw nor
    # make a recorded hand one too many (after minutes were taken off, say).
    last_completed = game.hands.aggregate(last=Max("completed_at"))["last"]
    game.time_called_at = max(deadline, last_completed) if last_completed else deadline
    GameChange.objects.create(game=game, action=HandAction.CALL_TIME, by_label="clock")
    return True


def first_broken_hand(game: Game, entries: list[HandEntry]) -> int:
    """The number of the first of ``entries`` that the game (as it now stands) refuses."""
    for count in range(1, len(entries) + 1):
        try:
            replay_entries(game, entries[:count])
        except HandRefused:
            return count
    return len(entries)


def write_hand_results(hands: list[Hand], state: GameState) -> None:
    """Writes the derived columns the replay changed back onto the stored hands."""
    changed = []
    for hand, result in zip(hands, state.hands, strict=True):
        fields = result_fields(result)
        if any(getattr(hand, name) != fields[name] for name in DERIVED_HAND_FIELDS):
            for name in DERIVED_HAND_FIELDS:
                setattr(hand, name, fields[name])
            changed.append(hand)
    if changed:
        Hand.objects.bulk_update(changed, DERIVED_HAND_FIELDS)


def guard_result_change(game: Game, state: GameState, *, roll_back: bool = False) -> None:
    """Lets listeners refuse (by raising) a change to the outcome of a game that had ended;
    ``roll_back``: the later games it fed may be rolled back rather than refuse."""
    if game.status != GameStatus.FINISHED:
        return
    winner = state.winner.value if state.over and state.winner else ""
    if state.over and winner == game.winner:
        return
    game_result_changing.send(
        sender=Game, game_id=game.id, over=state.over, winner=winner, roll_back=roll_back
    )


def game_fields(game: Game, state: GameState, *, now: datetime) -> dict[str, Any]:
    """The columns of ``game``'s row that a write of ``state`` sets: the derived state, when
    it ended, the clock's call, the version and the time of the change."""
    fields = state_fields(state)
    fields["ended_at"] = (game.ended_at or now) if state.over else None
    fields["time_called_at"] = game.time_called_at
    fields["version"] = game.version + 1
    fields["updated_at"] = now
    return fields


def update_if_version(game: Game, fields: dict[str, Any]) -> bool:
    """Writes ``fields`` to ``game``'s row if it is still at ``game.version`` (the version
    read): False, with nothing written, if another write moved it on meanwhile."""
    return Game.objects.filter(id=game.id, version=game.version).update(**fields) == 1


def save_state(game: Game, state: GameState) -> None:
    """Saves ``game`` (locked by the caller) at ``state``, with any other change made to it."""
    was_finished = game.status == GameStatus.FINISHED
    for name, value in game_fields(game, state, now=timezone.now()).items():
        setattr(game, name, value)
    game.save()
    announce(game.id, was_finished=was_finished, over=state.over)


def announce(game_id: int, *, was_finished: bool, over: bool) -> None:
    """After the commit: the game changed (and finished). A change to a game in progress
    before and after it moves no result anywhere (``outcome_may_change`` False), so that the
    listeners need not look (the public pages' version moved with the row itself)."""
    changed = partial(
        game_changed.send,
        sender=Game,
        game_id=game_id,
        outcome_may_change=was_finished or over,
    )
    transaction.on_commit(changed)
    if over and not was_finished:
        transaction.on_commit(partial(game_finished.send, sender=Game, game_id=game_id))


def audit(
    game: Game,
    action: str,
    *,
    by: User | None = None,
    by_label: str = "",
    hand_number: int | None = None,
    before: HandEntry | None = None,
    after: HandEntry | None = None,
    reason: str = "",
) -> GameChange:
    """Saves the game's history line for a change."""
    line = GameChange(
        game=game,
        action=action,
        by=by if getattr(by, "is_authenticated", False) else None,
        by_label=by_label,
        hand_number=hand_number,
        before=entry_as_json(before) if before else None,
        after=entry_as_json(after) if after else None,
        reason=clean_reason(reason),
    )
    line.save(force_insert=True)
    return line
