"""Ranking rows by a tie-break order. No database here.

The first metric splits the table into groups of equal value, best first; each group of more
than one row is split by the next metric, and so on. A metric computed among the tied
(head-to-head) is asked again inside any smaller group it leaves level, before the next metric
is used. Three teams level on wins, A beat B and C, B beat C: the mini-table is A 2, B 1, C 0.
A beat B, B beat C, C beat A: each has 1, the mini-table does not separate them, and the next
metric does. Four level, A and B won twice among the four, C and D once: A and B are compared
again on the game between them alone, and so are C and D.

Rows that no metric separates share a place (and are listed by seed, then name).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .metrics import NO_SEED, Metric, metrics_named
from .rows import Encounter, StandingsRow


def rank(
    rows: Iterable[StandingsRow], order_by: Sequence[str], encounters: Sequence[Encounter] = ()
) -> list[StandingsRow]:
    """Rows best first, with ``place``, ``tied``, ``placing`` and ``decided_by`` set."""
    rows = list(rows)
    metrics = metrics_named(order_by)
    for metric in metrics:
        metric.prepare(rows, encounters)
    for row in rows:
        row.decided_by = ""
    groups = _split(sorted(rows, key=_display_key), metrics, encounters)
    ordered: list[StandingsRow] = []
    for group in groups:
        place = len(ordered) + 1
        for row in sorted(group, key=_display_key):
            row.place = place
            row.tied = len(group) > 1
            row.placing = (place, place + len(group) - 1)
            ordered.append(row)
    return ordered


def _display_key(row: StandingsRow) -> tuple[int, str, int]:
    return (row.seed if row.seed is not None else NO_SEED, row.name, row.id)


def _split(
    group: list[StandingsRow], metrics: Sequence[Metric], encounters: Sequence[Encounter]
) -> list[list[StandingsRow]]:
    """``group`` as a list of tied groups, best first."""
    if len(group) <= 1 or not metrics:
        return [group]
    metric, rest = metrics[0], metrics[1:]
    values = metric.values(group, encounters)
    levels = sorted(set(values.values()), reverse=True)
    if len(levels) == 1:
        return _split(group, rest, encounters)
    result: list[list[StandingsRow]] = []
    for index, level in enumerate(levels):
        bucket = [row for row in group if values[row.id] == level]
        again = metrics if metric.among_tied and len(bucket) > 1 else rest
        parts = _split(bucket, again, encounters)
        if index > 0:
            parts[0][0].decided_by = metric.name
        result.extend(parts)
    return result
