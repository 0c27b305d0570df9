"""The plain objects every pairing format takes and returns.

These classes do not interact with the database: the Django side turns its rows into them,
calls a format, and stores what comes back. Ids are the database's ids of the teams
(partnerships) or, for the progressive format, of the players.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


def N_(template: str) -> str:
    """Marks a sentence's template for ``makemessages``; it is translated where it is shown."""
    return template


class PairingError(ValueError):
    """The family of the pairing module's errors: a sentence a person can act on, kept as an
    English template (``N_``) and named parameters, so the Django side shows it in the
    reader's language (``kaiser_club.sentences.render``); ``str()`` is the English. A tuple
    of names is said as a list ("A, B and C"), in the reader's language too. The Django
    side maps it to its own domain error (HTTP 400 / a form error)."""

    def __init__(self, template: str, /, **params: str | int | tuple[str, ...]) -> None:
        self.template = template
        self.params: Mapping[str, str | int | tuple[str, ...]] = params
        english = {k: join_names(v) if isinstance(v, tuple) else v for k, v in params.items()}
        super().__init__(template % english if params else template)


class NoValidPairing(PairingError):
    """No pairing satisfies the hard rules (no rematch, at most one bye per team)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A team (a partnership) entered in an event.

    ``seed`` 1 is the strongest; entrants without a seed come after the seeded ones, ordered
    by ``rating`` (highest first) and then by id. ``club`` lets formats keep club-mates apart.
    """

    id: int
    seed: int | None = None
    club: int | None = None
    rating: float | None = None
    name: str | None = None

    @property
    def label(self) -> str:
        """How messages name the team."""
        return self.name if self.name else f"#{self.id}"


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A game of an earlier round. ``winner_id`` None: not decided (counts half a win)."""

    round: int
    home_id: int
    away_id: int
    winner_id: int | None = None
    first_dealer_home: bool | None = None


@dataclass(frozen=True, slots=True)
class PlayedBye:
    """A bye of an earlier round; it scores as a win."""

    round: int
    team_id: int


@dataclass(frozen=True, slots=True)
class PlannedGame:
    """One game: ``home`` sits North-South, ``away`` East-West."""

    table: int
    home: int
    away: int
    first_dealer_home: bool

    @property
    def teams(self) -> tuple[int, int]:
        return (self.home, self.away)


@dataclass(frozen=True, slots=True)
class Bye:
    """A team that sits out a round."""

    team: int


@dataclass(frozen=True, slots=True)
class PlannedRound:
    """The games and byes of one round; tables are numbered from 1 in ``pairings`` order."""

    number: int
    pairings: tuple[PlannedGame, ...]
    byes: tuple[Bye, ...] = ()

    @property
    def teams(self) -> tuple[int, ...]:
        """Every team of the round, playing or not."""
        playing = tuple(team for pairing in self.pairings for team in pairing.teams)
        return playing + tuple(bye.team for bye in self.byes)


def seed_order(entrants: Iterable[Entrant]) -> list[Entrant]:
    """Entrants strongest first: by seed, then unseeded by rating (highest first), then by id.

    Refuses duplicate ids and duplicate seeds, which would make the order ambiguous.
    """
    entrants = list(entrants)
    check_unique_ids(entrant.id for entrant in entrants)
    seeds = [entrant.seed for entrant in entrants if entrant.seed is not None]
    if len(seeds) != len(set(seeds)):
        duplicate = sorted(seed for seed in set(seeds) if seeds.count(seed) > 1)[0]
        raise PairingError(
            N_("Seed %(duplicate)s is given to more than one team."), duplicate=duplicate
        )

    def key(entrant: Entrant) -> tuple[int, int, float, int]:
        if entrant.seed is not None:
            return (0, entrant.seed, 0.0, entrant.id)
        rating = -entrant.rating if entrant.rating is not None else float("inf")
        return (1, 0, rating, entrant.id)

    return sorted(entrants, key=key)


def check_unique_ids(ids: Iterable[int]) -> None:
    seen: set[int] = set()
    for team_id in ids:
        if team_id in seen:
            raise PairingError(N_("Team %(team_id)s is entered twice."), team_id=team_id)
        seen.add(team_id)


def labels(entrants: Sequence[Entrant]) -> dict[int, str]:
    return {entrant.id: entrant.label for entrant in entrants}


def join_names(names: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]
