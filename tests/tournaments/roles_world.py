"""The events part of the roles matrix's world (tests/test_roles_matrix.py): made on first use."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

from scoring import services as scoring
from tournaments import services
from tournaments.models import Pairing, Table

from .helpers import player, winning_hand


def event_ids(world: Any) -> dict[str, Any]:
    from scoring.rules import Side

    season = services.season_create_unchecked(club=world.club, name="2026–27")
    event = services.event_create(
        club=world.club,
        name="Fall Swiss",
        date=dt.date(2026, 10, 3),
        rounds=3,
        check_in_required=False,
    )
    entries = [
        services.entry_register_team_unchecked(
            event=event, player_one=player(), player_two=player(), seed=n
        )
        for n in range(1, 5)
    ]
    job = services.generation_request(event=event)  # its task waits for a commit that never is
    job = services.generation_run(job_id=job.id)
    pairing = Pairing.objects.filter(event=event).order_by("table__number").first()
    assert pairing is not None and pairing.game_id is not None
    scoring.hand_record(
        game_id=pairing.game_id, entry=winning_hand(Side.NS), client_id=uuid.uuid4()
    )
    return {
        "event": event.id,
        "season": season.id,
        "entry": entries[0].id,
        "pairing": pairing.id,
        "table": Table.objects.get(event=event, number=1).id,
        "job": job.id,
        "round": 1,
    }
