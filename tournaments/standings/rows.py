"""What standings are made of, as plain objects: a row per team (or player), and the games
between them. No database here: the queries fill these in, the ranking reads them."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction


@dataclass
class StandingsRow:
    """One team's (or, for individual standings, one player's) record.

    ``id`` is the entry's id for teams, the player's id for individual standings. Wins count
    byes, forfeits won and wins on time (a win on time is a win; ``wins_on_time`` only says how
    many of them were). ``place`` is shared by rows that no tie-break separates (``tied``);
    ``decided_by`` names the metric that put this row below the one above it. ``placing``:
    the places the row's place spans (``(5, 6)`` for two teams sharing 5th), None while a
    team is still playing in a bracket (``place`` is then 0).
    """

    id: int
    name: str
    seed: int | None = None
    withdrawn: bool = False
    pool: int | None = None
    games: int = 0
    wins: int = 0
    wins_on_time: int = 0
    byes: int = 0
    points_for: int = 0
    points_against: int = 0
    buchholz: int = 0
    head_to_head: int | None = None
    opponents: list[int] = field(default_factory=list)
    place: int = 0
    tied: bool = False
    decided_by: str = ""
    placing: tuple[int, int] | None = None
    public: bool | None = None  # individual standings: the player's page is public

    @property
    def place_text(self) -> str:
        """The place as every surface prints it: "5", "5=" when shared, "" while the team is
        still playing in a bracket."""
        if not self.place:
            return ""
        return f"{self.place}=" if self.tied else str(self.place)

    @property
    def losses(self) -> int:
        return self.games - self.wins

    @property
    def point_difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def win_fraction(self) -> Fraction:
        """Exact, so that equal records compare equal."""
        return Fraction(self.wins, self.games) if self.games else Fraction(0)

    @property
    def win_pct(self) -> float:
        return float(self.win_fraction)


@dataclass(frozen=True, slots=True)
class Encounter:
    """One decided game between two sides (a bye is not an encounter). A side is one entry id
    for team standings, the two player ids of the partnership for individual standings."""

    home: tuple[int, ...]
    away: tuple[int, ...]
    winner: str  # "home", "away"
    home_points: int = 0
    away_points: int = 0

    def sides(self) -> tuple[tuple[tuple[int, ...], bool], tuple[tuple[int, ...], bool]]:
        """(side, won) for both sides."""
        return ((self.home, self.winner == "home"), (self.away, self.winner == "away"))
