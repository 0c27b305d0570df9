"""An event's rules for the games of its pairings, for every door (the table page, the games
API): who may enter hands, that the round has started, verification, and how far a table may
take a hand back. Registered with ``scoring.gates`` when the app is ready."""

from __future__ import annotations

import operator
from functools import reduce

from django.db.models import Q
from django.utils.translation import gettext

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, NotAllowed
from kaiser_club.roles import Role
from kaiser_club.selectors import AnyUser, club_ids_with_role
from scoring.choices import GameStatus
from scoring.gates import Ruling, Step
from scoring.models import Game

from .choices import EventKind, RoundStatus
from .models import Event, Pairing, Round

# The least role that enters an event's hands without a table's code: at a club night a
# scorekeeper of the club, at a tournament an organiser (its tablets go by their codes). The
# one statement of that rule: the gate, the table's access and its list of tables read it.
WRITER_ROLES = {EventKind.CLUB_NIGHT: Role.SCOREKEEPER, EventKind.TOURNAMENT: Role.ORGANISER}


def writer_role(event: Event) -> Role:
    return WRITER_ROLES[EventKind(event.kind)]


def may_write_at(actor: Actor, event: Event, *, table_id: int | None) -> bool:
    """Whether the actor enters hands at the event's table ``table_id``: by holding that
    table's code, or by the writer role in the event's club (``WRITER_ROLES``)."""
    at_table = actor.table_id is not None and actor.table_id == table_id
    return at_table or actor.has_role(club_id=event.club_id, at_least=writer_role(event))


def events_written_by(user: AnyUser, *, prefix: str = "") -> Q | None:
    """The events whose hands the user enters without a code (``WRITER_ROLES``), as a filter
    on the event (``prefix``: the path to it, as "event__"); None: every event (staff)."""
    by_kind = []
    for kind, role in WRITER_ROLES.items():
        clubs = club_ids_with_role(user=user, at_least=role)
        if clubs is None:
            return None
        by_kind.append(Q(**{f"{prefix}kind": kind, f"{prefix}club_id__in": clubs}))
    return reduce(operator.or_, by_kind)


def writers_text(event: Event) -> str:
    """The refusal for one who may not enter the event's hands: who may (``writer_role``)."""
    if writer_role(event) == Role.SCOREKEEPER:
        text = gettext(
            "At %(event)s hands are entered at the game's table (its code opens it) or by a "
            "scorekeeper of %(club)s."
        )
    else:
        text = gettext(
            "At %(event)s hands are entered at the game's table (its code opens it) or by an "
            "organiser of %(club)s."
        )
    return text % {"event": event.name, "club": event.club.name}


def round_not_started_text() -> str:
    return gettext("The round has not started: hands can be entered once the organiser starts it.")


def table_moved_on(pairing: Pairing) -> bool:
    """Whether a finished game's result has been carried forward: a later game at its table,
    or a later round of the event (paired on the standings this result is in)."""
    later_round = Round.objects.filter(
        event_id=pairing.event_id, number__gt=pairing.round.number
    ).exists()
    if later_round:
        return True
    if pairing.table_id is None:
        return False
    return Pairing.objects.filter(
        table_id=pairing.table_id,
        round__number=pairing.round.number,
        id__gt=pairing.id,
        game__isnull=False,
        cancelled=False,
    ).exists()


# What the gate reads, from the game: a door that reads the game with these spares the query.
GATE_RELATED = ("pairing__event", "pairing__round")  # the event's club is the game's
GATE_READS = (  # of those rows, the columns read here
    "pairing__table",
    "pairing__event__club",
    "pairing__event__kind",
    "pairing__event__name",
    "pairing__event__verification",
    "pairing__round__number",
    "pairing__round__status",
)


def remember_pairing(game: Game, pairing: Pairing) -> None:
    """Tells the gate the game's pairing (read with its event and round) that a door already
    holds (the table page reads it to find the table's game)."""
    game.pairing = pairing


def _pairing_of(game: Game) -> Pairing | None:
    """The game's pairing, as the door read it (``GATE_RELATED``, ``remember_pairing``), or
    read now."""
    try:
        return game.pairing
    except Pairing.DoesNotExist:
        return None


def event_gate(game: Game, actor: Actor, step: Step) -> Ruling | None:
    pairing = _pairing_of(game)
    if pairing is None:
        return None  # not an event's game: the club's roles decide
    event = pairing.event
    if not may_write_at(actor, event, table_id=pairing.table_id):
        raise NotAllowed(writers_text(event))
    director = actor.has_role(club_id=event.club_id, at_least=Role.ORGANISER)
    if step is Step.ENTER and pairing.round.status == RoundStatus.READY:
        raise InvalidInput(round_not_started_text(), code="round_not_started")
    if (
        step is Step.UNDO
        and not director
        and game.status == GameStatus.FINISHED
        and table_moved_on(pairing)
    ):
        raise InvalidInput(
            gettext(
                "This game is over and its result has been carried forward: only the organiser "
                "can change it now."
            ),
            code="result_carried_forward",
        )
    return Ruling(verify=event.verification and not director, director=director)
