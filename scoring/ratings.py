"""Ratings read from finished games: replayed in the order the games ended, every time the
games change (see scoring.rules.rating for the arithmetic).

Why replay on read rather than store each rating change: a rating depends on every earlier
game of every player met, so a correction to an old game (a hand fixed, an undo that reopens
the game, a forfeit, two player records merged) changes the ratings of every later game.
Replaying from the games themselves is correct by construction after any of these, with no
listener to miss a change and no stored history to repair. The replay is one query over the
finished games plus arithmetic (bench/ratings.py measures it); its result is cached under a
fingerprint of the finished games that any of those changes alters (count, last update, seats),
so an unchanged club reads it for one small aggregate query. The replay is kept in the
process's memory, not Django's cache: a cache pickles, and unpickling a season's history cost
more than the replay itself (bench/ratings.py); each web process replays once per change.

Which games are rated: finished games, in the order they ended (then by id), except games
ended by forfeit (a forfeit says nothing about play; chess federations do not rate them either).
"""

from __future__ import annotations

from django.db.models import Count, F, Max, QuerySet, Sum
from django.db.models.functions import Coalesce

from .choices import EndReasonChoice, GameStatus, TeamChoice
from .models import Game
from .rules.rating import RatedGame, Ratings, rate


def rated_games_qs() -> QuerySet[Game]:
    return Game.objects.filter(status=GameStatus.FINISHED).exclude(
        end_reason=EndReasonChoice.FORFEIT
    )


def rated_games() -> list[RatedGame]:
    rows = (
        rated_games_qs()
        .order_by(Coalesce("ended_at", "created_at"), "id")
        .values_list("id", "north_id", "south_id", "east_id", "west_id", "winner")
    )
    return [
        RatedGame(game_id, (north, south), (east, west), a_won=winner == TeamChoice.NS)
        for game_id, north, south, east, west, winner in rows
    ]


def fingerprint() -> str:
    """Changes whenever a rated game is added, removed, changed or re-seated (a merge)."""
    seen = rated_games_qs().aggregate(
        n=Count("id"),
        last=Max("updated_at"),
        seats=Sum(F("north_id") + 2 * F("east_id") + 3 * F("south_id") + 5 * F("west_id")),
    )
    last = seen["last"].timestamp() if seen["last"] else 0
    return f"{seen['n']}:{last}:{seen['seats'] or 0}"


_memo: dict[str, Ratings] = {}  # one entry: the replay of the current fingerprint


def current_ratings() -> Ratings:
    """Every player's rating and history: one query when unchanged since the last read in
    this process, two when not."""
    key = fingerprint()
    ratings = _memo.get(key)
    if ratings is None:
        ratings = rate(rated_games())
        _memo.clear()
        _memo[key] = ratings
    return ratings


def forget_ratings() -> None:
    """Drops the memo (tests that count queries start from a cold read)."""
    _memo.clear()
