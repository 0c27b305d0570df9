"""Round robin by the circle method: every pair of teams meets exactly once.

With an even number of teams n there are n - 1 rounds; with an odd number a bye takes the
place of the missing team, so there are n rounds and each team sits out exactly once.

The circle: the teams but one (all of them when n is odd) are numbered 0 … m-1 with m odd;
in round r, teams i and j meet when i + j ≡ 2r (mod m), and team r meets the one left out of
the circle (or sits out). Because m is odd, 2 is invertible mod m, so each pair {i, j} meets
in exactly one round.

Seats and first dealer are balanced with two different "cyclic tournaments" on the circle
(i before j when (j - i) mod m lies in a set S with S and -S splitting the non-zero residues):

- home (North-South): S = {1, …, (m-1)/2};
- first dealer: S = the odd residues.

Each gives every circle team exactly (m - 1) / 2 of its circle games; the team outside the
circle is home in even rounds and deals first when r mod 4 is 1 or 2, which keeps every
team's counts within one of every other team's (n - 1 games cannot split more evenly).
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import N_, Bye, Entrant, PairingError, PlannedGame, PlannedRound, seed_order


def round_robin_schedule(entrants: Sequence[Entrant]) -> list[PlannedRound]:
    """Every round of a round robin among ``entrants``, round 1 first.

    Table 1 holds the game with the best-seeded team (see ``seed_order``).
    """
    ordered = [entrant.id for entrant in seed_order(entrants)]
    if len(ordered) < 2:
        raise PairingError(N_("A round robin needs at least two teams."))
    if len(ordered) % 2 == 0:
        outside: int | None = ordered[0]
        circle = ordered[1:]
    else:
        outside = None
        circle = ordered
    m = len(circle)
    rank = {team: index for index, team in enumerate(ordered)}

    rounds: list[PlannedRound] = []
    for r in range(m):
        pairings: list[tuple[int, int, bool]] = []
        byes: list[Bye] = []
        if outside is None:
            byes.append(Bye(circle[r]))
        else:
            outside_home = r % 2 == 0
            outside_deals = r % 4 in (1, 2)
            if outside_home:
                pairings.append((outside, circle[r], outside_deals))
            else:
                pairings.append((circle[r], outside, not outside_deals))
        for k in range(1, (m - 1) // 2 + 1):
            i, j = (r + k) % m, (r - k) % m
            if not _before(i, j, m, home=True):
                i, j = j, i
            pairings.append((circle[i], circle[j], _before(i, j, m, home=False)))
        pairings.sort(key=lambda game: min(rank[game[0]], rank[game[1]]))
        rounds.append(
            PlannedRound(
                number=r + 1,
                pairings=tuple(
                    PlannedGame(table=table, home=home, away=away, first_dealer_home=deals)
                    for table, (home, away, deals) in enumerate(pairings, start=1)
                ),
                byes=tuple(byes),
            )
        )
    return rounds


def _before(i: int, j: int, m: int, *, home: bool) -> bool:
    """Whether circle team i is home (``home``) or deals first (not ``home``) against j."""
    d = (j - i) % m
    if home:
        return 1 <= d <= (m - 1) // 2
    return d % 2 == 1
