"""Invitation links: a club admin makes one for a member; the person opens it, makes a sign-in
account (or uses the one they have) and so becomes that player record's user."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format

from kaiser_club.sentences import N_

from ..actors import Actor
from ..errors import Conflict, InvalidInput, NotFound
from ..models import Invitation, Membership, Player
from .merge import merge_records
from .services import require_club_admin

VALID_FOR = timedelta(days=14)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class NewInvitation:
    invitation: Invitation
    token: str  # shown once; only its digest is stored


def lock_membership(membership_id: int) -> Membership:
    return (
        Membership.objects.select_for_update(of=("self",))
        .select_related("player")
        .get(id=membership_id)
    )


def invitation_create_by(*, actor: Actor, membership: Membership) -> NewInvitation:
    require_club_admin(actor=actor, club=membership.club)
    return invitation_create(membership=membership, by=actor.by)


@transaction.atomic
def invitation_create(*, membership: Membership, by: User | None = None) -> NewInvitation:
    """A new link for the member; any open link for the same player in this club stops working
    (the membership's row is locked first: two links asked at once leave one open)."""
    membership = lock_membership(membership.id)
    player = membership.player
    if player.user_id is not None:
        raise Conflict(
            N_(
                "%(name)s already signs in with an account; they need no invitation.",
                name=player.name,
            )
        )
    now = timezone.now()
    Invitation.objects.filter(
        club_id=membership.club_id, player=player, accepted_at__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=now)
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        club_id=membership.club_id,
        player=player,
        token_digest=token_digest(token),
        created_by=by if getattr(by, "is_authenticated", False) else None,
        expires_at=now + VALID_FOR,
    )
    return NewInvitation(invitation=invitation, token=token)


def _day(moment: datetime) -> str:
    return date_format(timezone.localtime(moment), "DATE_FORMAT")


def invitation_check(*, token: str, now: datetime | None = None, lock: bool = False) -> Invitation:
    """The invitation if it can still be used, else a refusal that says why. With ``lock``
    the invitation row stays locked until the transaction ends, so a link is used once."""
    qs = Invitation.objects.select_related("club", "player", "player__user")
    if lock:
        qs = qs.select_for_update(of=("self",))
    invitation = qs.filter(token_digest=token_digest(token)).first()
    if invitation is None:
        raise NotFound(
            N_(
                "This invitation link is not known. Check that the whole link was copied, or ask "
                "your club for a new one."
            )
        )
    now = now or timezone.now()
    if invitation.accepted_at is not None:
        raise InvalidInput(
            N_(
                "This invitation was already used, on %(accepted)s.",
                accepted=_day(invitation.accepted_at),
            )
        )
    if invitation.revoked_at is not None:
        raise InvalidInput(
            N_(
                "This invitation was replaced by a newer link or withdrawn; ask your club for a "
                "new one."
            )
        )
    if invitation.expires_at <= now:
        raise InvalidInput(
            N_(
                "This invitation expired on %(expired)s; ask your club for a new one.",
                expired=_day(invitation.expires_at),
            )
        )
    if invitation.player.user_id is not None:
        raise Conflict(
            N_(
                "%(name)s's record already has a sign-in account; sign in with it, or ask your "
                "club.",
                name=invitation.player.name,
            )
        )
    if not Membership.objects.filter(club=invitation.club, player=invitation.player).exists():
        raise InvalidInput(
            N_(
                "%(name)s is no longer a member of %(club_name)s; this invitation cannot be used.",
                name=invitation.player.name,
                club_name=invitation.club.name,
            )
        )
    return invitation


@dataclass(frozen=True)
class Accepted:
    player: Player
    merged: bool  # the invited record was merged into the player the user already had


@transaction.atomic
def invitation_accept(*, token: str, user: Any) -> Accepted:
    """Links the user to the invited player record. A user who already has a player record
    (they play in another club) keeps it: the invited record is merged into it."""
    invitation = invitation_check(token=token, lock=True)
    invited = invitation.player
    own = Player.objects.filter(user=user).first()
    if own is None:
        invited.user = user
        invited.save(update_fields=["user"])
        player, merged = invited, False
    else:
        merge_records(keep_id=own.id, duplicate_id=invited.id)
        player, merged = own, True
    Invitation.objects.filter(id=invitation.id).update(accepted_at=timezone.now(), accepted_by=user)
    return Accepted(player=player, merged=merged)


@transaction.atomic
def invitation_sign_up(*, token: str, username: str, password: str, email: str = "") -> Any:
    """Makes a sign-in account and accepts the invitation with it, or neither."""
    invitation = invitation_check(token=token)
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        message = N_("The user name %(username)s is taken; pick another.", username=username)
        raise Conflict(message, field_errors={"username": [message]})
    user = User.objects.create_user(
        username=username, password=password, email=email or invitation.player.email
    )
    invitation_accept(token=token, user=user)
    return user
