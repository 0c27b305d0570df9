"""Seeds the production stack test's database through the services, as an organiser would
have set it up, and prints what the clients need as JSON. Run as a separate process with the
stack's own settings and environment:

    python -m tests.reliability.production_seed

An organiser (password from SEED_PASSWORD), a Swiss tournament of four teams with round 1
generated and started: two tables, each with its code and a game in progress; table 2's
game has a hand recorded, so that the clock sweep, once its deadline has passed, calls time
on a game with a score.
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from typing import Any


def seed() -> dict[str, object]:
    import datetime as dt

    from django.contrib.auth import get_user_model
    from django.db import transaction

    from kaiser_club.models import Club, Membership, Player
    from kaiser_club.roles import Role
    from scoring import services as scoring
    from scoring.api.serializers import HandRecordSerializer
    from tournaments import services
    from tournaments.models import Pairing, Round
    from tournaments.services.locks import lock_event

    from .tablet import hand_body

    club = Club.objects.create(name="Stack Test Kaiser", slug="stack-test")
    user = get_user_model().objects.create_user("organiser", password=os.environ["SEED_PASSWORD"])
    player = Player.objects.create(name="Olga Organiser", user=user)
    Membership.objects.create(club=club, player=player, role=Role.ORGANISER)
    event = services.event_create(
        club=club,
        name="Stack Test Open",
        date=dt.date.today(),
        format="swiss",
        rounds=3,
        check_in_required=False,
        verification=False,
    )
    for n in range(1, 5):
        services.entry_register_team_unchecked(
            event=event,
            player_one=Player.objects.create(name=f"Player {n}a"),
            player_two=Player.objects.create(name=f"Player {n}b"),
            name=f"Team {n}",
            seed=n,
        )
    with transaction.atomic():
        services.generate(event=lock_event(event.id))
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    tables: list[dict[str, Any]] = []
    for pairing in (
        Pairing.objects.filter(event=event, round__number=1, game__isnull=False)
        .select_related("table")
        .order_by("table__number")
    ):
        assert pairing.table is not None and pairing.game_id is not None
        tables.append(
            {
                "id": pairing.table.id,
                "number": pairing.table.number,
                "code": pairing.table.code,
                "game": pairing.game_id,
            }
        )
    incoming = HandRecordSerializer(data=hand_body(1))
    incoming.is_valid(raise_exception=True)
    scoring.hand_record(
        game_id=tables[-1]["game"], entry=incoming.to_entry(), client_id=uuid.uuid4(), number=1
    )
    return {"event": event.id, "organiser": user.username, "tables": tables}


def main() -> None:
    import django

    django.setup()
    json.dump(seed(), sys.stdout)


if __name__ == "__main__":
    main()
