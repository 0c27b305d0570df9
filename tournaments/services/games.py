"""The scoring games behind pairings: created through scoring's services with the event's rule
set, dropped again only while nothing has been played in them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from kaiser_club.errors import Conflict, InvalidInput
from kaiser_club.sentences import N_, Said
from scoring import services as scoring
from scoring.models import Game
from scoring.rules import RuleSet, Seat

from ..models import Event, Pairing, Table
from ..signals import match_opened


def event_rules(event: Event) -> RuleSet:
    """The rule set each of the event's games copies, with the event's minutes per game."""
    rules = RuleSet.from_dict({**event.rules, "time_limit_minutes": event.time_limit})
    return rules


def game_for(
    *, event: Event, pairing: Pairing, rules: RuleSet | None = None, by: User | None = None
) -> Game:
    """Starts the scoring game of a pairing whose two teams are known; the clock waits for the
    round to start."""
    if pairing.home_team is None or pairing.away_team is None:
        raise InvalidInput(N_("Both teams of this game must be known before it can be created."))
    return scoring.game_start(
        club=event.club,
        ns_team=pairing.home_team,
        ew_team=pairing.away_team,
        first_dealer=Seat.NORTH if pairing.first_dealer_home else Seat.EAST,
        rules=rules or event_rules(event),
        preset_name=event.preset,
        start_clock=False,
        by=by,
    )


def pairing_game_open(
    *,
    event: Event,
    pairing: Pairing,
    table: Table | None = None,
    rules: RuleSet | None = None,
    by: User | None = None,
) -> Game:
    """The one game of a stored pairing (at ``table``, when given): started now, or, when
    another writer gave the pairing its game first, that game.

    The database decides: the game is set on the pairing by an UPDATE that matches only while
    the pairing has no game, and a writer whose UPDATE matches nothing rolls its own new game
    back (a savepoint) instead of leaving it in progress with no pairing."""
    with transaction.atomic():
        game = game_for(event=event, pairing=pairing, rules=rules, by=by)
        fields: dict[str, Any] = {"game": game}
        if table is not None:
            fields["table"] = table
        if Pairing.objects.filter(id=pairing.id, game__isnull=True).update(**fields):
            pairing.game = game
            if table is not None:
                pairing.table = table
            match_opened.send(sender=Pairing, event=event, pairing_id=pairing.id)
            return game
        transaction.set_rollback(True)  # another writer was first: this game never existed
    current = Pairing.objects.select_related("game", "table").get(id=pairing.id)
    if current.game is None:  # given a game and taken back again in the meantime
        raise Conflict(
            N_(
                "%(game)s changed while its game was being made; reload the page and try again.",
                game=pairing.code or N_("This game"),
            )
        )
    pairing.game, pairing.table = current.game, current.table
    return current.game


def games_for(
    *,
    event: Event,
    pairings: Sequence[Pairing],
    rules: RuleSet | None = None,
    by: User | None = None,
) -> None:
    """Starts the games of many pairings at once (one insert) and sets each ``pairing.game``;
    the pairings themselves are left for the caller to write."""
    if any(p.home_team is None or p.away_team is None for p in pairings):
        raise InvalidInput(N_("Both teams of every game must be known before it can be created."))
    games = scoring.games_start_many(
        club=event.club,
        pairs=[
            (p.home_team, p.away_team, Seat.NORTH if p.first_dealer_home else Seat.EAST)
            for p in pairings
            if p.home_team is not None and p.away_team is not None
        ],
        rules=rules or event_rules(event),
        preset_name=event.preset,
        start_clock=False,
        by=by,
    )
    for pairing, game in zip(pairings, games, strict=True):
        pairing.game = game


def game_touched(game: Game) -> bool:
    """Whether anything has happened in the game: a hand, a running clock, an end."""
    return bool(game.hand_count or game.started_at or game.status != "in_progress")


def drop_games(games: Iterable[Game | None], *, why: Said) -> None:
    """Deletes games nothing has happened in (a regenerated round, a swap); refuses otherwise."""
    doomed = [g for g in games if g is not None]
    touched = [g for g in doomed if game_touched(g)]
    if touched:
        raise InvalidInput(
            N_(
                "%(why)s: game %(id)s (%(game)s) has already started. Only games nothing has "
                "happened in can be changed this way.",
                why=why,
                id=touched[0].id,
                game=str(touched[0]),
            )
        )
    if doomed:
        Game.objects.filter(id__in=[g.id for g in doomed]).delete()
