"""What a Swiss pairing costs: the one function the Swiss matching minimises.

A team's state for the coming round is read from the earlier rounds (``team_states``); the
cost of seating two teams together is ``pair_cost``. A round's cost is the sum over its
games; the Swiss pairing is a minimum-cost perfect matching on the pairs that are not
rematches (a rematch has no cost: it is never allowed).

The terms, in order of importance (each weight outweighs any sum of the terms below it,
for fields up to 10,000 teams, so the order is lexicographic):

1. score difference: ``SCORE_GAP_COST`` × (difference in half-points)², so two teams
   floating by half a point cost less than one floating by a whole point;
2. same club: ``CLUB_COST`` (between half a point and a point of float: club-mates are
   kept apart where that costs at most a half-point float);
3. position: within a score group, the top half meets the bottom half (1st meets
   (g/2 + 1)th: the "slide" of the Swiss systems); across groups, the bottom of the higher
   group meets the top of the lower one. Between equal pairings this picks the usual one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from .model import N_, Entrant, PairingError, PlayedBye, PlayedGame, check_unique_ids

SCORE_GAP_COST = 100_000_000
CLUB_COST = 200_000_000


@dataclass(frozen=True, slots=True)
class TeamState:
    """A team as the Swiss pairing sees it before a round.

    ``rank``: place in the standings, 0 first. ``half_points``: score in half wins (a win
    or a bye 2, an undecided game 1). ``group``: index of its score group among the teams
    to pair (0: highest score), ``group_rank`` its place in that group of ``group_size``.
    """

    id: int
    rank: int
    half_points: int
    club: int | None
    opponents: frozenset[int]
    had_bye: bool
    home_games: int
    away_games: int
    last_home: bool | None
    first_deals: int
    group: int = 0
    group_rank: int = 0
    group_size: int = 1


def pair_cost(a: TeamState, b: TeamState) -> int:
    """The cost of a game between ``a`` and ``b`` (which must not have met)."""
    gap = a.half_points - b.half_points
    cost = SCORE_GAP_COST * gap * gap
    if a.club is not None and a.club == b.club:
        cost += CLUB_COST
    if a.group == b.group:
        cost += abs(abs(a.group_rank - b.group_rank) - a.group_size // 2)
    else:
        upper, lower = (a, b) if a.group < b.group else (b, a)
        cost += (upper.group_size - 1 - upper.group_rank) + lower.group_rank
    return cost


def team_states(
    entrants: Sequence[Entrant],
    played: Sequence[PlayedGame | PlayedBye],
    standings_order: Sequence[int],
    *,
    scores: Mapping[int, float] | None = None,
) -> list[TeamState]:
    """Every entrant's state, in standings order, each in a group of its own.

    ``scores`` (points, multiples of 0.5) replaces the score read from ``played``.
    Use ``grouped`` on the teams to pair to fill in the score groups.
    """
    check_unique_ids(entrant.id for entrant in entrants)
    check_unique_ids(standings_order)
    entered = {entrant.id: entrant for entrant in entrants}
    for team in standings_order:
        if team not in entered:
            raise PairingError(N_("Team %(team)s is in the standings but not entered."), team=team)
    ranked = set(standings_order)
    for entrant in entrants:
        if entrant.id not in ranked:
            raise PairingError(
                N_("Team %(label)s is entered but not in the standings."), label=entrant.label
            )

    half_points = dict.fromkeys(entered, 0)
    opponents: dict[int, set[int]] = {team: set() for team in entered}
    had_bye: set[int] = set()
    home = dict.fromkeys(entered, 0)
    away = dict.fromkeys(entered, 0)
    last: dict[int, tuple[int, bool]] = {}
    deals = dict.fromkeys(entered, 0)
    for record in sorted(played, key=_chronological):
        if isinstance(record, PlayedBye):
            if record.team_id in entered:
                had_bye.add(record.team_id)
                half_points[record.team_id] += 2
            continue
        pair = (record.home_id, record.away_id)
        if record.winner_id is not None and record.winner_id not in pair:
            raise PairingError(
                N_("Round %(round)s: team %(winner_id)s won a game it did not play."),
                round=record.round,
                winner_id=record.winner_id,
            )
        for team, other, is_home in ((pair[0], pair[1], True), (pair[1], pair[0], False)):
            if team not in entered:
                continue  # withdrawn since
            opponents[team].add(other)
            (home if is_home else away)[team] += 1
            last[team] = (record.round, is_home)
            if record.winner_id is None:
                half_points[team] += 1
            elif record.winner_id == team:
                half_points[team] += 2
            if record.first_dealer_home is not None and record.first_dealer_home == is_home:
                deals[team] += 1
    if scores is not None:
        half_points = {team: _half_points(team, scores) for team in entered}

    return [
        TeamState(
            id=team,
            rank=rank,
            half_points=half_points[team],
            club=entered[team].club,
            opponents=frozenset(opponents[team]),
            had_bye=team in had_bye,
            home_games=home[team],
            away_games=away[team],
            last_home=last[team][1] if team in last else None,
            first_deals=deals[team],
        )
        for rank, team in enumerate(standings_order)
    ]


def grouped(states: Sequence[TeamState]) -> list[TeamState]:
    """``states`` ordered by score (then standings) with their score groups filled in."""
    ordered = sorted(states, key=lambda state: (-state.half_points, state.rank))
    sizes: dict[int, int] = {}
    for state in ordered:
        sizes[state.half_points] = sizes.get(state.half_points, 0) + 1
    group_of = {points: index for index, points in enumerate(sorted(sizes, reverse=True))}
    seen: dict[int, int] = {}
    result: list[TeamState] = []
    for state in ordered:
        place = seen.get(state.half_points, 0)
        seen[state.half_points] = place + 1
        result.append(
            replace(
                state,
                group=group_of[state.half_points],
                group_rank=place,
                group_size=sizes[state.half_points],
            )
        )
    return result


def _chronological(record: PlayedGame | PlayedBye) -> tuple[int, int]:
    if isinstance(record, PlayedBye):
        return (record.round, record.team_id)
    return (record.round, record.home_id)


def _half_points(team: int, scores: Mapping[int, float]) -> int:
    if team not in scores:
        raise PairingError(N_("Team %(team)s has no score."), team=team)
    doubled = scores[team] * 2
    if doubled != int(doubled):
        raise PairingError(
            N_("Team %(team)s's score %(score)s is not a multiple of a half."),
            team=team,
            score=str(scores[team]),
        )
    return int(doubled)
