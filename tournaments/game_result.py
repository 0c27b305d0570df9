"""An event's word on the results of its games, for ``scoring.results``: the result the
standings count, which is the pairing's (``Pairing.result``, ``home_points``,
``away_points``, ``winner_side``; the home team plays North–South). A forfeit counts the
event's forfeit score (52–0 unless the event says otherwise), an adjusted result the organiser's
scores; a played game its final scores, which the pairing holds too.

Registered with ``scoring.results`` when the app is ready, so the club's pages and the games
API show an event's game as the event counts it. The event's own pages, which list pairings,
read ``pairing_result``: the same result from the pairing they hold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db.models import prefetch_related_objects

from scoring.choices import TeamChoice
from scoring.models import Game
from scoring.results import ADJUSTED, GameResult, Settled

from .choices import ResultKind, SlotSide
from .models import Pairing

# What the settler reads of a game: every reader of games whose results it shows reads them
# with these (``scoring.results.result_related``, ``result_reads``), so it costs no query.
RESULT_RELATED = ("pairing",)
RESULT_FIELDS = ("result", "winner_side", "home_points", "away_points")
RESULT_READS = tuple(f"pairing__{name}" for name in RESULT_FIELDS)


def settled_of(pairing: Pairing, end_reason: str = "") -> Settled | None:
    """The result the event counts for a pairing with two teams (None while it has none, and
    for a bye: no game). ``end_reason``: how its game ended, for a game played to its end."""
    if pairing.result == ResultKind.FORFEIT:
        how = ResultKind.FORFEIT.value
    elif pairing.result == ResultKind.ADJUSTED:
        how = ADJUSTED
    elif pairing.result == ResultKind.PLAYED:
        how = end_reason
    else:
        return None
    winner = {SlotSide.HOME.value: TeamChoice.NS.value, SlotSide.AWAY.value: TeamChoice.EW.value}
    return Settled(
        pairing.home_points, pairing.away_points, winner.get(pairing.winner_side, ""), how
    )


def pairing_result(pairing: Pairing) -> GameResult | None:
    """The result of a pairing's game as every page shows it (``scoring.results``), read from
    the pairing and the game it holds: no query. None for a bye. Until the event has taken a
    game's result (a game finished a moment ago), its score and no winner, as it counts."""
    if pairing.result == ResultKind.BYE:
        return None
    game = pairing.game if pairing.game_id is not None else None
    settled = settled_of(pairing, game.end_reason if game is not None else "")
    if settled is not None:
        return GameResult(settled.ns_score, settled.ew_score, settled.winner, settled.how)
    if game is None:
        return GameResult(None, None)
    return GameResult(game.ns_score, game.ew_score)


def _held(pairing: Pairing) -> bool:
    """Whether the pairing was read with the columns the settler needs."""
    return not set(RESULT_FIELDS) & pairing.get_deferred_fields()


def event_settler(games: Sequence[Game]) -> Mapping[int, Settled]:
    """The results the events count of those of ``games`` that are events' games, from the
    pairings read with the games (``RESULT_RELATED``, ``RESULT_READS``: no query); those read
    without their result's columns are read again together, in one query; games read without
    their pairings have them read together too (Django's prefetch skips those already read)."""
    prefetch_related_objects(list(games), "pairing")
    settled: dict[int, Settled] = {}
    unread: dict[int, Game] = {}
    for game in games:
        try:
            pairing = game.pairing
        except Pairing.DoesNotExist:
            continue  # no event's game
        if not _held(pairing):
            unread[game.id] = game
            continue
        found = _settled_for(pairing, game)
        if found is not None:
            settled[game.id] = found
    if unread:
        rows = Pairing.objects.filter(game_id__in=list(unread)).only("game", *RESULT_FIELDS)
        for pairing in rows.order_by():
            assert pairing.game_id is not None
            found = _settled_for(pairing, unread[pairing.game_id])
            if found is not None:
                settled[pairing.game_id] = found
    return settled


def _settled_for(pairing: Pairing, game: Game) -> Settled | None:
    """A forfeit or an adjusted result is the event's; a game played to its end keeps its own
    result (the pairing holds the same scores and winner)."""
    if pairing.result not in (ResultKind.FORFEIT, ResultKind.ADJUSTED):
        return None
    return settled_of(pairing, game.end_reason)
