"""The organiser's actions on a round and on one game, one service per operation, as both
doors call them: the API (tournaments/api/rounds.py) and the pages (tournaments/views/rounds.py)
make the same call with the same arguments, so an action is allowed or refused the same way, in
the same words, and a refusal writes nothing.

Each takes the actor, the round or game the address names (found within the event by
``selectors.round_in`` and ``selectors.pairing_in``), and what the body says. Rows the body
names by id (entries, games, players) are looked up here, within the event: an id of another
event, or one that does not exist, is refused with a sentence under the field that gave it.
Each refuses anyone but an organiser of the event's club before it writes anything; the rules
themselves are the ``…_unchecked`` steps of rounds.py and results.py, which ask nothing of who
acts.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, NotAllowed
from kaiser_club.models import Club
from kaiser_club.sentences import N_
from scoring.models import Game

from ..models import Entry, Event, GenerationJob, Pairing, Round
from . import events, generation, results, rounds
from .organisers import require_club_organiser, require_organiser


def _entry(event: Event, entry_id: int, field: str) -> Entry:
    found = Entry.objects.filter(event=event, id=entry_id).first()
    if found is None:
        message = N_("%(name)s has no entry %(entry_id)s.", name=event.name, entry_id=entry_id)
        raise InvalidInput(message, field_errors={field: [message]})
    return found


def _pairing(event: Event, pairing_id: int, field: str) -> Pairing:
    found = Pairing.objects.filter(event=event, id=pairing_id).first()
    if found is None:
        message = N_("%(name)s has no game %(pairing_id)s.", name=event.name, pairing_id=pairing_id)
        raise InvalidInput(message, field_errors={field: [message]})
    return found


# --- a round ----------------------------------------------------------------------------------


@transaction.atomic
def round_start(*, actor: Actor, round_: Round) -> Round:
    require_organiser(actor, round_.event)
    return rounds.round_start_unchecked(round_=round_, by=actor.by)


@transaction.atomic
def round_start_waiting(*, actor: Actor, round_: Round) -> int:
    require_organiser(actor, round_.event)
    return rounds.round_start_waiting_unchecked(round_=round_)


@transaction.atomic
def round_pause(*, actor: Actor, round_: Round) -> int:
    require_organiser(actor, round_.event)
    return rounds.round_pause_unchecked(round_=round_)


@transaction.atomic
def round_resume(*, actor: Actor, round_: Round) -> int:
    require_organiser(actor, round_.event)
    return rounds.round_resume_unchecked(round_=round_)


@transaction.atomic
def round_add_minutes(*, actor: Actor, round_: Round, minutes: int) -> int:
    require_organiser(actor, round_.event)
    return rounds.round_add_minutes_unchecked(round_=round_, minutes=minutes)


@transaction.atomic
def round_swap_tables(*, actor: Actor, round_: Round, first: int, second: int) -> None:
    """``first`` and ``second`` are ids of two games of the round."""
    event = round_.event
    require_organiser(actor, event)
    rounds.round_swap_tables_unchecked(
        round_=round_,
        first=_pairing(event, first, "first"),
        second=_pairing(event, second, "second"),
    )


@transaction.atomic
def round_swap_teams(*, actor: Actor, round_: Round, first: int, second: int) -> None:
    """``first`` and ``second`` are ids of two entries playing in the round."""
    event = round_.event
    require_organiser(actor, event)
    rounds.round_swap_teams_unchecked(
        round_=round_,
        first=_entry(event, first, "first"),
        second=_entry(event, second, "second"),
        by=actor.by,
    )


# --- one game ---------------------------------------------------------------------------------


@transaction.atomic
def pairing_forfeit(
    *, actor: Actor, pairing: Pairing, forfeiting: str, reason: str = ""
) -> Pairing:
    require_organiser(actor, pairing.event)
    return results.pairing_forfeit_unchecked(
        pairing=pairing, forfeiting=forfeiting, by=actor.by, reason=reason
    )


@transaction.atomic
def pairing_forfeit_undo(*, actor: Actor, pairing: Pairing, reason: str = "") -> Pairing:
    require_organiser(actor, pairing.event)
    return results.pairing_forfeit_undo_unchecked(pairing=pairing, by=actor.by, reason=reason)


@transaction.atomic
def pairing_adjust(
    *,
    actor: Actor,
    pairing: Pairing,
    winner: str,
    home_points: int,
    away_points: int,
    reason: str,
    rollback: bool = False,
) -> Pairing:
    require_organiser(actor, pairing.event)
    return results.pairing_adjust_unchecked(
        pairing=pairing,
        winner=winner,
        home_points=home_points,
        away_points=away_points,
        reason=reason,
        by=actor.by,
        rollback=rollback,
    )


@transaction.atomic
def pairing_mark_late(*, actor: Actor, pairing: Pairing, late: bool = True) -> Pairing:
    require_organiser(actor, pairing.event)
    return results.pairing_mark_late_unchecked(pairing=pairing, late=late)


@transaction.atomic
def pairing_set_bye_points(
    *, actor: Actor, pairing: Pairing, points_for: int, points_against: int
) -> Pairing:
    require_organiser(actor, pairing.event)
    return results.pairing_set_bye_points_unchecked(
        pairing=pairing, points_for=points_for, points_against=points_against
    )


@transaction.atomic
def pairing_clock(*, actor: Actor, pairing: Pairing, action: str, minutes: int = 0) -> Game:
    require_organiser(actor, pairing.event)
    return rounds.pairing_clock_unchecked(pairing=pairing, action=action, minutes=minutes)


@transaction.atomic
def pairing_rollback(*, actor: Actor, pairing: Pairing, reason: str = "") -> list[dict[str, Any]]:
    require_organiser(actor, pairing.event)
    return results.pairing_rollback_unchecked(pairing=pairing, by=actor.by, reason=reason)


# --- an event ---------------------------------------------------------------------------------


def event_create_by(*, actor: Actor, club: Club, **fields: Any) -> Event:
    """A new event of ``club``: its organisers may make one (staff anywhere)."""
    refusal = NotAllowed(N_("Only organisers of %(club)s can create its events.", club=club.name))
    require_club_organiser(actor, club, refusal)
    return events.event_create(club=club, by=actor.by, **fields)


def generation_request_by(*, actor: Actor, event: Event) -> GenerationJob:
    """Queues the next round (or the bracket) of an event its club's organisers direct."""
    require_organiser(actor, event)
    return generation.generation_request(event=event, by=actor.by)
