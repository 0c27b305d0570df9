"""Writes to a game's hands: record, undo the last, correct a past one."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from kaiser_club.errors import InvalidInput, NotFound
from kaiser_club.sentences import N_, Np_

from ..choices import GameStatus, HandAction, HandStatus
from ..convert import (
    DERIVED_HAND_FIELDS,
    entry_as_json,
    entry_fields,
    hand_to_entry,
    kept_state,
    result_fields,
)
from ..errors import ClientIdReused, HandAwaitingConfirmation, HandNotAccepted, StaleGame
from ..models import Game, Hand
from ..rules import HandEntry, HandRefused, apply_hand
from .kept_write import write_kept_hand
from .state import (
    announce_saved,
    audit,
    call_time_if_due,
    change_line,
    current_state,
    first_broken_hand,
    guard_result_change,
    kept_fields,
    lock_game,
    replay_entries,
    save_state,
)


@dataclass(frozen=True)
class Recorded:
    hand: Hand
    game: Game
    created: bool  # False when the same submission was seen before (a retry)


def request_digest(entry: HandEntry) -> str:
    body = json.dumps(entry_as_json(entry), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def _check_expected_number(game: Game, number: int | None) -> None:
    if number is not None and number != game.hand_count + 1:
        raise StaleGame(
            Np_(
                "This entry was for hand %(number)s, but the game has %(count)s hand recorded: "
                "it moved on meanwhile. Check the score sheet and enter the hand again if it is "
                "still missing.",
                "This entry was for hand %(number)s, but the game has %(count)s hands recorded: "
                "it moved on meanwhile. Check the score sheet and enter the hand again if it is "
                "still missing.",
                number=number,
                count=game.hand_count,
            ),
            game_id=game.id,
        )


def hand_record(
    *,
    game_id: int,
    entry: HandEntry,
    client_id: uuid.UUID,
    number: int | None = None,
    by: User | None = None,
    by_label: str = "",
    pending: bool = False,
    entered_by_seat: int | None = None,
    seen: Game | None = None,
) -> Recorded:
    """Records the next hand. ``number`` is the hand the client means to record: if the game
    has moved on, the write is refused as stale. The same ``client_id`` with the same body
    answers with the hand already recorded; with another body it is refused. A ``pending``
    hand (verification) is checked and stored but counts nowhere until it is confirmed
    (``scoring.services.verification``); while one waits, no other hand is recorded.

    ``seen``: the game's row as the caller has just read it (unlocked). The hand is then
    applied to the state that row keeps and written only if the row is still that version
    (three statements: the game, the hand, its history line); anything else (the game moved
    on, a retry, a refusal, a pending hand, the clock due) takes the locked path below, which
    replays the whole game and says why."""
    if seen is not None and seen.id == game_id:
        done = _record_on_kept(
            seen,
            entry=entry,
            client_id=client_id,
            number=number,
            by=by,
            by_label=by_label,
            pending=pending,
            entered_by_seat=entered_by_seat,
        )
        if done is not None:
            return done
    return _record_locked(
        game_id=game_id,
        entry=entry,
        client_id=client_id,
        number=number,
        by=by,
        by_label=by_label,
        pending=pending,
        entered_by_seat=entered_by_seat,
    )


def _record_on_kept(
    game: Game,
    *,
    entry: HandEntry,
    client_id: uuid.UUID,
    number: int | None,
    by: User | None,
    by_label: str,
    pending: bool,
    entered_by_seat: int | None,
) -> Recorded | None:
    """The hand applied to the state the game's row keeps, or None to take the locked path."""
    if game.status != GameStatus.IN_PROGRESS or game.forfeited_by:
        return None
    if number is not None and number != game.hand_count + 1:
        return None  # a retry, or a stale page: the locked path tells which
    now = timezone.now()
    deadline = game.deadline
    due = game.time_called_at is None and game.paused_at is None
    if due and deadline is not None and now >= deadline:
        return None  # time is to be called first: the locked path does it
    digest = request_digest(entry)  # of what was sent, as the locked path has it
    if entry.completed_at is None or entry.completed_at > now:
        entry = dataclasses.replace(entry, completed_at=now)
    before = kept_state(game)
    try:
        state = apply_hand(before, entry)
    except HandRefused:
        return None  # said by the locked path, after a pending hand or a retry
    result = state.hands[-1]
    kept = before if pending else state
    fields = kept_fields(game, kept, now=now)
    hand = _new_hand(
        game,
        entry=entry,
        result=result,
        client_id=client_id,
        digest=digest,
        pending=pending,
        entered_by_seat=entered_by_seat,
        by=by,
    )
    change = change_line(
        game, HandAction.RECORD, by=by, by_label=by_label, hand_number=hand.number, after=entry
    )
    try:
        if not write_kept_hand(game, fields, hand, change):
            return None  # the game moved on since it was read
    except IntegrityError:
        return None  # a retry (its id is taken) or a pending hand (its number is)
    announce_saved(game, kept)
    for name, value in fields.items():
        setattr(game, name, value)
    return Recorded(hand=hand, game=game, created=True)


@transaction.atomic
def _record_locked(
    *,
    game_id: int,
    entry: HandEntry,
    client_id: uuid.UUID,
    number: int | None,
    by: User | None,
    by_label: str,
    pending: bool,
    entered_by_seat: int | None,
) -> Recorded:
    game = lock_game(game_id)
    digest = request_digest(entry)
    existing = Hand.with_pending.filter(game=game, client_id=client_id).first()
    if existing is not None:
        if existing.request_digest != digest:
            raise ClientIdReused(
                N_(
                    "Hand id %(client_id)s was already used for hand %(number)s with other "
                    "details. Each new hand needs a new id.",
                    client_id=str(client_id),
                    number=existing.number,
                ),
                extra={"hand_number": existing.number},
            )
        return Recorded(hand=existing, game=game, created=False)
    waiting = Hand.with_pending.filter(game=game, status=HandStatus.PENDING).first()
    if waiting is not None:
        raise HandAwaitingConfirmation(waiting.number)
    _check_expected_number(game, number)

    now = timezone.now()
    if entry.completed_at is None or entry.completed_at > now:
        # A hand is not completed in the future: a tablet's clock running ahead is read as now,
        # so the clock rule never places a hand after a call that had not yet been made.
        entry = dataclasses.replace(entry, completed_at=now)
    # Past the deadline the hand is judged with time called (a refusal rolls the call back;
    # the clock sweep makes it again, at the same deadline).
    call_time_if_due(game)
    before = current_state(game)
    state = apply_hand_checked(before, entry)
    result = state.hands[-1]
    hand = _new_hand(
        game,
        entry=entry,
        result=result,
        client_id=client_id,
        digest=digest,
        pending=pending,
        entered_by_seat=entered_by_seat,
        by=by,
    )
    hand.save(force_insert=True)
    audit(game, HandAction.RECORD, by=by, by_label=by_label, hand_number=hand.number, after=entry)
    save_state(game, before if pending else state)
    return Recorded(hand=hand, game=game, created=True)


def _new_hand(
    game: Game,
    *,
    entry: HandEntry,
    result: Any,
    client_id: uuid.UUID,
    digest: str,
    pending: bool,
    entered_by_seat: int | None,
    by: User | None,
) -> Hand:
    """The hand's row as both paths write it (unsaved)."""
    return Hand(
        game=game,
        client_id=client_id,
        request_digest=digest,
        status=HandStatus.PENDING if pending else HandStatus.CONFIRMED,
        entered_by_seat=entered_by_seat,
        recorded_by=by if getattr(by, "is_authenticated", False) else None,
        **entry_fields(entry),
        **result_fields(result),
    )


def apply_hand_checked(state: Any, entry: HandEntry) -> Any:
    try:
        return apply_hand(state, entry)
    except HandRefused as exc:
        raise HandNotAccepted.from_refused(exc) from None


@transaction.atomic
def hand_undo_last(
    *, game_id: int, number: int | None = None, by: User | None = None, by_label: str = ""
) -> Game:
    """Removes the last hand (a pending one too). ``number`` guards against undoing a hand the
    client never saw."""
    return undo_last_hand(lock_game(game_id), number=number, by=by, by_label=by_label)


def undo_last_hand(game: Game, *, number: int | None, by: User | None, by_label: str) -> Game:
    """``hand_undo_last`` on a game whose row the caller has locked."""
    last = Hand.with_pending.filter(game=game).order_by("-number").first()
    if last is None:
        raise InvalidInput(N_("There is no hand to undo: this game has none recorded yet."))
    if number is not None and number != last.number:
        raise StaleGame(
            N_(
                "You asked to undo hand %(number)s, but the last hand is %(last)s. Only the last "
                "hand can be undone.",
                number=number,
                last=last.number,
            ),
            game_id=game.id,
        )
    if game.forfeited_by:
        raise InvalidInput(N_("This game ended by forfeit; its hands can no longer be undone."))
    entry = hand_to_entry(last)
    last.delete()
    state = current_state(game)
    guard_result_change(game, state)
    audit(game, HandAction.UNDO, by=by, by_label=by_label, hand_number=last.number, before=entry)
    save_state(game, state)
    return game


@transaction.atomic
def hand_correct(
    *,
    game_id: int,
    number: int,
    entry: HandEntry,
    by: User | None = None,
    reason: str = "",
    expected_version: int | None = None,
) -> Game:
    """Replaces what was entered for a past hand and recomputes every later score. Refused, with
    the hand that breaks, when the correction would make a later hand impossible."""
    game = lock_game(game_id)
    if expected_version is not None and expected_version != game.version:
        raise StaleGame(
            N_(
                "The game changed since you opened it. Look at the score sheet again, then correct."
            ),
            game_id=game.id,
        )
    hands = list(game.hands.order_by("number"))
    target = next((h for h in hands if h.number == number), None)
    if target is None:
        raise NotFound(N_("Game %(id)s has no hand %(number)s.", id=game.id, number=number))
    before = hand_to_entry(target)
    if entry.completed_at is None:
        entry = dataclasses.replace(entry, completed_at=before.completed_at)
    entries = [entry if h.number == number else hand_to_entry(h) for h in hands]
    try:
        state = replay_entries(game, entries)
    except HandRefused as exc:
        broken = first_broken_hand(game, entries)
        prefix = (
            N_("Hand %(number)s: ", number=broken)
            if broken == number
            else N_(
                "With this correction hand %(number)s would no longer be possible: ",
                number=broken,
            )
        )
        raise HandNotAccepted.from_refused(exc, prefix=prefix) from None
    guard_result_change(game, state)
    for field, value in entry_fields(entry).items():
        setattr(target, field, value)
    target.request_digest = request_digest(entry)
    target.save()
    changed = []
    for hand, result in zip(hands, state.hands, strict=True):
        for field, value in result_fields(result).items():
            setattr(hand, field, value)
        if hand.number >= number:
            changed.append(hand)
    Hand.objects.bulk_update(changed, DERIVED_HAND_FIELDS)
    audit(
        game,
        HandAction.CORRECT,
        by=by,
        hand_number=number,
        before=before,
        after=entry,
        reason=reason,
    )
    save_state(game, state)
    return game
