"""What an event's rules add to a game: who may enter hands at it, whether a hand waits for
the other partnership, whether a table may still take a hand back.

Scoring knows nothing of events. An app that runs games inside something larger (tournaments)
registers a gate; the first gate that claims a game decides for it, and a game no gate claims
follows its club's roles. Every door (the games API, the table page) asks through
``rule_for``, so the answers are the same whichever way a request comes in."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from kaiser_club.actors import Actor
from kaiser_club.refusals import role_refused
from kaiser_club.roles import Role

from .models import Game


class Step(Enum):
    ENTER = "enter"  # record a hand (or confirm or discard a pending one)
    UNDO = "undo"  # take back the last hand


@dataclass(frozen=True)
class Ruling:
    verify: bool = False  # a hand entered waits for a player of the other partnership
    director: bool = False  # an organiser: entries count at once, undo is not limited


Gate = Callable[[Game, Actor, Step], Ruling | None]
_gates: list[Gate] = []
_related: list[str] = []
_reads: list[str] = []


def register(gate: Gate, *, related: tuple[str, ...] = (), reads: tuple[str, ...] = ()) -> None:
    """``related``: what the gate reads of a game, as ``select_related`` paths from Game, so
    that a door reading the game once (``gate_related``) spares the gate its own query.
    ``reads``: the columns the gate reads along them, as ``only`` paths (``gate_reads``): a
    door that reads no more of those rows reads these columns only."""
    if gate not in _gates:
        _gates.append(gate)
    _related.extend(path for path in related if path not in _related)
    _reads.extend(path for path in reads if path not in _reads)


def gate_related() -> list[str]:
    return list(_related)


def gate_reads() -> list[str]:
    return list(_reads)


def rule_for(*, game: Game, actor: Actor, step: Step) -> Ruling:
    """The ruling for ``actor`` taking ``step`` at ``game``; raises NotAllowed when refused."""
    for gate in _gates:
        ruling = gate(game, actor, step)
        if ruling is not None:
            return ruling
    if not actor.has_role(club_id=game.club_id, at_least=Role.SCOREKEEPER):
        raise role_refused(game.club)
    return Ruling(director=actor.has_role(club_id=game.club_id, at_least=Role.ORGANISER))
