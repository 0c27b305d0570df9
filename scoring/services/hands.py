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
from django.utils.translation import gettext

from kaiser_club.errors import InvalidInput, NotFound
from kaiser_club.sentences import N_, Np_

from ..choices import GameStatus, HandAction, HandStatus
from ..errors import ClientIdReused, HandAwaitingConfirmation, HandNotAccepted, StaleGame
from ..models import Game, Hand
from ..rows_and_rules import (
    DERIVED_HAND_FIELDS,
    entry_as_json,
    entry_fields,
    hand_to_entry,
    kept_state,
    result_fields,
)
from ..rules import HandEntry, HandRefused, apply_hand
from ..signals import game_correcting
from .hand_time import hand_played_at
from .state import (
    announce,
    audit,
    call_time_if_due,
    current_state,
    first_broken_hand,
    game_fields,
    guard_result_change,
    lock_game,
    replay_entries,
    save_state,
    update_if_version,
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


class _Moved(Exception):
    """The game's row moved on since it was read: the record is made again under its lock."""


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

    ``seen``: the game's row as the caller has just read it (unlocked). The hand is applied to
    the state that row keeps and the row written only if it is still that version; if it
    moved on, the same steps run again on the row read under its lock. The answer's ``game``
    is ``seen`` (its relations as read), brought up to date.

    A ``pending`` hand needs ``entered_by_seat``, so that the other partnership can be told
    apart when it confirms."""
    if pending and entered_by_seat is None:
        raise InvalidInput(
            gettext("Choose the seat of the player entering the hand."),
            field_errors={"entered_by_seat": [gettext("Choose a seat.")]},
        )
    details = _Details(
        entry=entry,
        client_id=client_id,
        number=number,
        by=by,
        by_label=by_label,
        pending=pending,
        entered_by_seat=None if entered_by_seat is None else int(entered_by_seat),
    )
    if seen is not None and seen.id == game_id:
        called = seen.time_called_at  # a call made on the way is undone with the rest
        try:
            with transaction.atomic():
                return _record(seen, details, locked=False)
        except (_Moved, IntegrityError):
            seen.time_called_at = called  # a retry's id or a pending hand's number is taken,
            # or the row moved on: the lock tells which
    with transaction.atomic():
        recorded = _record(lock_game(game_id), details, locked=True)
    if seen is not None and seen.id == game_id:
        _bring_up_to_date(seen, recorded.game)
        return dataclasses.replace(recorded, game=seen)
    return recorded


@dataclass(frozen=True)
class _Details:
    entry: HandEntry
    client_id: uuid.UUID
    number: int | None
    by: User | None
    by_label: str
    pending: bool
    entered_by_seat: int | None


def _record(game: Game, details: _Details, *, locked: bool) -> Recorded:
    """One hand recorded at ``game`` as read, all in the caller's transaction. ``locked``:
    the row is read under its lock, so a retry, a pending hand, a stale entry and a refusal
    are told apart and said; unlocked, any of them (or the row having moved on) raises
    ``_Moved`` or the database's IntegrityError, and the caller runs this again locked."""
    entry = details.entry
    digest = request_digest(entry)  # of what was sent: a retry sends the same
    if locked:
        retried = _earlier_submission(game, details.client_id, digest)
        if retried is not None:
            return retried
        waiting = Hand.with_pending.filter(game=game, status=HandStatus.PENDING).first()
        if waiting is not None:
            raise HandAwaitingConfirmation(waiting.number)
        _check_expected_number(game, details.number)
    elif details.number is not None and details.number != game.hand_count + 1:
        raise _Moved
    now = timezone.now()
    call_time_if_due(game, now=now)  # past the deadline, the hand is judged with time called
    entry = dataclasses.replace(
        entry, completed_at=hand_played_at(game=game, said=entry.completed_at, now=now)
    )
    before = kept_state(game)
    try:
        state = apply_hand(before, entry)
    except HandRefused as exc:
        if not locked:
            raise _Moved from None  # the row read may be too old to judge
        raise HandNotAccepted.from_refused(exc) from None
    kept = before if details.pending else state
    fields = game_fields(game, kept, now=now)
    if not update_if_version(game, fields):
        raise _Moved  # never under the lock: the row is the version read
    hand = _new_hand(game, entry=entry, result=state.hands[-1], digest=digest, details=details)
    hand.save(force_insert=True)
    audit(
        game,
        HandAction.RECORD,
        by=details.by,
        by_label=details.by_label,
        hand_number=hand.number,
        after=entry,
    )
    was_finished = game.status == GameStatus.FINISHED
    for name, value in fields.items():
        setattr(game, name, value)
    announce(game.id, was_finished=was_finished, over=kept.over)
    return Recorded(hand=hand, game=game, created=True)


def _earlier_submission(game: Game, client_id: uuid.UUID, digest: str) -> Recorded | None:
    """The hand this submission already recorded (a retry), or None; refused if the id was
    used for another hand."""
    existing = Hand.with_pending.filter(game=game, client_id=client_id).first()
    if existing is None:
        return None
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


def _bring_up_to_date(seen: Game, written: Game) -> None:
    """``seen`` takes the columns of the row as written under the lock."""
    for field in Game._meta.concrete_fields:
        setattr(seen, field.attname, getattr(written, field.attname))


def _new_hand(game: Game, *, entry: HandEntry, result: Any, digest: str, details: _Details) -> Hand:
    """The hand's row (unsaved)."""
    by = details.by
    return Hand(
        game=game,
        client_id=details.client_id,
        request_digest=digest,
        status=HandStatus.PENDING if details.pending else HandStatus.CONFIRMED,
        entered_by_seat=details.entered_by_seat,
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
def hand_undo(
    *, game_id: int, number: int | None = None, by: User | None = None, by_label: str = ""
) -> Game:
    """Removes the last hand (a pending one too). ``number`` guards against undoing a hand the
    client never saw."""
    return hand_undo_locked(lock_game(game_id), number=number, by=by, by_label=by_label)


def hand_undo_locked(
    game: Game, *, number: int | None, by: User | None, by_label: str, reason: str = ""
) -> Game:
    """``hand_undo`` on a game whose row the caller has locked."""
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
    audit(
        game,
        HandAction.UNDO,
        by=by,
        by_label=by_label,
        hand_number=last.number,
        before=entry,
        reason=reason,
    )
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
    roll_back: bool = False,
) -> Game:
    """Replaces what was entered for a past hand and recomputes every later score. Refused, with
    the hand that breaks, when the correction would make a later hand impossible; refused, when
    the game's winner changes after the winner played on, unless ``roll_back`` (the games that
    followed are rolled back: ``scoring.signals``)."""
    game_correcting.send(sender=Game, game_id=game_id, roll_back=roll_back)
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
    # When the hand was played was the server's to decide when it was recorded, not the
    # correction's (docs/rules.md, "When a hand was played").
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
    guard_result_change(game, state, roll_back=roll_back)
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
