"""The games API's fields and filters that name a team or a club by id: among the user's clubs'
only (``kaiser_club.api.visible``), so another club's is answered as one that does not exist."""

from __future__ import annotations

from typing import Any

import django_filters.rest_framework as filters
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from kaiser_club.api.visible import SeenRelatedField, clubs_seen, seen_queryset
from kaiser_club.models import Club

from ..models import Game, Team


def teams_seen(club_ids: Any) -> QuerySet[Team]:
    return Team.objects.filter(club_id__in=club_ids)


def team_id_field(**kwargs: Any) -> SeenRelatedField:
    return SeenRelatedField(
        seen=teams_seen,
        queryset=Team.objects.all(),
        error_messages={"does_not_exist": _("There is no team {pk_value} that you can see.")},
        **kwargs,
    )


class TeamFilter(filters.FilterSet):
    """``?club=``: one of the user's clubs; another club's id is refused as one that does not
    exist (it was answered with an empty list, an unknown id with 400)."""

    club = filters.ModelChoiceFilter(queryset=seen_queryset(clubs_seen, Club))

    class Meta:
        model = Team
        fields = ["club"]


class GameFilter(filters.FilterSet):
    club = filters.ModelChoiceFilter(queryset=seen_queryset(clubs_seen, Club))

    class Meta:
        model = Game
        fields = ["club", "status"]
