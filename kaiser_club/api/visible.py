"""Rows an API request names by id (in its body or its query), looked for only among those the
requesting user may see: the clubs where they hold a role, and those clubs' things.

Another club's id is then answered exactly as an id that does not exist: the same status and
the same sentence, so that the answer tells nothing about other clubs (that the id exists, its
name, its club's name). A row the user may see but that does not fit the request (a team of
the user's other club in a game of this one) is judged by the service, whose sentence may name
what the user sees.

``SeenRelatedField`` is DRF's ``PrimaryKeyRelatedField`` with ``get_queryset`` (DRF's hook for
a queryset that depends on the request) narrowed by ``seen``; ``seen_queryset`` does the same
for django-filter's ``ModelChoiceFilter`` (whose ``queryset`` may be a callable of the
request). Staff see every club. Without a request (a serializer made with no context), nothing
is seen: an id is never found by accident."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ..models import Club, Membership, Player
from ..people import players_known_to, players_of_no_club
from ..roles import Role
from ..selectors import AnyUser, club_ids_with_role

# The clubs' ids a request's user holds a role in; None: every club (staff).
ClubIds = list[int] | None
Seen = Callable[[list[int]], QuerySet[Any]]

_CONTEXT_KEY = "kaiser_club_ids_seen"  # read once per serializer, kept in its context


def club_ids_seen(user: AnyUser) -> ClubIds:
    """The clubs where the user is at least a player (None: staff, every club)."""
    return club_ids_with_role(user=user, at_least=Role.PLAYER)


def clubs_seen(club_ids: Any) -> QuerySet[Club]:
    """The clubs of these ids (a list, or a subquery of ids)."""
    return Club.objects.filter(id__in=club_ids)


def players_seen(club_ids: list[int]) -> QuerySet[Player]:
    """The records the user's clubs know (members, former members, visitors, players of their
    partnerships) and the records no club knows yet (which the club naming one adopts)."""
    known = players_known_to(club_ids=club_ids).values("id")
    return Player.objects.filter(Q(id__in=known) | Q(id__in=players_of_no_club().values("id")))


def _ids_of(context: Mapping[str, Any]) -> ClubIds:
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None:
        return []
    if isinstance(context, dict):
        if _CONTEXT_KEY not in context:
            context[_CONTEXT_KEY] = (club_ids_seen(user),)
        return context[_CONTEXT_KEY][0]  # type: ignore[no-any-return]
    return club_ids_seen(user)


class SeenRelatedField(serializers.PrimaryKeyRelatedField[Any]):
    """A primary key among the rows ``seen`` gives for the clubs of the request's user (every
    row of ``queryset`` for staff). Give the serializer ``context={"request": request}``.
    ``error_messages={"does_not_exist": ...}`` words the refusal, with ``{pk_value}``."""

    def __init__(self, *, seen: Seen, **kwargs: Any) -> None:
        self.seen = seen
        super().__init__(**kwargs)

    def get_queryset(self) -> QuerySet[Any]:
        everything = super().get_queryset()
        assert everything is not None  # a queryset is given (``club_id_field``…)
        ids = _ids_of(self.context)
        return everything if ids is None else everything.filter(pk__in=self.seen(ids).values("pk"))


def club_id_field(**kwargs: Any) -> SeenRelatedField:
    """A club of the user's, by id; another club's id is "no club that you are a member of"."""
    return SeenRelatedField(
        seen=clubs_seen,
        queryset=Club.objects.all(),
        error_messages={
            "does_not_exist": _("There is no club {pk_value} that you are a member of.")
        },
        **kwargs,
    )


def player_id_field(**kwargs: Any) -> SeenRelatedField:
    """A player the user's clubs know (or a record no club knows yet), by id."""
    return SeenRelatedField(
        seen=players_seen,
        queryset=Player.objects.all(),
        error_messages={
            "does_not_exist": _(
                "There is no player {pk_value} that your clubs know: choose one of their "
                "members, former members or visitors."
            )
        },
        **kwargs,
    )


def club_ids_query(user: AnyUser) -> QuerySet[Any] | None:
    """``club_ids_seen`` as a subquery, read only with the query that uses it (a filter's
    choices are built for every list, asked for or not); None for staff."""
    if not user.is_authenticated:
        return Membership.objects.none().values("club_id")
    if getattr(user, "is_staff", False):
        return None
    roles = [r.value for r in Role if r.includes(Role.PLAYER)]
    return Membership.objects.filter(player__user=user, role__in=roles).values("club_id")


def seen_queryset(
    seen: Callable[[Any], QuerySet[Any]], model: type[Any]
) -> Callable[[Any], QuerySet[Any]]:
    """A callable of the request for a django-filter ``ModelChoiceFilter``'s ``queryset``:
    another club's id in a query (``?club=``) is refused as one that does not exist. ``seen``
    is given the clubs' ids as a subquery."""

    def queryset(request: Any) -> QuerySet[Any]:
        user = getattr(request, "user", None)
        if user is None:
            return model.objects.none()  # type: ignore[no-any-return]
        ids = club_ids_query(user)
        return model.objects.all() if ids is None else seen(ids)  # type: ignore[no-any-return]

    return queryset
