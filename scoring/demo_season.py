"""Demo data for player pages: a club season of finished games with rotating partners, so that
statistics, partnerships and rating plots have something to show. Registered by scoring.demo."""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable
from datetime import timedelta

from django.utils import timezone

from kaiser_club.demo import DEMO_CLUB_SLUG, demo_step
from kaiser_club.models import Club, Player

from . import services
from .choices import GameStatus
from .models import Game, Team
from .rules import Contract, HandEntry, Seat, Side, Suit

SEASON_NIGHTS = 6
MAX_HANDS = 60
SUITS = list(Suit)


def random_hand(rng: random.Random, number: int) -> HandEntry:
    """A plausible club hand: the bidder turns with the deal, bids 5 to 9, sometimes no-trump."""
    bidder = Seat(number % 4)
    side = bidder.team
    tricks = rng.choice([3, 4, 5, 5, 6, 6, 6, 7, 7, 8])
    no_trump = rng.random() < 0.15
    bid = rng.choice([5, 6, 7, 7, 8, 9])

    def holder() -> Side:
        if tricks == 8:
            return side
        if tricks == 0:
            return side.other
        return side if rng.random() < tricks / 8 else side.other

    return HandEntry(
        bidder=bidder,
        bid=bid,
        contract=Contract.NO_TRUMP if no_trump else Contract.TRUMP,
        trump=None if no_trump else rng.choice(SUITS),
        bidding_team_tricks=tricks,
        five_hearts=holder(),
        three_spades=holder(),
    )


def play_out(game: Game, rng: random.Random) -> None:
    for number in range(MAX_HANDS):
        services.hand_record(
            game_id=game.id, entry=random_hand(rng, number), client_id=uuid.uuid4()
        )
        game.refresh_from_db(fields=["status"])
        if game.status == GameStatus.FINISHED:
            return


@demo_step(30)
def season(say: Callable[[str], None]) -> None:
    """Six club nights of eight players: each night the partners change (a round robin of
    partnerships), each table plays one game from its paper score sheet."""
    club = Club.objects.get(slug=DEMO_CLUB_SLUG)
    if Game.objects.filter(club=club, preset="club", from_paper=True).exists():
        say("Demo season already there; keeping it.")
        return
    players = list(Player.objects.filter(memberships__club=club).order_by("id")[:8])
    rng = random.Random(1952)  # the same season on every machine
    rules = services.rules_from(preset_name="club")
    games = 0
    for night in range(SEASON_NIGHTS):
        # Circle method: player 0 stays, the others turn, so partners change every night.
        turned = [players[0], *players[1 + night % 7 :], *players[1 : 1 + night % 7]]
        pairs = [(turned[i], turned[7 - i]) for i in range(4)]
        for table in range(2):
            (n, s), (e, w) = pairs[2 * table], pairs[2 * table + 1]
            game = services.game_start(
                club=club,
                ns_team=Team.objects.create(club=club, player_one=n, player_two=s),
                ew_team=Team.objects.create(club=club, player_one=e, player_two=w),
                first_dealer=Seat(table),
                rules=rules,
                preset_name="club",
                from_paper=True,
            )
            play_out(game, rng)
            night_of = timezone.now() - timedelta(days=7 * (SEASON_NIGHTS - night))
            Game.objects.filter(id=game.id).update(created_at=night_of, ended_at=night_of)
            games += 1
    say(f"Demo season: {games} finished games over {SEASON_NIGHTS} club nights.")
