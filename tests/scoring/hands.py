"""Small builders for hand entries in the Django-side scoring tests (services, API, races)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, cast

from django.contrib.auth.models import User

from kaiser_club.models import Club, Player
from scoring import services
from scoring.models import Game, Team
from scoring.rules import Contract, HandEntry, HandKind, MisdealReason, Seat, Side, Suit
from tests.factories import ClubFactory, PlayerFactory, TeamFactory, UserFactory

NS, EW = Side.NS, Side.EW
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


def played(
    bidder: Seat,
    bid: int,
    tricks: int,
    five: Side,
    three: Side,
    *,
    trump: Suit | None = Suit.CLUBS,
    contract: Contract = Contract.TRUMP,
    forced: bool = False,
    completed_at: datetime | None = None,
) -> HandEntry:
    """A played hand: the bidder, the bid, the bidding team's tricks, who took the 5♥ and 3♠."""
    return HandEntry(
        bidder=bidder,
        bid=bid,
        contract=contract,
        trump=trump if contract is Contract.TRUMP else None,
        forced=forced,
        bidding_team_tricks=tricks,
        five_hearts=five,
        three_spades=three,
        completed_at=completed_at,
    )


def misdeal(reason: MisdealReason = MisdealReason.NO_HONOURS) -> HandEntry:
    return HandEntry(kind=HandKind.MISDEAL, misdeal_reason=reason)


def filler(number: int) -> HandEntry:
    """Hand ``number`` of a long game that never ends: the bidding side (N, E, S, W in turn)
    takes 5 tricks with the 3♠ (2 points) and fails its 7; the defenders take 3 tricks and
    the 5♥ (8 points). Both scores stay between -7 and 9 however long it runs."""
    bidder = Seat((number - 1) % 4)
    return played(bidder, 7, 5, bidder.team.other, bidder.team)


def record(game: Game | int, entry: HandEntry, **kwargs: Any) -> services.Recorded:
    game_id = game if isinstance(game, int) else game.id
    kwargs.setdefault("client_id", uuid.uuid4())
    return services.hand_record(game_id=game_id, entry=entry, **kwargs)


def record_fillers(game: Game, count: int) -> None:
    for number in range(1, count + 1):
        record(game, filler(number))


def hand_json(
    bidder: int = 0,
    bid: int = 7,
    tricks: int = 5,
    five: str = "ns",
    three: str = "ew",
    **extra: Any,
) -> dict[str, Any]:
    """A hand as the API takes it (a new client_id each call unless given)."""
    body: dict[str, Any] = {
        "bidder": bidder,
        "bid": bid,
        "contract": "trump",
        "trump": "clubs",
        "bidding_team_tricks": tricks,
        "five_hearts": five,
        "three_spades": three,
        "client_id": str(uuid.uuid4()),
    }
    body.update(extra)
    return body


# Typed wrappers of the shared factories (factory_boy's calls are typed as the factory).
def make_club(**fields: Any) -> Club:
    return cast(Club, ClubFactory(**fields))


def make_player(**fields: Any) -> Player:
    return cast(Player, PlayerFactory(**fields))


def make_team(**fields: Any) -> Team:
    return cast(Team, TeamFactory(**fields))


def make_user(**fields: Any) -> User:
    return cast(User, UserFactory(**fields))
