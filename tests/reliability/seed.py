"""Seeds a database for the fault tests and the load script, through the services, and prints
what the clients need as JSON. Run it as a separate process with the server's settings:

    python -m tests.reliability.seed games --count 6

Every tablet gets its own scorekeeper and a signed-in session minted here (the users have no
usable password): two hundred password hashes at login would measure PBKDF2, not the app.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from importlib import import_module
from typing import Any


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_club.settings.production")
    import django

    django.setup()


def _session_for(user: Any) -> str:
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return str(store.session_key)


def _member(club: Any, username: str, role: str) -> Any:
    from django.contrib.auth import get_user_model

    from kaiser_club.models import Membership, Player

    user = get_user_model()(username=username)
    user.set_unusable_password()
    user.save()
    player = Player.objects.create(name=username, user=user)
    Membership.objects.create(club=club, player=player, role=role)
    return user


def _club(label: str) -> Any:
    from kaiser_club.models import Club

    tag = secrets.token_hex(3)
    return Club.objects.create(name=f"{label} {tag}", slug=f"{label.lower()}-{tag}")


def _record_hands(game_id: int, hands: int) -> None:
    """Records ``hands`` hands through the service, as a tablet would through the API."""
    import uuid

    from scoring import services
    from scoring.api.serializers import HandRecordSerializer

    from .tablet import hand_body

    for number in range(1, hands + 1):
        incoming = HandRecordSerializer(data=hand_body(number))
        incoming.is_valid(raise_exception=True)
        services.hand_record(
            game_id=game_id, entry=incoming.to_entry(), client_id=uuid.uuid4(), number=number
        )


def seed_games(*, count: int, preset_name: str, hands: int = 0) -> dict[str, Any]:
    """``count`` games in one club, each with its own tablet (a scorekeeper's session) and
    ``hands`` hands already recorded."""
    from kaiser_club.models import Player
    from kaiser_club.roles import Role
    from scoring import services
    from scoring.models import Team
    from scoring.rules import Seat

    club = _club("Fault")
    organiser = _member(club, f"organiser-{club.slug}", Role.ORGANISER)
    tablets = []
    for n in range(1, count + 1):
        teams = []
        for side in ("a", "b"):
            one = Player.objects.create(name=f"G{n}{side}1")
            two = Player.objects.create(name=f"G{n}{side}2")
            teams.append(
                Team.objects.create(club=club, name=f"G{n}{side}", player_one=one, player_two=two)
            )
        game = services.game_start(
            club=club,
            ns_team=teams[0],
            ew_team=teams[1],
            first_dealer=Seat.NORTH,
            rules=services.rules_from(preset_name=preset_name),
            preset_name=preset_name,
        )
        _record_hands(game.id, hands)
        user = _member(club, f"tablet-{club.slug}-{n}", Role.SCOREKEEPER)
        tablets.append({"game": game.id, "session": _session_for(user)})
    return {"club": club.id, "organiser_session": _session_for(organiser), "tablets": tablets}


def seed_event(*, tables: int) -> dict[str, Any]:
    """A Swiss tournament of ``2 * tables`` teams with round 1 generated and started: one
    game, and one tablet (an organiser's session), per table; a player's session for the
    viewers; and the addresses viewers read: the game's API and page, the standings API and
    the public pages (bench/load.py --page adds others)."""
    import datetime as dt

    from django.db import transaction
    from django.urls import reverse

    from kaiser_club.models import Player
    from kaiser_club.roles import Role
    from tournaments import services
    from tournaments.models import Pairing, Round
    from tournaments.services.locks import lock_event

    club = _club("Load")
    event = services.event_create(
        club=club,
        name=f"Load test {club.slug}",
        date=dt.date.today(),
        format="swiss",
        rounds=3,
        check_in_required=False,
    )
    for n in range(1, 2 * tables + 1):
        services.entry_register_team_unchecked(
            event=event,
            player_one=Player.objects.create(name=f"T{n}a"),
            player_two=Player.objects.create(name=f"T{n}b"),
            name=f"Team {n}",
            seed=n,
        )
    with transaction.atomic():
        services.generate(event=lock_event(event.id))
    round_ = Round.objects.get(event=event, number=1)
    services.round_start_unchecked(round_=round_)
    games = list(
        Pairing.objects.filter(round=round_, game__isnull=False)
        .order_by("id")
        .values_list("game_id", flat=True)
    )
    # At an event the games API takes hands from an organiser (a table's own code opens the
    # table page instead): each tablet is a scorer's session with that role.
    tablets = [
        {"game": game, "session": _session_for(_member(club, f"t-{club.slug}-{n}", Role.ORGANISER))}
        for n, game in enumerate(games, start=1)
    ]
    viewer = _member(club, f"viewer-{club.slug}", Role.PLAYER)
    pages = {
        "game detail (API)": [f"/api/games/{g}/" for g in games],
        "game page (HTML)": [f"/games/{g}/" for g in games],
        "standings (API)": [f"/api/events/{event.id}/standings/"],
    }
    pairings = list(
        Pairing.objects.filter(round=round_, game__isnull=False).values_list("id", flat=True)
    )
    public = {
        "public event": reverse("public:event", args=[event.id]),
        "public standings": reverse("public:standings", args=[event.id]),
        "public live": reverse("public:live", args=[event.id]),
        "public round": reverse("public:round", args=[event.id, 1]),
    }
    for label, path in public.items():
        pages[label] = [path]
    pages["public game sheet"] = [reverse("public:game", args=[event.id, p]) for p in pairings]
    return {
        "club": club.id,
        "event": event.id,
        "tablets": tablets,
        "viewer_session": _session_for(viewer),
        "pages": pages,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    games = commands.add_parser("games", help="games in one club, one tablet each")
    games.add_argument("--count", type=int, default=6)
    games.add_argument("--preset", default="standard")
    games.add_argument("--hands", type=int, default=0, help="hands recorded in each game")
    event = commands.add_parser("event", help="a Swiss round in progress, one tablet a table")
    event.add_argument("--tables", type=int, default=20)
    args = parser.parse_args(argv)
    _setup()
    if args.command == "games":
        result = seed_games(count=args.count, preset_name=args.preset, hands=args.hands)
    else:
        result = seed_event(tables=args.tables)
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
