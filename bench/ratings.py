"""Timings of ratings and statistics, read from finished games: prints figures, asserts nothing.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kaiser .venv/bin/python bench/ratings.py

- the pure Elo replay (scoring.rules.rating.rate) over 1,000 / 10,000 / 100,000 games;
- on a throw-away database (test_<name>, created and dropped here): 10,000 finished games of 200
  players with 10 hands each; the replay read from the database (query + arithmetic), the cached
  read (one fingerprint query), and one player's statistics (three aggregate queries).
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import _summary as summary

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_club.settings.test")

from scoring.rules.rating import RatedGame, rate

rows: list[tuple[str, float]] = []


def timed(label: str, call: Callable[[], Any], repeat: int = 5) -> Any:
    result = None
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = call()
        samples.append(time.perf_counter() - started)
    rows.append((label, statistics.median(samples) * 1000))
    return result


def synthetic(count: int, players: int = 200, seed: int = 7) -> list[RatedGame]:
    rng = random.Random(seed)
    games = []
    for game_id in range(count):
        a, b, c, d = rng.sample(range(1, players + 1), 4)
        games.append(RatedGame(game_id, (a, b), (c, d), rng.random() < 0.5))
    return games


def pure() -> None:
    for count in (1_000, 10_000, 100_000):
        games = synthetic(count)
        timed(f"pure replay, {count:,} games", partial(rate, games), repeat=3)


def database(games: int = 10_000, players: int = 200, hands: int = 10) -> None:
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment
    from django.utils import timezone

    from kaiser_club.models import Club, Player
    from scoring.models import Game, Hand, Team
    from scoring.ratings import current_ratings, forget_ratings
    from scoring.stats import player_stats

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        rng = random.Random(11)
        club = Club.objects.create(name="Bench", slug="bench")
        people = Player.objects.bulk_create([Player(name=f"P{i}") for i in range(players)])
        now = timezone.now()
        rows_games = []
        for _ in range(games):
            a, b, c, d = rng.sample(people, 4)
            ns = Team(club=club, player_one=a, player_two=b)
            ew = Team(club=club, player_one=c, player_two=d)
            rows_games.append((ns, ew, a, b, c, d))
        Team.objects.bulk_create([t for g in rows_games for t in g[:2]], batch_size=5000)
        started = now - timedelta(days=365)
        game_rows = Game.objects.bulk_create(
            [
                Game(
                    club=club, ns_team=ns, ew_team=ew, north=a, south=b, east=c, west=d,
                    first_dealer=0, preset="club", rules={}, dealer=0, target=52,
                    status="finished", winner=rng.choice(["ns", "ew"]), end_reason="target",
                    ns_score=52, ew_score=30, hand_count=hands,
                    ended_at=started + timedelta(minutes=i),
                )
                for i, (ns, ew, a, b, c, d) in enumerate(rows_games)
            ],
            batch_size=5000,
        )  # fmt: skip
        Hand.objects.bulk_create(
            [
                Hand(
                    game=game, number=n + 1, request_digest="bench", kind="played",
                    dealer=n % 4, bidder=n % 4, bid=7, trump="clubs",
                    bidding_team_tricks=6, five_hearts="ns", three_spades="ew",
                    ns_points=11 if n % 2 == 0 else -1, ew_points=-1 if n % 2 == 0 else 11,
                    made=True, ns_change=11, ew_change=-1,
                )
                for game in game_rows
                for n in range(hands)
            ],
            batch_size=10000,
        )  # fmt: skip
        busiest = max(people, key=lambda p: Game.objects.filter(north=p).count())
        total_hands = games * hands
        print(f"database: {games:,} finished games, {players} players, {total_hands:,} hands")

        def uncached() -> Any:
            forget_ratings()
            return current_ratings()

        timed(f"ratings read, not cached ({games:,} games)", uncached)
        current_ratings()
        timed("ratings read, cached (fingerprint query)", current_ratings, repeat=20)
        stats = timed(
            "one player's statistics (3 queries)", lambda: player_stats(player=busiest), repeat=10
        )
        print(f"  (that player: {stats.record.games} games, {stats.record.hands} hands)")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    pure()
    if os.environ.get("DATABASE_URL", "").startswith("postgres"):
        database()
    else:
        print("(set DATABASE_URL=postgres://... for the database figures)")
    width = max(len(label) for label, _ in rows)
    for label, ms in rows:
        print(f"{label:<{width}}  {ms:9.2f} ms")
        summary.add("ratings", label, ms, "ms")
    by = dict(rows)
    uncached = next((v for k, v in by.items() if k.startswith("ratings read, not")), None)
    cached = by.get("ratings read, cached (fingerprint query)")
    if uncached and cached:
        print(f"cached / not cached: {cached / uncached:.3f}")
