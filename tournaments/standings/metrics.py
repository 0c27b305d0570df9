"""Standings metrics, as Tabbycat does them: small registered classes, chosen by name in the
order the organiser set. These classes do not interact with the database.

A metric gives each row a value, higher is better. Most read the row alone; ``head_to_head``
reads the games among the rows still tied (``among_tied``), so the ranking asks it again for
each tied group; ``buchholz`` needs every row first (``prepare``).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import ClassVar

from .rows import Encounter, StandingsRow

NO_SEED = 1_000_000

Value = int | Fraction


class Metric:
    name: ClassVar[str]
    among_tied: ClassVar[bool] = False  # the value depends on which rows are tied
    needs_encounters: ClassVar[bool] = False

    def prepare(self, rows: Sequence[StandingsRow], encounters: Sequence[Encounter]) -> None:
        """Fill in whatever the metric needs from the whole table."""

    def values(
        self, tied: Sequence[StandingsRow], encounters: Sequence[Encounter]
    ) -> dict[int, Value]:
        """Each tied row's value (by row id)."""
        return {row.id: self.value(row) for row in tied}

    def value(self, row: StandingsRow) -> Value:
        raise NotImplementedError


REGISTRY: dict[str, type[Metric]] = {}


def register(cls: type[Metric]) -> type[Metric]:
    if cls.name in REGISTRY:
        raise ValueError(f"Two metrics are called {cls.name}.")
    REGISTRY[cls.name] = cls
    return cls


def metrics_named(names: Sequence[str]) -> list[Metric]:
    """The metrics for these names, in order; unknown names are skipped (an old event's order
    keeps working when a metric is retired)."""
    return [REGISTRY[name]() for name in names if name in REGISTRY]


@register
class WinsMetric(Metric):
    """Games won: played, on time, by forfeit, and byes."""

    name = "wins"

    def value(self, row: StandingsRow) -> Value:
        return row.wins


@register
class WinPercentageMetric(Metric):
    """Wins over games (exact), for fields where teams played different numbers of games."""

    name = "win_pct"

    def value(self, row: StandingsRow) -> Value:
        return row.win_fraction


@register
class PointDifferenceMetric(Metric):
    name = "point_difference"

    def value(self, row: StandingsRow) -> Value:
        return row.point_difference


@register
class PointsForMetric(Metric):
    name = "points_for"

    def value(self, row: StandingsRow) -> Value:
        return row.points_for


@register
class SeedMetric(Metric):
    """The better (lower) seed first; an unseeded row last."""

    name = "seed"

    def value(self, row: StandingsRow) -> Value:
        return -(row.seed if row.seed is not None else NO_SEED)


@register
class BuchholzMetric(Metric):
    """Opponents' wins: the sum of the wins of every team played (byes add nothing)."""

    name = "buchholz"
    needs_encounters = True

    def prepare(self, rows: Sequence[StandingsRow], encounters: Sequence[Encounter]) -> None:
        by_id = {row.id: row for row in rows}
        for row in rows:
            row.opponents = []
        for game in encounters:
            for side, other in ((game.home, game.away), (game.away, game.home)):
                for member in side:
                    if member in by_id:
                        by_id[member].opponents.extend(other)
        for row in rows:
            row.buchholz = sum(by_id[o].wins for o in row.opponents if o in by_id)

    def value(self, row: StandingsRow) -> Value:
        return row.buchholz


@register
class HeadToHeadMetric(Metric):
    """The mini-table among the tied: each tied row's wins in games against the other tied
    rows. It separates them only when every pair of them has met (otherwise a row would gain
    from a game its rival never had the chance to play); rows still level after it are
    compared again among themselves, then by the next metric."""

    name = "head_to_head"
    among_tied = True
    needs_encounters = True

    def values(
        self, tied: Sequence[StandingsRow], encounters: Sequence[Encounter]
    ) -> dict[int, Value]:
        ids = {row.id for row in tied}
        wins = dict.fromkeys(ids, 0)
        met: set[frozenset[int]] = set()
        for game in encounters:
            home = [m for m in game.home if m in ids]
            away = [m for m in game.away if m in ids]
            if not home or not away:
                continue
            met.update(frozenset((a, b)) for a in home for b in away)
            for side, won in ((home, game.winner == "home"), (away, game.winner == "away")):
                if won:
                    for member in side:
                        wins[member] += 1
        everyone_met = all(frozenset((a, b)) in met for a in ids for b in ids if a < b)
        for row in tied:
            row.head_to_head = wins[row.id] if everyone_met else None
        return {row.id: wins[row.id] if everyone_met else 0 for row in tied}
