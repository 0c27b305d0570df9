"""Demo games: some finished, some in progress, one entered from paper."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import timedelta

from django.utils import timezone

from kaiser_club.demo import DEMO_CLUB_SLUG, demo_step
from kaiser_club.models import Club, Player

from . import services
from .models import Game, Team
from .rules import Contract, HandEntry, Seat, Side, Suit

NS, EW = Side.NS, Side.EW

# (bidder, bid, contract, trump, bidding team's tricks, 5♥ team, 3♠ team) as a club plays them.
DEMO_HANDS: list[tuple[Seat, int, Contract, Suit | None, int, Side, Side]] = [
    (Seat.EAST, 7, Contract.TRUMP, Suit.HEARTS, 5, EW, NS),
    (Seat.SOUTH, 8, Contract.TRUMP, Suit.SPADES, 6, NS, EW),
    (Seat.WEST, 7, Contract.NO_TRUMP, None, 5, EW, NS),
    (Seat.NORTH, 9, Contract.TRUMP, Suit.CLUBS, 7, NS, NS),
    (Seat.EAST, 7, Contract.TRUMP, Suit.DIAMONDS, 4, EW, EW),
    (Seat.SOUTH, 8, Contract.TRUMP, Suit.HEARTS, 6, NS, EW),
    (Seat.WEST, 10, Contract.TRUMP, Suit.SPADES, 6, EW, NS),
    (Seat.NORTH, 7, Contract.TRUMP, Suit.CLUBS, 3, EW, NS),
    (Seat.EAST, 8, Contract.TRUMP, Suit.HEARTS, 5, EW, EW),
    (Seat.SOUTH, 7, Contract.NO_TRUMP, None, 6, NS, EW),
    (Seat.WEST, 8, Contract.TRUMP, Suit.DIAMONDS, 5, EW, NS),
    (Seat.NORTH, 9, Contract.TRUMP, Suit.SPADES, 7, NS, EW),
    (Seat.EAST, 7, Contract.TRUMP, Suit.CLUBS, 4, EW, EW),
    (Seat.SOUTH, 8, Contract.TRUMP, Suit.HEARTS, 6, NS, EW),
]


def play(game: Game, count: int) -> None:
    for bidder, bid, contract, trump, tricks, five, three in DEMO_HANDS[:count]:
        game.refresh_from_db()
        if game.status == "finished":
            return
        services.hand_record(
            game_id=game.id,
            client_id=uuid.uuid4(),
            entry=HandEntry(
                bidder=bidder,
                bid=bid,
                contract=contract,
                trump=trump,
                bidding_team_tricks=tricks,
                five_hearts=five,
                three_spades=three,
            ),
        )


@demo_step(20)
def games(say: Callable[[str], None]) -> None:
    club = Club.objects.get(slug=DEMO_CLUB_SLUG)
    if Game.objects.filter(club=club).exists():
        return
    players = list(Player.objects.filter(memberships__club=club).order_by("id")[:16])
    teams = [
        Team.objects.create(
            club=club,
            name=f"{a.name.split()[-1]} & {b.name.split()[-1]}",
            player_one=a,
            player_two=b,
        )
        for a, b in zip(players[::2], players[1::2], strict=True)
    ]
    plan = [
        (0, 1, "club", 14, False),
        (2, 3, "club", 6, False),
        (4, 5, "tournament", 3, False),
        (6, 7, "standard", 14, True),
    ]
    for ns, ew, preset_name, hands, from_paper in plan:
        game = services.game_start(
            club=club,
            ns_team=teams[ns],
            ew_team=teams[ew],
            first_dealer=Seat.NORTH,
            rules=services.rules_from(preset_name=preset_name),
            preset_name=preset_name,
            from_paper=from_paper,
        )
        if game.time_limit_minutes:
            Game.objects.filter(id=game.id).update(
                started_at=timezone.now() - timedelta(minutes=20)
            )
        play(game, hands)
    say(f"{len(plan)} demo games, {len(teams)} teams.")


# The season of finished games behind the player pages (statistics, ratings): its own module.
from .demo_season import season  # noqa: E402, F401
