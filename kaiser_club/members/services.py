"""Writes to a club's members: add, change a role, remove. Each runs in one transaction and
locks the club row, so two admins cannot together leave a club without a club admin."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from ..errors import Conflict, InvalidInput, NotFound
from ..models import Club, Membership, Player
from ..roles import Role
from ..text import clean_text

NAME_MAX = 120


def lock_club(club_id: int) -> Club:
    try:
        return Club.objects.select_for_update().get(id=club_id)
    except Club.DoesNotExist:
        raise NotFound(f"There is no club {club_id}.") from None


def clean_name(name: str) -> str:
    name = clean_text(name)
    if not name:
        raise InvalidInput("A member needs a name.", field_errors={"name": ["Enter a name."]})
    if len(name) > NAME_MAX:
        message = f"A name can have at most {NAME_MAX} characters; this one has {len(name)}."
        raise InvalidInput(message, field_errors={"name": [message]})
    return name


def clean_email(email: str) -> str:
    email = email.strip()
    if not email:
        return ""
    try:
        validate_email(email)
    except ValidationError:
        message = f"'{email}' is not an email address."
        raise InvalidInput(message, field_errors={"email": [message]}) from None
    return email


def email_taken_in_club(*, club: Club, email: str, exclude_player_id: int | None = None) -> bool:
    if not email:
        return False
    qs = Membership.objects.filter(club=club, player__email__iexact=email)
    if exclude_player_id is not None:
        qs = qs.exclude(player_id=exclude_player_id)
    return qs.exists()


@transaction.atomic
def member_add(*, club: Club, name: str, email: str = "", role: Role = Role.PLAYER) -> Membership:
    """A new player record, member of the club. The person can claim it with an invitation."""
    lock_club(club.id)
    name, email = clean_name(name), clean_email(email)
    if email_taken_in_club(club=club, email=email):
        message = f"{email} is already the email of a member of {club.name}."
        raise Conflict(message, field_errors={"email": [message]})
    player = Player.objects.create(name=name, email=email)
    return Membership.objects.create(club=club, player=player, role=role)


@transaction.atomic
def member_add_existing(*, club: Club, player: Player, role: Role = Role.PLAYER) -> Membership:
    """Makes an existing player (a member of another club) a member of this one too."""
    lock_club(club.id)
    if Membership.objects.filter(club=club, player=player).exists():
        raise Conflict(f"{player.name} is already a member of {club.name}.")
    if email_taken_in_club(club=club, email=player.email):
        raise Conflict(
            f"Another member of {club.name} has the email {player.email}; if that is the same "
            f"person as {player.name}, merge the two records instead."
        )
    return Membership.objects.create(club=club, player=player, role=role)


def _refuse_losing_last_admin(membership: Membership, *, doing: str) -> None:
    if membership.role != Role.CLUB_ADMIN:
        return
    others = (
        Membership.objects.filter(club_id=membership.club_id, role=Role.CLUB_ADMIN)
        .exclude(id=membership.id)
        .exists()
    )
    if not others:
        raise InvalidInput(
            f"{membership.player.name} is the only club admin of {membership.club.name}; "
            f"make another member club admin before you {doing}."
        )


@transaction.atomic
def member_change_role(*, membership: Membership, role: Role) -> Membership:
    lock_club(membership.club_id)
    membership.refresh_from_db()
    if membership.role == role:
        return membership
    if role != Role.CLUB_ADMIN:
        _refuse_losing_last_admin(membership, doing=f"make them {role.label}")
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def member_remove(*, membership: Membership) -> Player:
    """Ends the membership. The player record stays, with every game it played."""
    lock_club(membership.club_id)
    try:
        membership.refresh_from_db()
    except Membership.DoesNotExist:
        raise NotFound("That member was already removed.") from None
    _refuse_losing_last_admin(membership, doing="remove them")
    player = membership.player
    membership.delete()
    return player


@transaction.atomic
def player_set_public(*, player: Player, is_public: bool) -> Player:
    player.is_public = is_public
    player.save(update_fields=["is_public"])
    return player
