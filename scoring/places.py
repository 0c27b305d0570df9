"""Where a game was played, for the lists that show games: the event it belongs to, with the
address of its public pages.

Scoring knows nothing of events. An app that runs games inside something larger (tournaments)
registers a finder: given games, the place of those it holds (by game id), in a fixed number
of queries however many games it is given. A game no finder claims was played at its club."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .models import Game


@dataclass(frozen=True)
class Place:
    name: str
    url: str = ""  # its public pages, when it has them


Finder = Callable[[Sequence[Game]], Mapping[int, Place]]
_finders: list[Finder] = []


def register(finder: Finder) -> None:
    if finder not in _finders:
        _finders.append(finder)


def places_of(games: Sequence[Game]) -> dict[int, Place]:
    found: dict[int, Place] = {}
    for finder in _finders:
        found.update(finder(games))
    return found
