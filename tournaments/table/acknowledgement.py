"""The end of a game at its table: each partnership agrees to the result (the signature on a
paper score sheet), at the table's device or by a member who enters the event's hands. The
agreement moves the table on to its next game (``selectors.choose_current``)."""

from __future__ import annotations

from kaiser_club.actors import Actor
from kaiser_club.errors import NotAllowed
from kaiser_club.sentences import N_
from scoring.rules import Side
from scoring.services import verification
from tournaments.game_gate import may_write_at, writers_text
from tournaments.models import Pairing, Table


def game_acknowledge_by(*, actor: Actor, table: Table, game_id: int, team: Side) -> bool:
    """``team`` agrees to the result of game ``game_id``, played at ``table`` (whose event is
    read with its club); twice is once. True if new."""
    event = table.event
    if not may_write_at(actor, event, table_id=table.id):
        raise NotAllowed(writers_text(event))
    if not Pairing.objects.filter(table=table, game_id=game_id).exists():
        raise NotAllowed(N_("That game was not played at this table."))
    return verification.game_acknowledge(
        game_id=game_id, team=team, by=actor.by, by_label=actor.label
    )
