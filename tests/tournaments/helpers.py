"""Builders for events tests: an event with its entries, and games played to their end."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any, cast

from django.contrib.auth.models import User

from kaiser_club.actors import Actor
from kaiser_club.models import Club, Player
from scoring import services as scoring
from scoring.models import Game
from scoring.rules import Contract, HandEntry, HandKind, Seat, Side
from tests.factories import ClubFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Entry, Event, Pairing


def make_event(
    *,
    teams: int,
    format: str = "swiss",
    club: Club | None = None,
    check_in: bool = False,
    seeded: bool = True,
    **settings: Any,
) -> Event:
    """An event with ``teams`` entries (seeded 1…n unless told otherwise)."""
    club = club or cast(Club, ClubFactory())
    if format in ("swiss", "progressive"):
        settings.setdefault("rounds", 3)
    event = services.event_create(
        club=club,
        name=f"{format} event",
        date=dt.date(2026, 11, 28),
        format=format,
        check_in_required=check_in,
        **settings,
    )
    for n in range(1, teams + 1):
        if event.individual:
            services.entry_register_player_unchecked(
                event=event, player=_player(f"P{n}"), seed=n if seeded else None
            )
        else:
            services.entry_register_team_unchecked(
                event=event,
                player_one=_player(f"T{n}a"),
                player_two=_player(f"T{n}b"),
                name=f"Team {n}",
                seed=n if seeded else None,
            )
    return event


def _player(name: str) -> Player:
    return cast(Player, PlayerFactory(name=name))


def player(name: str | None = None) -> Player:
    """A new player (typed, unlike the factory's own answer)."""
    return cast(Player, PlayerFactory(name=name) if name else PlayerFactory())


def new_club(**fields: Any) -> Club:
    return cast(Club, ClubFactory(**fields))


def generate(event: Event) -> Any:
    """Runs a generation job (Celery is eager in tests) and returns the job."""
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        job = services.generation_request(event=event)
    job.refresh_from_db()
    return job


def winning_hand(side: Side, number: int = 0) -> HandEntry:
    """10 no-trump bid and made with every trick: +20 for ``side``. Three of them win a game."""
    return HandEntry(
        kind=HandKind.PLAYED,
        bidder=Seat.NORTH if side is Side.NS else Seat.EAST,
        bid=10,
        contract=Contract.NO_TRUMP,
        bidding_team_tricks=8,
        five_hearts=side,
        three_spades=side,
    )


def win_game(game: Game | int | None, side: Side = Side.NS, *, hands: int = 3) -> Game:
    """Records hands until ``side`` wins (on commit the events app carries the result on)."""
    from django.test import TestCase

    assert game is not None, "this pairing has no game"
    game_id = game if isinstance(game, int) else game.id
    with TestCase.captureOnCommitCallbacks(execute=True):
        for _ in range(hands):
            scoring.hand_record(game_id=game_id, entry=winning_hand(side), client_id=uuid.uuid4())
    return Game.objects.get(id=game_id)


def win_for(pairing: Pairing, entry: Entry | None) -> Game:
    """``entry`` wins the pairing's game."""
    assert pairing.game_id is not None and entry is not None
    side = Side.NS if pairing.home_id == entry.id else Side.EW
    return win_game(pairing.game_id, side)


def gid(pairing: Pairing) -> int:
    """The id of the pairing's game (which it must have)."""
    assert pairing.game_id is not None, "this pairing has no game"
    return pairing.game_id


def staff_actor() -> Actor:
    """Someone every event's actions allow (staff act as club admins everywhere), with no
    player record of their own to count."""
    return Actor.of(cast(User, UserFactory(is_staff=True)))


def game_of(pairing: Pairing) -> Game:
    return Game.objects.get(id=gid(pairing))


def hand_json(side: str = "ns") -> dict[str, Any]:
    return {
        "client_id": str(uuid.uuid4()),
        "bidder": 0 if side == "ns" else 1,
        "bid": 10,
        "contract": "no_trump",
        "bidding_team_tricks": 8,
        "five_hearts": side,
        "three_spades": side,
    }
