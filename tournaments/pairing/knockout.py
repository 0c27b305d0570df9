"""The knockout that ends a staged event (pools, Swiss or round robin first).

The first stage gives the knockout its seeds: seed 1 first. After pools, ``pools.knockout_seeds``
crosses the pools; after a Swiss or a round robin, the first ``size`` teams of its standings go
on, in their order (``qualifiers``), so that the draw is 1 v N, 2 v N-1, … as in any seeded
bracket. A size that is not a power of two leaves byes, which go to the top seeds.
"""

from __future__ import annotations

from collections.abc import Sequence

from .bracket import Bracket
from .double_elimination import double_elimination
from .model import N_, Entrant, PairingError, check_unique_ids
from .single_elimination import single_elimination


def qualifiers(order: Sequence[int], *, size: int) -> list[int]:
    """The teams that go on, seed 1 first: the first ``size`` of the first stage's order (its
    standings, tie-breaks applied; teams no tie-break separates keep the standings' order)."""
    if size < 2:
        raise PairingError(N_("The knockout needs at least two teams."))
    check_unique_ids(order)
    if len(order) < size:
        raise PairingError(
            N_(
                "The knockout takes %(size)s teams, but only %(teams)s are in the first stage. "
                "Lower the knockout's size in the event's settings."
            ),
            size=size,
            teams=len(order),
        )
    return list(order[:size])


def knockout_bracket(
    seeds: Sequence[int], *, double: bool, third_place: bool = False, reset: bool = True
) -> Bracket:
    """The bracket among ``seeds`` (seed 1 first): single elimination (with a game for third
    place if asked for) or double elimination (with the grand final's reset if asked for)."""
    entrants = [Entrant(team, seed=seed) for seed, team in enumerate(seeds, start=1)]
    if double:
        return double_elimination(entrants, reset=reset)
    return single_elimination(entrants, third_place=third_place)
