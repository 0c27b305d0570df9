"""Individual progressive (club night): players, not teams, change partners every round.

Each round seats the players at tables of four in two partnerships:

1. sit-outs: when the count is not a multiple of 4, the remainder sits out, chosen among
   those who have sat out least often, then least recently, then by lot;
2. partners: a minimum-cost perfect matching of the players over the pairs who have never
   been partners (hard while such a matching exists; otherwise repeats are kept to the
   fewest, each repeat costing more the more often the pair has partnered). Former
   opponents are preferred as partners, since partners cannot be opponents again;
3. tables: a minimum-cost matching of the partnerships, a table costing the number of
   times its players have already been opponents (a soft rule: "where possible").

Ties are broken by a random number generator seeded with ``seed`` and the round number,
so a night is reproducible. Several draws of partners (``ATTEMPTS``) are tried and the one
whose tables repeat fewest opponents is kept.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .matching import perfect_matching
from .model import N_, PairingError, check_unique_ids

ATTEMPTS = 6
REPEAT_PARTNER_COST = 1_000_000
REPEAT_OPPONENT_COST = 1_000
LOT = 1_000  # tie-break range, below one repeated opponent


@dataclass(frozen=True, slots=True)
class TableOfFour:
    """North and South against East and West; ``north_south`` = (North, South)."""

    table: int
    north_south: tuple[int, int]
    east_west: tuple[int, int]
    first_dealer_north_south: bool

    @property
    def players(self) -> tuple[int, int, int, int]:
        return (*self.north_south, *self.east_west)


@dataclass(frozen=True, slots=True)
class SitOut:
    player: int


@dataclass(frozen=True, slots=True)
class ProgressiveRound:
    number: int
    tables: tuple[TableOfFour, ...]
    sit_outs: tuple[SitOut, ...] = ()


@dataclass(frozen=True, slots=True)
class _Past:
    partners: Counter[frozenset[int]]
    opponents: Counter[frozenset[int]]
    sat_out: Counter[int]
    last_sat_out: dict[int, int]
    north_south: Counter[int]
    first_deals: Counter[int]


def progressive_round(
    players: Sequence[int],
    history: Sequence[ProgressiveRound],
    round_number: int,
    seed: int,
) -> ProgressiveRound:
    """Round ``round_number`` of a progressive night among ``players`` (ids).

    ``history``: the earlier rounds of the night (players who have left may appear).
    """
    check_unique_ids(players)
    if len(players) < 4:
        raise PairingError(N_("A progressive round needs at least four players."))
    rng = random.Random(f"progressive:{seed}:{round_number}")
    past = _read(history)

    ordered = sorted(players)
    lots = {player: rng.random() for player in ordered}
    out_count = len(ordered) % 4
    by_turn = sorted(
        ordered,
        key=lambda p: (past.sat_out[p], past.last_sat_out.get(p, -1), lots[p]),
    )
    sitting_out = sorted(by_turn[:out_count])
    active = sorted(by_turn[out_count:])

    best: tuple[int, list[tuple[tuple[int, int], tuple[int, int]]]] | None = None
    for _ in range(ATTEMPTS):
        partnerships = _partners(active, past, rng)
        cost, tables = _tables(partnerships, past, rng)
        if best is None or cost < best[0]:
            best = (cost, tables)
        if cost < LOT * len(tables):  # no repeated opponent: nothing better to find
            break
    assert best is not None
    tables = sorted(best[1], key=lambda table: min(min(table[0]), min(table[1])))
    return ProgressiveRound(
        number=round_number,
        tables=tuple(
            _seat(number, first, second, past, rng)
            for number, (first, second) in enumerate(tables, start=1)
        ),
        sit_outs=tuple(SitOut(player) for player in sitting_out),
    )


def _read(history: Sequence[ProgressiveRound]) -> _Past:
    past = _Past(Counter(), Counter(), Counter(), {}, Counter(), Counter())
    for played in sorted(history, key=lambda r: r.number):
        for out in played.sit_outs:
            past.sat_out[out.player] += 1
            past.last_sat_out[out.player] = played.number
        for table in played.tables:
            for pair in (table.north_south, table.east_west):
                past.partners[frozenset(pair)] += 1
            for a in table.north_south:
                for b in table.east_west:
                    past.opponents[frozenset((a, b))] += 1
            past.north_south.update(table.north_south)
            dealers = table.north_south if table.first_dealer_north_south else table.east_west
            past.first_deals.update(dealers)
    return past


def _partners(active: list[int], past: _Past, rng: random.Random) -> list[tuple[int, int]]:
    pairs = list(combinations(range(len(active)), 2))
    # Former opponents make good partners: as partners they cannot be opponents again.
    fresh = [
        (i, j, rng.randrange(LOT) + (0 if past.opponents[frozenset((a, b))] else LOT))
        for i, j in pairs
        if not past.partners[frozenset((a := active[i], b := active[j]))]
    ]
    matching = perfect_matching(len(active), fresh)
    if matching is None:
        weighted = [
            (
                i,
                j,
                REPEAT_PARTNER_COST * past.partners[frozenset((active[i], active[j]))] ** 2
                + rng.randrange(LOT),
            )
            for i, j in pairs
        ]
        matching = perfect_matching(len(active), weighted)
    assert matching is not None  # the complete graph on an even count always pairs
    return [(active[i], active[j]) for i, j in matching]


def _tables(
    partnerships: list[tuple[int, int]], past: _Past, rng: random.Random
) -> tuple[int, list[tuple[tuple[int, int], tuple[int, int]]]]:
    edges = []
    for i, j in combinations(range(len(partnerships)), 2):
        repeats = sum(
            past.opponents[frozenset((a, b))] for a in partnerships[i] for b in partnerships[j]
        )
        edges.append((i, j, REPEAT_OPPONENT_COST * LOT * repeats + rng.randrange(LOT)))
    matching = perfect_matching(len(partnerships), edges)
    assert matching is not None
    costs = {(i, j): cost for i, j, cost in edges}
    return (
        sum(costs[pair] for pair in matching),
        [(partnerships[i], partnerships[j]) for i, j in matching],
    )


def _seat(
    number: int,
    first: tuple[int, int],
    second: tuple[int, int],
    past: _Past,
    rng: random.Random,
) -> TableOfFour:
    """The partnership that has sat North-South less often takes North-South; the one that
    has dealt first less often deals first; ties by lot."""

    def total(counts: Counter[int], pair: tuple[int, int]) -> tuple[int, float]:
        return (counts[pair[0]] + counts[pair[1]], rng.random())

    north_south, east_west = sorted((first, second), key=lambda pair: total(past.north_south, pair))
    ns_deals = total(past.first_deals, north_south) <= total(past.first_deals, east_west)
    return TableOfFour(
        table=number,
        north_south=north_south,
        east_west=east_west,
        first_dealer_north_south=ns_deals,
    )
