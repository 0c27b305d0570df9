"""Reads about a club's members, shaped so a page costs a fixed number of queries."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, QuerySet
from django.db.models.functions import Lower
from django.utils import timezone

from ..models import Club, Invitation, Membership, Player
from ..people import Facts, club_past, facts_of, players_known_to
from ..roles import Role
from ..selectors import AnyUser, club_ids_with_role


def club_members(*, club: Club) -> QuerySet[Membership]:
    """The club's memberships with their players, each marked with whether an invitation link
    is open for it (one query, whatever the size of the club)."""
    open_invitation = Invitation.objects.filter(
        club_id=club.id,
        player_id=OuterRef("player_id"),
        accepted_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    )
    return (
        Membership.objects.filter(club=club)
        .select_related("player", "player__user")
        .annotate(invitation_open=Exists(open_invitation))
        .order_by(Lower("player__name"), "player_id")
    )


def membership_in_club(*, club: Club, membership_id: int) -> Membership | None:
    return (
        Membership.objects.filter(club=club, id=membership_id)
        .select_related("player", "player__user", "club")
        .first()
    )


def players_managed_by(*, user: AnyUser) -> QuerySet[Player]:
    """The records the clubs where the user is a club admin know (every record for staff):
    members, former members, visitors and players of their partnerships; the records they may
    merge or bring into another of their clubs."""
    club_ids = club_ids_with_role(user=user, at_least=Role.CLUB_ADMIN)
    qs = Player.objects.all() if club_ids is None else players_known_to(club_ids=club_ids)
    return qs.order_by("name", "id")


def club_past_facts(*, club: Club) -> list[Facts]:
    """The club's records that are not members now (former members, visitors, players of its
    partnerships), with what tells each apart: a fixed number of queries."""
    return list(facts_of(list(club_past(club=club)), club=club).values())


def clubs_where_not_admin(*, user: AnyUser, players: list[Player]) -> list[Club]:
    """The clubs of these players where the user is not a club admin (none for staff)."""
    club_ids = club_ids_with_role(user=user, at_least=Role.CLUB_ADMIN)
    if club_ids is None:
        return []
    return list(
        Club.objects.filter(memberships__player__in=players)
        .exclude(id__in=club_ids)
        .distinct()
        .order_by("name")
    )


def player_visible_to(*, user: AnyUser, player_id: int) -> Player | None:
    """The player if the user may see their page: anyone for a public player; otherwise the
    player themself, staff, members of any of the player's clubs, and the club admins of a
    club whose past the record is (a former member, a visitor, a player of its partnerships)."""
    player = Player.objects.filter(id=player_id).first()
    if player is None or player.is_public:
        return player
    if not user.is_authenticated:
        return None
    if getattr(user, "is_staff", False) or player.user_id == user.pk:
        return player
    shares_a_club = Membership.objects.filter(
        player__user=user, club__memberships__player_id=player_id
    ).exists()
    if shares_a_club:
        return player
    # A record of the past of a club the user runs: a former member, a visitor it seated.
    admin_of = club_ids_with_role(user=user, at_least=Role.CLUB_ADMIN) or []
    known = admin_of and players_known_to(club_ids=admin_of).filter(id=player_id).exists()
    return player if known else None
