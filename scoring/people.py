"""What games add to kaiser_club's idea of who is who (``kaiser_club.people``): a club knows
whoever played in one of its partnerships; a record's games and last game tell it apart from
another of the same name; partners suggest duplicates; two records that sat at one game or
partnered each other are two people."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from django.db.models import Count, Max, Q, QuerySet

from .models import Game, Team

SEATS = ("north", "east", "south", "west")


class GamesAndTeams:
    def known(self, club_ids: Sequence[int] | None) -> Q:
        teams: QuerySet[Team] = (
            Team.objects.exclude(club=None)
            if club_ids is None
            else Team.objects.filter(club_id__in=list(club_ids))
        )
        return Q(id__in=teams.values("player_one_id")) | Q(id__in=teams.values("player_two_id"))

    def games(self, player_ids: Sequence[int]) -> dict[int, tuple[int, date | None]]:
        """One query: a count and the last start per seat, put together."""
        ids = list(player_ids)
        parts = [
            Game.objects.filter(**{f"{seat}_id__in": ids})
            .order_by()
            .values_list(f"{seat}_id")
            .annotate(n=Count("id"), last=Max("created_at"))
            for seat in SEATS
        ]
        found: dict[int, tuple[int, date | None]] = {}
        for player_id, count, last in parts[0].union(*parts[1:], all=True):
            before, before_last = found.get(player_id, (0, None))
            day = last.date() if last is not None else None
            found[player_id] = (before + count, max(filter(None, [before_last, day]), default=None))
        return found

    def partners(self, player_ids: Sequence[int]) -> dict[int, set[int]]:
        ids = set(player_ids)
        found: dict[int, set[int]] = {}
        rows = Team.objects.filter(Q(player_one_id__in=ids) | Q(player_two_id__in=ids))
        for one, two in rows.values_list("player_one_id", "player_two_id"):
            if one in ids:
                found.setdefault(one, set()).add(two)
            if two in ids:
                found.setdefault(two, set()).add(one)
        return found

    def met(self, player_ids: Sequence[int]) -> set[frozenset[int]]:
        ids = set(player_ids)
        met: set[frozenset[int]] = set()
        together = Team.objects.filter(player_one_id__in=ids, player_two_id__in=ids)
        for one, two in together.values_list("player_one_id", "player_two_id"):
            met.add(frozenset((one, two)))
        seated = Q()
        for seat in SEATS:
            seated |= Q(**{f"{seat}_id__in": ids})
        for seats in Game.objects.filter(seated).values_list(*(f"{s}_id" for s in SEATS)):
            here = sorted(set(seats) & ids)
            met.update(frozenset((a, b)) for i, a in enumerate(here) for b in here[i + 1 :])
        return met
