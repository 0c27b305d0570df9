"""The statistics' aggregate queries against a plain recount in Python over the same rows, on
random seasons (random hands played out, some games left in progress, some forfeited)."""

from __future__ import annotations

import random
import uuid
from collections import Counter, defaultdict
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kaiser_club.models import Player
from scoring import services
from scoring.demo_season import random_hand
from scoring.models import Game, Hand, Team
from scoring.rules import Seat, Side
from scoring.stats import player_stats
from tests.scoring.season import new_club

pytestmark = [pytest.mark.django_db, pytest.mark.long]
SEATS = ("north", "east", "south", "west")


def recount(player: Player) -> tuple[Counter[str], dict[int, Counter[str]]]:
    """Player totals (own bids) and per-partner records (bids of either), counted by hand."""
    total: Counter[str] = Counter()
    partners: dict[int, Counter[str]] = defaultdict(Counter)
    for game in Game.objects.filter(status="finished"):
        seats = [getattr(game, f"{s}_id") for s in SEATS]
        if player.id not in seats:
            continue
        seat = seats.index(player.id)
        side = "ns" if seat in (0, 2) else "ew"
        partner = seats[(seat + 2) % 4]
        for counter in (total, partners[partner]):
            counter["games"] += 1
            counter["wins"] += game.winner == side
            counter["minus"] += game.end_reason == "minus_line" and game.winner != side
        for hand in Hand.objects.filter(game=game, kind="played"):
            points = hand.ns_points if side == "ns" else hand.ew_points
            net = hand.ns_change if side == "ns" else hand.ew_change
            nt = hand.contract in ("no_trump", "low_no_trump")
            ours = hand.bidder is not None and (hand.bidder % 2) == (seat % 2)
            for counter, bid in ((total, hand.bidder == seat), (partners[partner], ours)):
                counter["hands"] += 1
                counter["points"] += points
                counter["net"] += net
                counter["bids"] += bid
                counter["made"] += bid and bool(hand.made)
                counter["nt"] += bid and nt
                counter["nt_made"] += bid and nt and bool(hand.made)
    return total, partners


def as_counter(record: Any) -> Counter[str]:
    return Counter(
        {
            "games": record.games,
            "wins": record.wins,
            "minus": record.minus_line_losses,
            "hands": record.hands,
            "points": record.points,
            "net": record.net,
            "bids": record.bids,
            "made": record.bids_made,
            "nt": record.no_trump_bids,
            "nt_made": record.no_trump_made,
        }
    )


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9), games=st.integers(1, 5))
def test_statistics_match_a_recount(seed: int, games: int) -> None:
    rng = random.Random(seed)
    club = new_club()
    people = [Player.objects.create(name=f"S{seed}-{i}") for i in range(6)]
    for _ in range(games):
        a, b, c, d = rng.sample(people, 4)
        game = services.game_start(
            club=club,
            ns_team=Team.objects.create(player_one=a, player_two=b),
            ew_team=Team.objects.create(player_one=c, player_two=d),
            first_dealer=Seat(rng.randrange(4)),
            rules=services.rules_from(preset_name="club"),
            preset_name="club",
            from_paper=True,
        )
        fate = rng.random()
        for number in range(rng.randint(1, 40) if fate < 0.2 else 80):
            services.hand_record(
                game_id=game.id, entry=random_hand(rng, number), client_id=uuid.uuid4()
            )
            game.refresh_from_db(fields=["status"])
            if game.status == "finished":
                break
        if game.status != "finished" and fate < 0.1:
            services.game_forfeit(game_id=game.id, forfeited_by=rng.choice(list(Side)))
    for player in people:
        stats = player_stats(player=player)
        total, partners = recount(player)
        assert as_counter(stats.record) == total
        assert {p.partner.id: as_counter(p.record) for p in stats.partnerships} == partners
