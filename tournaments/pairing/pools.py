"""Pools: round-robin groups, then a knockout of the best of each pool.

Splitting: the teams, strongest first (``seed_order``), are dealt into the pools in a snake
(A B C, C B A, A B C, …), so each pool gets one team of each "row" of strength and the
pools' sizes differ by at most one. Then, to spread clubs, teams of the same row swap pools
while a swap lowers the number of same-club pairs within pools (first improving swap,
scanned in a fixed order, until none is left): the strength balance of the snake is kept.

Each pool plays a round robin (``pool_rounds``). The knockout seeds the pool winners first
(pool order), then the runners-up, and so on, and arranges each lower tier so that
teams from the same pool meet as late as possible: with two qualifiers per pool, the usual
crossing A1 v B2, B1 v A2, C1 v D2, … with the two teams of a pool in opposite halves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from .bracket import Bracket
from .knockout import knockout_bracket
from .matching import perfect_matching
from .model import N_, Entrant, PairingError, PlannedRound, check_unique_ids, seed_order
from .round_robin import round_robin_schedule
from .single_elimination import draw_size, seeding_order


@dataclass(frozen=True, slots=True)
class Pool:
    name: str
    entrants: tuple[Entrant, ...]  # strongest first

    @property
    def teams(self) -> tuple[int, ...]:
        return tuple(entrant.id for entrant in self.entrants)


def pool_name(index: int) -> str:
    """A, B, …, Z, AA, AB, … for index 0, 1, …"""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def split_into_pools(entrants: Sequence[Entrant], *, pool_size: int) -> list[Pool]:
    """Pools of at most ``pool_size`` teams (as few pools as that allows), sizes within one."""
    if pool_size < 2:
        raise PairingError(N_("A pool needs room for at least two teams."))
    ordered = seed_order(entrants)
    if len(ordered) < 2:
        raise PairingError(N_("Pools need at least two teams."))
    count = -(-len(ordered) // pool_size)
    grid: list[list[Entrant | None]] = []
    for start in range(0, len(ordered), count):
        row: list[Entrant | None] = list(ordered[start : start + count])
        row += [None] * (count - len(row))
        grid.append(row if len(grid) % 2 == 0 else row[::-1])
    _spread_clubs(grid, count)
    return [
        Pool(
            pool_name(index),
            tuple(team for row in grid if (team := row[index]) is not None),
        )
        for index in range(count)
    ]


def pool_rounds(pool: Pool) -> list[PlannedRound]:
    return round_robin_schedule(pool.entrants)


def _clashes(clubs: Sequence[int | None]) -> int:
    return sum(1 for a, b in combinations(clubs, 2) if a is not None and a == b)


def _spread_clubs(grid: list[list[Entrant | None]], count: int) -> None:
    """Lower the clashes by local moves until none helps: re-deal one row as the assignment
    with fewest clashes against the other rows (a minimum-cost matching of the row's teams
    to the pools, moving as few teams as it can); else swap the same two pools' teams in two
    rows at once. Weaker rows move first, so the top seeds keep their pools."""

    def total() -> int:
        return sum(_clashes(_clubs_in(grid, pool)) for pool in range(count))

    best = total()
    improved = True
    while improved:
        improved = False
        best = _redeal_rows(grid, count, total, best)
        for (first, second), (a, b) in product(
            combinations(grid[::-1], 2), combinations(range(count), 2)
        ):
            first[a], first[b], second[a], second[b] = first[b], first[a], second[b], second[a]
            now = total()
            if now < best:
                best, improved = now, True
                break
            first[a], first[b], second[a], second[b] = first[b], first[a], second[b], second[a]


def _redeal_rows(
    grid: list[list[Entrant | None]], count: int, total: Callable[[], int], best: int
) -> int:
    improved = True
    while improved:
        improved = False
        for index in reversed(range(len(grid))):
            row = grid[index]
            others: list[list[int]] = [
                [
                    club
                    for other_index, other in enumerate(grid)
                    if other_index != index
                    and (team := other[pool]) is not None
                    and (club := team.club) is not None
                ]
                for pool in range(count)
            ]
            edges = [
                (slot, count + pool, (count + 1) * _count(others[pool], team.club) + (slot != pool))
                for slot, team in enumerate(row)
                if team is not None
                for pool in range(count)
            ]
            edges += [
                (slot, count + pool, int(slot != pool))
                for slot, team in enumerate(row)
                if team is None
                for pool in range(count)
            ]
            placed: list[Entrant | None] = [None] * count
            for slot, pool in perfect_matching(2 * count, edges) or []:
                placed[pool - count] = row[slot]
            previous = list(row)
            row[:] = placed
            now = total()
            if now < best:
                best, improved = now, True
            else:
                row[:] = previous
    return best


def _clubs_in(grid: Sequence[Sequence[Entrant | None]], pool: int) -> list[int | None]:
    return [team.club for row in grid if (team := row[pool]) is not None]


def _count(clubs: Sequence[int], club: int | None) -> int:
    return clubs.count(club) if club is not None else 0


def knockout_seeds(finishing: Sequence[Sequence[int]], *, qualifiers: int) -> list[int]:
    """The knockout's seed order (seed 1 first) from each pool's finishing order.

    ``finishing[i]``: pool i's teams, first place first. The first ``qualifiers`` of each
    pool go through.
    """
    if qualifiers < 1:
        raise PairingError(N_("At least one team of each pool must go through."))
    for index, order in enumerate(finishing):
        if len(order) < qualifiers:
            teams = "1 team" if len(order) == 1 else f"{len(order)} teams"
            raise PairingError(
                N_("Pool %(pool)s has %(teams)s, so %(qualifiers)s cannot go through."),
                pool=pool_name(index),
                teams=teams,
                qualifiers=qualifiers,
            )
    check_unique_ids(team for order in finishing for team in order[:qualifiers])
    pools = len(finishing)
    if pools * qualifiers < 2:
        raise PairingError(N_("The knockout needs at least two teams."))
    positions = {
        seed: line for line, seed in enumerate(seeding_order(draw_size(pools * qualifiers)))
    }
    # tiers[t][j]: the pool whose (t+1)th-placed team gets seed t * pools + j + 1
    tiers = [list(range(pools))]
    for tier in range(1, qualifiers):
        if tier == 1:
            tiers.append([_crossing(pools - 1 - j, pools) for j in range(pools)])
        else:
            tiers.append(list(range(pools)) if tier % 2 == 0 else list(range(pools))[::-1])

    def cost() -> int:
        line_of: dict[int, list[int]] = {}
        for tier, pools_in_tier in enumerate(tiers):
            for j, pool in enumerate(pools_in_tier):
                line_of.setdefault(pool, []).append(positions[tier * pools + j + 1])
        # Meeting in round r (1 = first) costs 4^-r, scaled to integers.
        top = len(positions).bit_length()
        return sum(
            4 ** (top - (a ^ b).bit_length())
            for lines in line_of.values()
            for a, b in combinations(lines, 2)
        )

    best = cost()
    improved = True
    while improved:
        improved = False
        for lower in tiers[1:]:
            for i, j in combinations(range(pools), 2):
                lower[i], lower[j] = lower[j], lower[i]
                now = cost()
                if now < best:
                    best, improved = now, True
                else:
                    lower[i], lower[j] = lower[j], lower[i]
    return [finishing[pool][tier] for tier, order in enumerate(tiers) for pool in order]


def pools_knockout(
    finishing: Sequence[Sequence[int]], *, qualifiers: int, third_place: bool = False
) -> Bracket:
    """The single-elimination knockout between the first ``qualifiers`` teams of each pool
    (see module doc)."""
    seeds = knockout_seeds(finishing, qualifiers=qualifiers)
    return knockout_bracket(seeds, double=False, third_place=third_place)


def _crossing(pool: int, pools: int) -> int:
    """The pool whose runner-up meets ``pool``'s winner: A↔B, C↔D, …; an odd last pool
    keeps its own index (the improvement pass then moves it)."""
    partner = pool ^ 1
    return partner if partner < pools else pool
