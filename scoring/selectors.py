"""Reads of games and hands, shaped so that a page or endpoint costs a fixed number of queries."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from kaiser_club.roles import Role
from kaiser_club.selectors import AnyUser, club_ids_with_role

from .models import Game, GameChange, Hand

GAME_RELATED = [
    "club",
    "ns_team__player_one",
    "ns_team__player_two",
    "ew_team__player_one",
    "ew_team__player_two",
    "north",
    "east",
    "south",
    "west",
]


def games_visible_to(*, user: AnyUser) -> QuerySet[Game]:
    """Games of the clubs where the user is at least a player (every game for staff)."""
    qs = Game.objects.select_related(*GAME_RELATED)
    club_ids = club_ids_with_role(user=user, at_least=Role.PLAYER)
    return qs if club_ids is None else qs.filter(club_id__in=club_ids)


def game_summary(*, game_id: int) -> Game:
    """A game with its teams, players and seats: what GameSerializer reads, in one query."""
    return Game.objects.select_related(*GAME_RELATED).get(id=game_id)


def game_with_hands(*, game_id: int, queryset: QuerySet[Game] | None = None) -> Game | None:
    qs = queryset if queryset is not None else Game.objects.select_related(*GAME_RELATED)
    return (
        qs.prefetch_related(Prefetch("hands", queryset=Hand.objects.order_by("number")))
        .filter(id=game_id)
        .first()
    )


def game_history(*, game_id: int) -> QuerySet[GameChange]:
    return GameChange.objects.filter(game_id=game_id).select_related("by").order_by("at", "id")
