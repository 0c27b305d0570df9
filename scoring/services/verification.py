"""Verification at the table, as Bridgemate does it: the hand entered by one partnership is
pending until a player of the other partnership confirms it on the same device, choosing their
seat. A pending hand is checked by the rules when entered, stored, and counts nowhere (score,
standings, public pages) until confirmed; it is checked again when confirmed, since the game
may have moved (time called, a correction). And the end of a game: each partnership
acknowledges the result.

Scoring knows nothing of events: whoever records a hand (``hands.hand_record``, ``pending``)
says whether verification is on.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from kaiser_club.errors import InvalidInput, NotFound

from ..choices import GameStatus, HandAction, HandStatus
from ..errors import HandNotAccepted
from ..models import Game, GameChange, Hand
from ..rows_and_rules import hand_to_entry, result_fields
from ..rules import GameState, HandEntry, HandRefused, Seat, Side, call_time
from .hand_time import hand_played_at
from .hands import Recorded, apply_hand_checked
from .moved_on import at_game_shown
from .state import audit, call_time_if_due, current_state, lock_game, save_state

TEAM_LABELS = {Side.NS: "North–South", Side.EW: "East–West"}


def _team_name(team: Side) -> str:
    return gettext("North–South") if team is Side.NS else gettext("East–West")


def _seat_name(seat: Seat) -> str:
    names = {
        Seat.NORTH: gettext("North"),
        Seat.EAST: gettext("East"),
        Seat.SOUTH: gettext("South"),
        Seat.WEST: gettext("West"),
    }
    return names[seat]


def hand_preview(
    *, game: Game | None, entry: HandEntry, game_shown: int | None = None
) -> tuple[GameState, GameState]:
    """The game before and after ``entry`` as its next hand, nothing written: what the page
    shows before the scorekeeper confirms. Past the deadline the hand is judged with time
    called, as recording it would. Raises ``HandNotAccepted`` (in the request's language).
    ``game_shown``: as ``play.hand_record_by`` (a table that moved on previews nothing)."""
    game = at_game_shown(game, game_shown)
    now = timezone.now()
    entry = dataclasses.replace(
        entry, completed_at=hand_played_at(game=game, said=entry.completed_at, now=now)
    )
    before = current_state(game)
    deadline = game.deadline
    if (
        game.time_called_at is None
        and game.paused_at is None
        and deadline is not None
        and deadline <= now
    ):
        # As the clock calls it (``call_time_if_due``): never before a hand already finished.
        finished = [h.entry.completed_at for h in before.hands if h.entry.completed_at]
        try:
            before = call_time(before, max([deadline, *finished]))
        except HandRefused as exc:
            raise HandNotAccepted.from_refused(exc) from None
    return before, apply_hand_checked(before, entry)


def _pending(game: Game, number: int) -> Hand:
    hand = Hand.with_pending.filter(game=game, number=number).first()
    if hand is None:
        raise NotFound(
            gettext("Hand %(number)s is not waiting for confirmation in this game.")
            % {"number": number}
        )
    return hand


@transaction.atomic
def hand_confirm(
    *, game_id: int, number: int, seat: Seat, by: User | None = None, by_label: str = ""
) -> Recorded:
    """A player of the other partnership confirms pending hand ``number``: it now counts. The
    rules judge it again against the game as it stands. Confirming a hand already confirmed
    answers with it (a retry)."""
    game = lock_game(game_id)
    hand = _pending(game, number)
    if hand.status == HandStatus.CONFIRMED:
        return Recorded(hand=hand, game=game, created=False)
    if hand.entered_by_seat is None:
        raise InvalidInput(gettext("This hand does not say who entered it; discard it."))
    entered = Seat(hand.entered_by_seat)
    if seat.team is entered.team:
        message = gettext(
            "%(seat)s is a partner of the player who entered this hand: a player of "
            "%(other)s confirms it."
        ) % {"seat": _seat_name(seat), "other": _team_name(entered.team.other)}
        raise InvalidInput(message, code="same_partnership", field_errors={"seat": [message]})
    call_time_if_due(game)
    state = apply_hand_checked(current_state(game), hand_to_entry(hand))
    for name, value in result_fields(state.hands[-1]).items():
        setattr(hand, name, value)
    hand.status = HandStatus.CONFIRMED
    hand.confirmed_by_seat = int(seat)
    hand.confirmed_at = timezone.now()
    hand.save()
    audit(game, HandAction.CONFIRM, by=by, by_label=by_label, hand_number=hand.number)
    save_state(game, state)
    return Recorded(hand=hand, game=game, created=True)


def drop_pending_hand(
    game: Game, hand: Hand, *, by: User | None = None, by_label: str = "", reason: str = ""
) -> None:
    """Deletes a pending hand; the game's history keeps what it said. The caller holds the
    game's row lock and saves the game."""
    entry = hand_to_entry(hand)
    hand.delete()
    audit(
        game,
        HandAction.DISCARD,
        by=by,
        by_label=by_label,
        hand_number=hand.number,
        before=entry,
        reason=reason,
    )


@transaction.atomic
def hand_discard(
    *, game_id: int, number: int, by: User | None = None, by_label: str = "", reason: str = ""
) -> Game:
    """Drops pending hand ``number`` (the other partnership disagrees, or the scorekeeper
    made a mistake): nothing counted, the entry is kept in the history."""
    game = lock_game(game_id)
    hand = _pending(game, number)
    if hand.status != HandStatus.PENDING:
        raise InvalidInput(
            gettext("Hand %(number)s is already confirmed; only the last hand can be undone.")
            % {"number": number}
        )
    drop_pending_hand(game, hand, by=by, by_label=by_label, reason=reason)
    game.version += 1
    game.save(update_fields=["version", "updated_at"])
    return game


@transaction.atomic
def game_acknowledge(
    *, game_id: int, team: Side, by: User | None = None, by_label: str = ""
) -> bool:
    """A partnership acknowledges the result of a finished game at the table (the signature
    on a paper score sheet). Kept in the game's history; twice is once. True if new."""
    game = lock_game(game_id)
    if game.status != GameStatus.FINISHED:
        raise InvalidInput(gettext("This game is not over yet: there is no result to agree to."))
    if team.value in acknowledged_teams(game=game):
        return False
    GameChange.objects.create(
        game=game,
        action=HandAction.ACKNOWLEDGE,
        by=by if getattr(by, "is_authenticated", False) else None,
        by_label=by_label,
        after={"team": team.value, "winner": game.winner, "ns": game.ns_score, "ew": game.ew_score},
        reason=TEAM_LABELS[team],
    )
    return True


def acknowledged_teams(*, game: Game) -> set[str]:
    """The partnerships ("ns", "ew") that acknowledged the game's present result (an
    acknowledgment of a result the organiser has since corrected no longer counts)."""
    return acknowledged_by_game(games=[game])[game.id]


def acknowledged_by_game(*, games: Iterable[Game]) -> dict[int, set[str]]:
    """``acknowledged_teams`` for several games in one query."""
    by_id = {game.id: game for game in games}
    found: dict[int, set[str]] = {game_id: set() for game_id in by_id}
    rows = GameChange.objects.filter(
        game_id__in=list(by_id), action=HandAction.ACKNOWLEDGE
    ).values_list("game_id", "after")
    for game_id, after in rows:
        game = by_id[game_id]
        result = (game.winner, game.ns_score, game.ew_score)
        if after and (after.get("winner"), after.get("ns"), after.get("ew")) == result:
            found[game_id].add(after["team"])
    return found


def pending_hand(*, game_id: int) -> Hand | None:
    """The hand waiting for the other partnership, if any."""
    return Hand.with_pending.filter(game_id=game_id, status=HandStatus.PENDING).first()


__all__ = [
    "acknowledged_by_game",
    "acknowledged_teams",
    "game_acknowledge",
    "hand_confirm",
    "hand_discard",
    "hand_preview",
    "pending_hand",
]
