"""Standings read from the database with aggregate queries.

Read from pairings' results (a played game's final scores, a bye's points, a forfeit's score,
an adjusted result), never game by game: a pairing gets its result when its game is finished,
so a game in progress (and a hand still waiting for confirmation) counts for nothing here.
Each function costs a fixed number of queries, however many teams and games: the rows (1),
home and away totals (2), and the decided games when a metric needs them (1).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.db.models import Count, Q, QuerySet, Sum

from kaiser_club.models import Player
from scoring.choices import EndReasonChoice

from ..choices import DEFAULT_TIEBREAKS, EventKind, ResultKind, SlotSide
from ..models import Entry, Event, Pairing, Season
from .metrics import metrics_named
from .placings import BracketMatch, display_key, in_band, placings
from .ranking import rank
from .rows import Encounter, StandingsRow


def decided(qs: QuerySet[Pairing]) -> QuerySet[Pairing]:
    """Pairings with a result that counts: played to the end, a bye, a forfeit, adjusted.

    A bye counts once it has its points (the round's average, set when a game of its round
    ends, or set by the organiser): before a card is played it leads nobody's table."""
    return (
        qs.filter(cancelled=False)
        .exclude(result=ResultKind.PENDING)
        .exclude(result=ResultKind.BYE, home_points__isnull=True)
    )


def _side_totals(qs: QuerySet[Pairing], side: str, key: str) -> QuerySet[Pairing, dict[str, Any]]:
    other = SlotSide.AWAY if side == SlotSide.HOME else SlotSide.HOME
    won = Q(winner_side=side)
    return (
        qs.filter(**{f"{key}__isnull": False})
        .values(key)
        .order_by()
        .annotate(
            games=Count("id"),
            wins=Count("id", filter=won),
            wins_on_time=Count(
                "id",
                filter=won & Q(result=ResultKind.PLAYED, game__end_reason=EndReasonChoice.TIME),
            ),
            byes=Count("id", filter=Q(result=ResultKind.BYE)),
            points_for=Sum(f"{side}_points", default=0),
            points_against=Sum(f"{other}_points", default=0),
        )
    )


def _add(rows: dict[int, StandingsRow], totals: Iterable[dict[str, Any]], key: str) -> None:
    for t in totals:
        row = rows.get(t[key])
        if row is None:
            continue
        row.games += t["games"]
        row.wins += t["wins"]
        row.wins_on_time += t["wins_on_time"]
        row.byes += t["byes"]
        row.points_for += t["points_for"] or 0
        row.points_against += t["points_against"] or 0


def _needs_encounters(order_by: Sequence[str]) -> bool:
    return any(metric.needs_encounters for metric in metrics_named(order_by))


def team_encounters(pairings: QuerySet[Pairing]) -> list[Encounter]:
    """Every decided game between two entries (byes left out), in one query."""
    games = pairings.filter(home__isnull=False, away__isnull=False).exclude(winner_side="")
    return [
        Encounter((home,), (away,), winner, home_points or 0, away_points or 0)
        for home, away, winner, home_points, away_points in games.values_list(
            "home_id", "away_id", "winner_side", "home_points", "away_points"
        )
    ]


def _team_rows(
    event: Event, pairings: QuerySet[Pairing], entries: QuerySet[Entry]
) -> dict[int, StandingsRow]:
    rows = {
        e["id"]: StandingsRow(
            id=e["id"],
            name=e["name"],
            seed=e["seed"],
            pool=e["pool"],
            withdrawn=e["status"] == "withdrawn",
        )
        for e in entries.values("id", "name", "seed", "pool", "status")
    }
    _add(rows, _side_totals(pairings, SlotSide.HOME, "home"), "home")
    _add(rows, _side_totals(pairings, SlotSide.AWAY, "away"), "away")
    return rows


def event_standings(
    *,
    event: Event,
    pool: int | None = None,
    before_round: int | None = None,
    tiebreaks: Sequence[str] | None = None,
    first_stage: bool = False,
) -> list[StandingsRow]:
    """Team standings of an event, in its tie-break order (3 queries; 4 when a metric reads
    the games: head-to-head, opponents' wins). ``first_stage``: a staged event's Swiss or
    round robin alone, its knockout's games left out."""
    entries = Entry.objects.filter(event=event)
    pairings = decided(Pairing.objects.filter(event=event))
    if first_stage:
        pairings = pairings.filter(match_number__isnull=True)
    if pool is not None:
        entries = entries.filter(pool=pool)
        pairings = pairings.filter(pool=pool)
    if before_round is not None:
        pairings = pairings.filter(round__number__lt=before_round)
    order_by = list(tiebreaks or event.tiebreaks or DEFAULT_TIEBREAKS)
    rows = _team_rows(event, pairings, entries)
    encounters = team_encounters(pairings) if _needs_encounters(order_by) else []
    return rank(rows.values(), order_by, encounters)


def pool_standings(
    *, event: Event, tiebreaks: Sequence[str] | None = None
) -> dict[int, list[StandingsRow]]:
    """Every pool's standings from the pool stage's games (pool number -> rows), with the
    same queries as one table, however many pools."""
    entries = Entry.objects.filter(event=event, pool__isnull=False)
    pairings = decided(Pairing.objects.filter(event=event, pool__isnull=False))
    order_by = list(tiebreaks or event.tiebreaks or DEFAULT_TIEBREAKS)
    rows = _team_rows(event, pairings, entries)
    encounters = team_encounters(pairings) if _needs_encounters(order_by) else []
    pools: dict[int, list[StandingsRow]] = {}
    for row in rows.values():
        assert row.pool is not None
        pools.setdefault(row.pool, []).append(row)
    return {
        number: rank(members, order_by, encounters) for number, members in sorted(pools.items())
    }


def bracket_matches(event: Event) -> list[BracketMatch]:
    """The event's bracket as the placings read it (one query)."""
    rows = list(
        Pairing.objects.filter(event=event, match_number__isnull=False)
        .order_by("match_number")
        .values(
            "id",
            "match_number",
            "stage",
            "code",
            "cancelled",
            "result",
            "winner_side",
            "home_id",
            "away_id",
            "winner_to_id",
            "loser_to_id",
        )
    )
    cancelled = {row["id"] for row in rows if row["cancelled"]}
    matches = []
    for row in rows:
        winner = loser = None
        if row["winner_side"]:
            home, away = row["home_id"], row["away_id"]
            winner, loser = (home, away) if row["winner_side"] == SlotSide.HOME else (away, home)
        matches.append(
            BracketMatch(
                number=row["match_number"] or 0,
                stage=row["stage"],
                stage_round=_stage_round(row["code"]),
                feeds_winner=row["winner_to_id"] is not None,
                feeds_loser=row["loser_to_id"] is not None,
                winner=winner,
                loser=loser,
                winner_goes_on=row["winner_to_id"] is not None
                and row["winner_to_id"] not in cancelled,
                loser_goes_on=row["loser_to_id"] is not None
                and row["loser_to_id"] not in cancelled,
                cancelled=row["cancelled"],
                home=row["home_id"],
                away=row["away_id"],
            )
        )
    return matches


def _stage_round(code: str) -> int:
    """``W2-1`` -> 2, ``L3-2`` -> 3; 0 for the finals and the third-place game."""
    head = code.split("-", 1)[0]
    return int(head[1:]) if head[:1] in ("W", "L") and head[1:].isdigit() else 0


def event_placings(*, event: Event) -> list[StandingsRow]:
    """An elimination bracket's placings (1st, 2nd, 3rd–4th, …), with each team's record:
    the teams still playing first (place 0, most wins first), then every team whose event
    is over, by its band; teams sharing a band by seed, then name (4 queries). For a pools
    event, the knockout's teams only."""
    rows = _team_rows(
        event, decided(Pairing.objects.filter(event=event)), Entry.objects.filter(event=event)
    )
    matches = bracket_matches(event)
    placed = placings(matches)
    in_bracket = {team for m in matches for team in (m.home, m.away) if team is not None}
    playing = [r for r in rows.values() if r.id in in_bracket and r.id not in placed]
    over = [r for r in rows.values() if r.id in placed]
    playing.sort(key=lambda r: (-r.wins, *display_key(r)))
    over.sort(key=lambda r: (placed[r.id][0], *display_key(r)))
    return [in_band(row, placed.get(row.id)) for row in (*playing, *over)]


PLAYER_SLOTS = (
    ("home_team__player_one", SlotSide.HOME),
    ("home_team__player_two", SlotSide.HOME),
    ("away_team__player_one", SlotSide.AWAY),
    ("away_team__player_two", SlotSide.AWAY),
)


def player_encounters(pairings: QuerySet[Pairing]) -> list[Encounter]:
    games = pairings.filter(home_team__isnull=False, away_team__isnull=False).exclude(
        winner_side=""
    )
    return [
        Encounter((h1, h2), (a1, a2), winner, hp or 0, ap or 0)
        for h1, h2, a1, a2, winner, hp, ap in games.values_list(
            "home_team__player_one_id",
            "home_team__player_two_id",
            "away_team__player_one_id",
            "away_team__player_two_id",
            "winner_side",
            "home_points",
            "away_points",
        )
    ]


def player_standings(
    *,
    pairings: QuerySet[Pairing],
    tiebreaks: Sequence[str] | None = None,
    seeds: dict[int, int | None] | None = None,
) -> list[StandingsRow]:
    """Individual standings: each player is credited with their partnership's results (the
    registered players; a substitute's game counts for the player they replaced). 5 queries,
    6 when a metric reads the games."""
    pairings = decided(pairings)
    order_by = list(tiebreaks or DEFAULT_TIEBREAKS)
    totals: list[tuple[str, list[dict[str, Any]]]] = []
    ids: set[int] = set()
    for key, side in PLAYER_SLOTS:
        part = list(_side_totals(pairings, side, key))
        ids.update(t[key] for t in part)
        totals.append((key, part))
    seeds = seeds or {}
    ids.update(seeds)
    rows = {
        p["id"]: StandingsRow(
            id=p["id"], name=p["name"], seed=seeds.get(p["id"]), public=p["is_public"]
        )
        for p in Player.objects.filter(id__in=ids).values("id", "name", "is_public")
    }
    for key, part in totals:
        _add(rows, part, key)
    encounters = player_encounters(pairings) if _needs_encounters(order_by) else []
    return rank(rows.values(), order_by, encounters)


def event_player_standings(*, event: Event) -> list[StandingsRow]:
    """Individual standings of a progressive event (every entered player, played or not)."""
    seeds = dict(
        Entry.objects.filter(event=event, player__isnull=False).values_list("player_id", "seed")
    )
    return player_standings(
        pairings=Pairing.objects.filter(event=event), tiebreaks=event.tiebreaks, seeds=seeds
    )


def season_leaderboard(*, season: Season) -> list[StandingsRow]:
    """Players over the season's club nights: wins, then point difference (or the season's
    own order)."""
    pairings = Pairing.objects.filter(event__season=season, event__kind=EventKind.CLUB_NIGHT)
    return player_standings(pairings=pairings, tiebreaks=season.tiebreaks)
