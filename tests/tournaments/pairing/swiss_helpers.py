"""Brute force for Swiss pairings: enumerate every pairing of a small field."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from tournaments.pairing.model import Entrant, PlannedRound, PlayedBye, PlayedGame
from tournaments.pairing.swiss_cost import TeamState, grouped, pair_cost, team_states

History = list[PlayedGame | PlayedBye]


def pairings(teams: Sequence[TeamState]) -> Iterator[list[tuple[TeamState, TeamState]]]:
    """Every way to split ``teams`` (an even number) into pairs without a rematch."""
    if not teams:
        yield []
        return
    first, rest = teams[0], teams[1:]
    for index, other in enumerate(rest):
        if other.id in first.opponents:
            continue
        for tail in pairings([*rest[:index], *rest[index + 1 :]]):
            yield [(first, other), *tail]


def brute_force(
    entrants: Sequence[Entrant], played: History, order: Sequence[int]
) -> tuple[int | None, int] | None:
    """(bye team, least cost) by the rules, or None when no valid pairing exists."""
    states = team_states(entrants, played, order)
    candidates: list[TeamState | None] = [None]
    if len(states) % 2:
        candidates = [s for s in reversed(states) if not s.had_bye]
    for bye in candidates:
        to_pair = grouped([s for s in states if s is not bye])
        costs = [sum(pair_cost(a, b) for a, b in p) for p in pairings(to_pair)]
        if costs:
            return (bye.id if bye else None, min(costs))
    return None


def round_cost(
    entrants: Sequence[Entrant], played: History, order: Sequence[int], result: PlannedRound
) -> int:
    bye = {b.team for b in result.byes}
    states = team_states(entrants, played, order)
    by_id = {s.id: s for s in grouped([s for s in states if s.id not in bye])}
    return sum(pair_cost(by_id[p.home], by_id[p.away]) for p in result.pairings)


def record(result: PlannedRound, rng: random.Random, wins: dict[int, int]) -> History:
    """Random winners for ``result``; updates ``wins``; returns the round's history."""
    history: History = []
    for p in result.pairings:
        winner = rng.choice(p.teams)
        wins[winner] += 1
        history.append(PlayedGame(result.number, p.home, p.away, winner, p.first_dealer_home))
    for b in result.byes:
        wins[b.team] += 1
        history.append(PlayedBye(result.number, b.team))
    return history


def standings(wins: dict[int, int], seed_of: dict[int, int]) -> list[int]:
    return sorted(wins, key=lambda team: (-wins[team], seed_of[team]))
