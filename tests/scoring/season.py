"""A hand-made season for the statistics and ratings tests: five players, five games, every
hand written out, so each expected number can be worked out by hand from this page.

Rules: the tournament preset entered from paper (no clock), with the target lowered to 20 and
the bid-out line to 15 so that games are two or three hands long. Minimum bid 7; the minus
line is -20. Points of a side: tricks, +5 with the 5♥, -3 with the 3♠. A made bid adds the
points (twice at no-trump); a failed one subtracts the bid (twice at no-trump); defenders add
their points.

Seats: a team's first player sits north (or east), the second south (or west).

Game 1  N A, S B  v  E C, W D                      scores NS, EW
  1. A (N) 7 hearts: NS 6 tricks + 5♥ = 11, EW 2 + 3♠ = -1. Made.     11, -1
  2. B (S) 8 no-trump: NS 5 + 5♥ = 10, EW 3 + 3♠ = 0. Made, 2 × 10.   31, -1   NS win (target)
Game 2  N A, S C  v  E B, W E
  1. E (W) 7 spades: EW 4 + 3♠ = 1, NS 4 + 5♥ = 9. Failed, -7.       9, -7
  2. B (E) 9 no-trump: EW 3 + 3♠ = 0, NS 5 + 5♥ = 10. Failed, -18.   19, -25  EW at the
     minus line: NS win (minus line); B and E are "set to the minus line"
Game 3  N C, S D  v  E A, W B
  1. C (N) 7 clubs: NS 8 + 5♥ + 3♠ = 10, EW 0. Made.                 10, 0
  2. A (E) 7 diamonds: EW 7 + 5♥ = 12, NS 1 + 3♠ = -2. Made.          8, 12
  3. D (S) 8 no-trump: NS 6 + 5♥ = 11, EW 2 + 3♠ = -1. Made, 2 × 11. 30, 11   NS win (target)
Game 4  N A, S E  v  E C, W D  (left in progress: counts nowhere)
  1. A (N) 7 hearts: NS 5 + 5♥ = 10, EW 3 + 3♠ = 0. Made.            10, 0
Game 5  N B, S D  v  E C, W E  no hands; EW forfeit: NS win (forfeit). Counted in games and
  wins; not rated.

The correction (``correct_game_3``): game 3, hand 3 becomes D (S) 8 no-trump with NS 2 tricks
+ 3♠ = -1 and EW 6 + 5♥ = 11. Failed, -16: NS 8 - 16 = -8; EW 12 + 11 = 23 reaches the target:
EW (A, B) win game 3 instead.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from kaiser_club.models import Club, Player
from scoring import services
from scoring.models import Game, Team
from scoring.rules import Contract, HandEntry, Seat, Side, Suit
from tests.factories import ClubFactory

N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST
NS, EW = Side.NS, Side.EW
RULE_CHANGES = {"target": 20, "bid_out_line": 15}


def hand(
    bidder: Seat,
    bid: int,
    trump: Suit | None,
    tricks: int,
    five: Side,
    three: Side,
) -> HandEntry:
    return HandEntry(
        bidder=bidder,
        bid=bid,
        contract=Contract.TRUMP if trump else Contract.NO_TRUMP,
        trump=trump,
        bidding_team_tricks=tricks,
        five_hearts=five,
        three_spades=three,
    )


@dataclass
class Season:
    club: Club
    a: Player
    b: Player
    c: Player
    d: Player
    e: Player
    games: list[Game]

    def correct_game_3(self) -> None:
        services.hand_correct(game_id=self.games[2].id, number=3, entry=hand(S, 8, None, 2, EW, NS))


def play(
    club: Club,
    north_south: tuple[Player, Player],
    east_west: tuple[Player, Player],
    hands: list[HandEntry],
) -> Game:
    game = services.game_start(
        club=club,
        ns_team=Team.objects.create(
            club=club, player_one=north_south[0], player_two=north_south[1]
        ),
        ew_team=Team.objects.create(club=club, player_one=east_west[0], player_two=east_west[1]),
        first_dealer=Seat.NORTH,
        rules=services.rules_from(preset_name="tournament", changes=RULE_CHANGES),
        preset_name="tournament",
        from_paper=True,
    )
    for entry in hands:
        services.hand_record(game_id=game.id, entry=entry, client_id=uuid.uuid4())
    game.refresh_from_db()
    return game


def new_club() -> Club:
    club = ClubFactory()
    assert isinstance(club, Club)
    return club


def build_season(club: Club | None = None) -> Season:
    club = club or new_club()
    a, b, c, d, e = (Player.objects.create(name=name) for name in ("Ann", "Bob", "Cy", "Dot", "Ed"))
    games = [
        play(
            club, (a, b), (c, d), [hand(N, 7, Suit.HEARTS, 6, NS, EW), hand(S, 8, None, 5, NS, EW)]
        ),
        play(
            club, (a, c), (b, e), [hand(W, 7, Suit.SPADES, 4, NS, EW), hand(E, 9, None, 3, NS, EW)]
        ),
        play(
            club,
            (c, d),
            (a, b),
            [
                hand(N, 7, Suit.CLUBS, 8, NS, NS),
                hand(E, 7, Suit.DIAMONDS, 7, EW, NS),
                hand(S, 8, None, 6, NS, EW),
            ],
        ),
        play(club, (a, e), (c, d), [hand(N, 7, Suit.HEARTS, 5, NS, EW)]),
        play(club, (b, d), (c, e), []),
    ]
    services.game_forfeit(game_id=games[4].id, forfeited_by=EW)
    for game in games:
        game.refresh_from_db()
    return Season(club, a, b, c, d, e, games)
