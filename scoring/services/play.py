"""Hands entered and taken back by whoever is at the game: the one owner of these actions for
every door (the games API, the table page), retries and a table that moved on included. The
actor's rights and the event's rules come from ``scoring.gates``; the rules of Kaiser from the
services underneath."""

from __future__ import annotations

import uuid

from django.db import transaction
from django.utils.translation import gettext

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput
from kaiser_club.refusals import role_refused
from kaiser_club.roles import Role
from kaiser_club.text import clean_text

from ..choices import HandAction
from ..gates import Step, gate_related, rule_for
from ..models import Game, Hand
from ..rules import HandEntry, Seat
from .hands import Recorded, hand_correct, hand_record, hand_undo_locked
from .moved_on import at_game_shown, left_game_shown, moved_on
from .reopening import last_hand_change, reopening_reason
from .state import lock_game
from .verification import hand_confirm, hand_discard


def hand_record_by(
    *,
    actor: Actor,
    game: Game | None,
    entry: HandEntry,
    client_id: uuid.UUID,
    number: int | None = None,
    entered_by_seat: Seat | None = None,
    game_shown: int | None = None,
) -> Recorded:
    """Records the next hand as the event has it: counted at once, or waiting for the other
    partnership when the event verifies and the actor does not direct it. The ruling reads
    who the actor is and where the game stands (not its hands), so it needs no lock; the hand
    is applied to ``game`` as read, written only if the row has not moved since (else the same
    again under the game's lock).

    A table's door passes the game it is at now (None: none) and the game its page showed
    (``game_shown``): a retry of a hand that reached the server before the table moved on is
    answered as done (``created`` false); any other hand for a game it left is refused."""
    if game_shown is not None and left_game_shown(None if game is None else game.id, game_shown):
        earlier = (
            Hand.with_pending.filter(game_id=game_shown, client_id=client_id)
            .select_related("game")
            .first()
        )
        if earlier is not None:
            return Recorded(hand=earlier, game=earlier.game, created=False)
    game = at_game_shown(game, game_shown)
    ruling = rule_for(game=game, actor=actor, step=Step.ENTER)
    return hand_record(
        game_id=game.id,
        entry=entry,
        client_id=client_id,
        number=number,
        entered_by_seat=entered_by_seat,
        pending=ruling.verify,
        by=actor.by,
        by_label=actor.label,
        seen=game,
    )


def hand_confirm_by(
    *, actor: Actor, game: Game | None, number: int, seat: Seat, game_shown: int | None = None
) -> Recorded:
    """A player of the other partnership confirms the pending hand at the device it was
    entered on: whoever may enter hands at the game may confirm them (``game_shown``: as
    ``hand_record_by``)."""
    game = at_game_shown(game, game_shown)
    rule_for(game=game, actor=actor, step=Step.ENTER)
    return hand_confirm(
        game_id=game.id, number=number, seat=seat, by=actor.by, by_label=actor.label
    )


def hand_discard_by(
    *,
    actor: Actor,
    game: Game | None,
    number: int,
    reason: str = "",
    client_id: uuid.UUID | None = None,
    game_shown: int | None = None,
) -> Game | None:
    """The pending hand is dropped (the other partnership disagrees, or it was mistyped).
    ``client_id``: the id it was entered with; if no hand of the game has it, it is gone
    already (a retry) and nothing is done: None. ``game_shown``: as ``hand_record_by``."""
    game = at_game_shown(game, game_shown)
    if (
        client_id is not None
        and not Hand.with_pending.filter(game=game, client_id=client_id).exists()
    ):
        return None
    rule_for(game=game, actor=actor, step=Step.ENTER)
    return hand_discard(
        game_id=game.id,
        number=number,
        by=actor.by,
        by_label=actor.label,
        reason=reason,  # cleaned and cut where the history is written (``audit``)
    )


def last_hand_may_be_taken_back(*, game: Game) -> bool:
    """Whether the last hand is the last thing entered at the game: a table takes back a hand
    once, right after entering it, never the one before (that is the organiser's correction).
    The latest record, undo, correction or discard says it: a record of hand n means hand n
    is still there and nothing came after it."""
    change = last_hand_change(game=game)
    return change is not None and change.action == HandAction.RECORD


@transaction.atomic
def hand_undo_by(
    *,
    actor: Actor,
    game_id: int | None,
    number: int | None = None,
    reason: str = "",
    client_id: uuid.UUID | None = None,
    game_shown: int | None = None,
) -> Game | None:
    """Undoes the last hand. An organiser may undo the last hand of a game still open to
    change; anyone else only the hand just entered, once. Taking back the last hand of a
    finished game reopens it, under one rule for every game (``reopening``).

    ``number`` guards against undoing a hand the client never saw. ``client_id`` names the
    hand by the id it was entered with (a table does): if no hand of the game has it, it is
    gone already (a retry) and nothing is done: None; without ``number``, its number is the
    guard. ``game_shown``: as ``hand_record_by`` (``game_id``: the game the door is at)."""
    if game_id is None or left_game_shown(game_id, game_shown):
        raise moved_on()
    game = lock_game(game_id, related=gate_related())  # what the event's rules read
    if client_id is not None:
        named = Hand.with_pending.filter(game=game, client_id=client_id).first()
        if named is None:
            return None
        number = named.number if number is None else number
    ruling = rule_for(game=game, actor=actor, step=Step.UNDO)
    reason = reopening_reason(game=game, actor=actor, director=ruling.director, reason=reason)
    if (
        not ruling.director
        and not last_hand_may_be_taken_back(game=game)
        and Hand.with_pending.filter(game=game).exists()  # else: "there is no hand to undo"
    ):
        raise InvalidInput(
            gettext(
                "Only the hand just entered can be undone, once, until the next one is entered. "
                "An organiser corrects earlier hands."
            ),
            code="undo_not_last",
        )
    return hand_undo_locked(game, number=number, by=actor.by, by_label=actor.label, reason=reason)


def hand_correct_by(
    *,
    actor: Actor,
    game: Game,
    number: int,
    entry: HandEntry,
    reason: str,
    expected_version: int | None = None,
    roll_back: bool = False,
) -> Game:
    """The organiser's correction of a past hand (any hand, a finished game too), with the
    reason kept in the game's history: the one correction behind every door (the games API,
    the events API, the club's and the organiser's pages). A winner that already played on is
    refused with the later games named, unless ``roll_back``: then the games that followed
    are rolled back (``scoring.signals.game_result_changing``)."""
    if not actor.has_role(club_id=game.club_id, at_least=Role.ORGANISER):
        raise role_refused(game.club)
    reason = clean_text(reason)
    if not reason:
        message = gettext("Say why the hand is corrected: the reason is kept in its history.")
        raise InvalidInput(message, field_errors={"reason": [message]})
    return hand_correct(
        game_id=game.id,
        number=number,
        entry=entry,
        by=actor.by,
        reason=reason,
        expected_version=expected_version,
        roll_back=roll_back,
    )
