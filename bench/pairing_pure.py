"""Timings of the pure pairing module (no database): prints figures, asserts nothing.

    .venv/bin/python bench/pairing_pure.py

- building a 1,024-team double elimination bracket (and, for scale, single elimination);
- a 512-team, 9-round Swiss with random results between rounds: each round and the total;
- a 64-player progressive night of 8 rounds.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import _summary as summary

from tournaments.pairing.double_elimination import double_elimination
from tournaments.pairing.model import Entrant, PlayedBye, PlayedGame
from tournaments.pairing.progressive import ProgressiveRound, progressive_round
from tournaments.pairing.single_elimination import single_elimination
from tournaments.pairing.swiss import swiss_round

T = TypeVar("T")
rows: list[tuple[str, float, str]] = []


def timed(label: str, action: Callable[[], T], note: str = "") -> T:
    start = time.perf_counter()
    result = action()
    rows.append((label, time.perf_counter() - start, note))
    return result


def brackets() -> None:
    teams = [Entrant(i, seed=i) for i in range(1, 1025)]
    bracket = timed("double elimination, 1,024 teams", lambda: double_elimination(teams))
    rows[-1] = (*rows[-1][:2], f"{len(bracket)} matches")
    single = timed("single elimination, 1,024 teams", lambda: single_elimination(teams))
    rows[-1] = (*rows[-1][:2], f"{len(single)} matches")


def swiss() -> None:
    rng = random.Random(2024)
    teams = [Entrant(i, seed=i, club=rng.randrange(40)) for i in range(1, 513)]
    wins = {team.id: 0 for team in teams}
    played: list[PlayedGame | PlayedBye] = []
    total = 0.0
    for number in range(1, 10):
        order = sorted(wins, key=lambda team: (-wins[team], team))
        result = timed(
            f"swiss 512 teams, round {number}",
            partial(swiss_round, teams, played, order, number),
        )
        total += rows[-1][1]
        groups = len(set(wins.values()))
        floats = sum(1 for p in result.pairings if wins[p.home] != wins[p.away])
        club = {team.id: team.club for team in teams}
        clubmates = sum(1 for p in result.pairings if club[p.home] == club[p.away])
        rows[-1] = (
            *rows[-1][:2],
            f"{groups} score groups, {floats} floats, {clubmates} club-mate games",
        )
        for pairing in result.pairings:
            winner = rng.choice(pairing.teams)
            wins[winner] += 1
            played.append(
                PlayedGame(number, pairing.home, pairing.away, winner, pairing.first_dealer_home)
            )
    rows.append(("swiss 512 teams, 9 rounds total", total, f"{total / 9:.3f} s a round"))


def progressive() -> None:
    players = list(range(1, 65))
    history: list[ProgressiveRound] = []
    total = 0.0
    for number in range(1, 9):
        history.append(
            timed(
                f"progressive 64 players, round {number}",
                partial(progressive_round, players, history, number, seed=7),
            )
        )
        total += rows[-1][1]
    rows.append(("progressive 64 players, 8 rounds total", total, f"{total / 8:.3f} s a round"))


def main() -> None:
    brackets()
    swiss()
    progressive()
    width = max(len(label) for label, _, _ in rows)
    print(f"{'what':<{width}}  {'seconds':>8}  note")
    print(f"{'-' * width}  {'-' * 8}  {'-' * 40}")
    for label, seconds, note in rows:
        print(f"{label:<{width}}  {seconds:>8.3f}  {note}")
        if "round " not in label:  # per-round figures stay in the detailed table
            summary.add("pairing (pure)", label, seconds, "s")


if __name__ == "__main__":
    main()
