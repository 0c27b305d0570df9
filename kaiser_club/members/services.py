"""Writes to a club's members: add, change a role, remove. Each runs in one transaction and
locks the club row, so two admins cannot together leave a club without a club admin.

A person has one record: adding a member finds the record they already have (by email, then
by name among the records the club and the actor's other clubs know: members, former members,
visitors) before making one (``kaiser_club.people``). Removing a member keeps the record in
the club's past, to be added again as the same record."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from kaiser_club.sentences import N_, Sentence

from ..actors import Actor
from ..errors import Conflict, InvalidInput, NotFound
from ..models import Club, FormerMembership, Membership, Player
from ..people import (
    Choice,
    ChooseRecord,
    Match,
    ambiguity,
    match_person,
    players_known_to,
)
from ..refusals import role_needed
from ..roles import Role
from ..selectors import club_ids_with_role
from ..text import clean_text

NAME_MAX = 120


def require_club_admin(*, actor: Actor, club: Club) -> None:
    """Who may change a club's members: its club admins (staff anywhere)."""
    if not actor.has_role(club_id=club.id, at_least=Role.CLUB_ADMIN):
        raise role_needed(club, Role.CLUB_ADMIN)


def lock_club(club_id: int) -> Club:
    try:
        return Club.objects.select_for_update().get(id=club_id)
    except Club.DoesNotExist:
        raise NotFound(N_("There is no club %(club_id)s.", club_id=club_id)) from None


def clean_name(name: str) -> str:
    name = clean_text(name)
    if not name:
        raise InvalidInput(
            N_("A member needs a name."), field_errors={"name": [N_("Enter a name.")]}
        )
    if len(name) > NAME_MAX:
        message = N_(
            "A name can have at most %(most)s characters; this one has %(length)s.",
            most=NAME_MAX,
            length=len(name),
        )
        raise InvalidInput(message, field_errors={"name": [message]})
    return name


def clean_email(email: str) -> str:
    email = email.strip()
    if not email:
        return ""
    try:
        validate_email(email)
    except ValidationError:
        message = N_("'%(email)s' is not an email address.", email=email)
        raise InvalidInput(message, field_errors={"email": [message]}) from None
    return email


def email_taken_in_club(*, club: Club, email: str, exclude_player_id: int | None = None) -> bool:
    if not email:
        return False
    qs = Membership.objects.filter(club=club, player__email__iexact=email)
    if exclude_player_id is not None:
        qs = qs.exclude(player_id=exclude_player_id)
    return qs.exists()


def record_pools(*, club: Club, actor: Actor | None) -> tuple[QuerySet[Player], QuerySet[Player]]:
    """Where a club admin's typed person is looked for: by name among the records the club
    and the actor's other clubs (as club admin) know; by email there too, or among every
    record for staff. Without an actor: the club's own records."""
    admin_of = [club.id]
    everyone = False
    if actor is not None:
        ids = club_ids_with_role(user=actor.user, at_least=Role.CLUB_ADMIN)
        if ids is None:
            everyone = True
        else:
            admin_of = sorted({club.id, *ids})
    names = players_known_to(club_ids=admin_of)
    return names, Player.objects.all() if everyone else names


@transaction.atomic
def member_add(
    *,
    club: Club,
    name: str,
    email: str = "",
    role: Role = Role.PLAYER,
    actor: Actor | None = None,
    choice: Choice | None = None,
) -> Membership:
    """The person becomes a member, with the record they already have if there is one.

    A record with the email given is theirs. A record of the same name (a member, a former
    member, a visitor of the club or of the actor's other clubs) may be theirs or another
    person's: ChooseRecord asks, unless ``choice`` says which record, or NEW for a new one.
    The person can claim the record with an invitation. An actor given must be a club
    admin of ``club`` (the members CSV and the demo add without one, having checked)."""
    if actor is not None:
        require_club_admin(actor=actor, club=club)
    lock_club(club.id)
    name, email = clean_name(name), clean_email(email)
    if choice is None and email_taken_in_club(club=club, email=email):
        message = N_(
            "%(email)s is already the email of a member of %(name)s.", email=email, name=club.name
        )
        raise Conflict(message, field_errors={"email": [message]})
    names, emails = record_pools(club=club, actor=actor)
    found = match_person(within=names, emails_within=emails, name=name, email=email, choice=choice)
    if found.how == "name" and found.player is not None:
        # Two people may share a name: the person adding knows which one this is.
        found = Match(None, "ambiguous", (found.player,))
    if found.ambiguous:
        raise ChooseRecord([ambiguity("name", name, found.candidates, club=club)], emails=True)
    if found.player is None:
        if email_taken_in_club(club=club, email=email):  # a new record: not a member's email
            message = N_(
                "%(email)s is already the email of a member of %(name)s.",
                email=email,
                name=club.name,
            )
            raise Conflict(message, field_errors={"email": [message]})
        player = Player.objects.create(name=name, email=email)
        return Membership.objects.create(club=club, player=player, role=role)
    player = found.player
    if email and not player.email:
        player.email = email
        player.save(update_fields=["email"])
    return _join(club=club, player=player, role=role)


def _join(*, club: Club, player: Player, role: Role) -> Membership:
    if Membership.objects.filter(club=club, player=player).exists():
        raise Conflict(
            _("%(name)s is already a member of %(club)s.")
            % {"name": player.name, "club": club.name}
        )
    if email_taken_in_club(club=club, email=player.email, exclude_player_id=player.id):
        raise Conflict(
            N_(
                "Another member of %(name)s has the email %(email)s; if that is the same person as "
                "%(player_name)s, merge the two records instead.",
                name=club.name,
                email=player.email,
                player_name=player.name,
            )
        )
    FormerMembership.objects.filter(club=club, player=player).delete()
    return Membership.objects.create(club=club, player=player, role=role)


def member_add_existing_by(
    *, actor: Actor, club: Club, player: Player, role: Role = Role.PLAYER
) -> Membership:
    require_club_admin(actor=actor, club=club)
    return member_add_existing(club=club, player=player, role=role)


@transaction.atomic
def member_add_existing(*, club: Club, player: Player, role: Role = Role.PLAYER) -> Membership:
    """Makes an existing record a member: a member of another club, or a record of this
    club's past (a former member, a visitor) added again as the same record."""
    lock_club(club.id)
    return _join(club=club, player=player, role=role)


def _refuse_losing_last_admin(membership: Membership, *, doing: Sentence) -> None:
    if membership.role != Role.CLUB_ADMIN:
        return
    others = (
        Membership.objects.filter(club_id=membership.club_id, role=Role.CLUB_ADMIN)
        .exclude(id=membership.id)
        .exists()
    )
    if not others:
        raise InvalidInput(
            N_(
                "%(name)s is the only club admin of %(club_name)s; make another member club admin "
                "before you %(doing)s.",
                name=membership.player.name,
                club_name=membership.club.name,
                doing=doing,
            )
        )


def member_change_role_by(*, actor: Actor, membership: Membership, role: Role) -> Membership:
    require_club_admin(actor=actor, club=membership.club)
    return member_change_role(membership=membership, role=role)


@transaction.atomic
def member_change_role(*, membership: Membership, role: Role) -> Membership:
    lock_club(membership.club_id)
    membership.refresh_from_db()
    if membership.role == role:
        return membership
    if role != Role.CLUB_ADMIN:
        _refuse_losing_last_admin(membership, doing=N_("make them %(role)s", role=role.label))
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


def member_remove_by(*, actor: Actor, membership: Membership) -> Player:
    require_club_admin(actor=actor, club=membership.club)
    return member_remove(membership=membership)


@transaction.atomic
def member_remove(*, membership: Membership) -> Player:
    """Ends the membership. The player record stays, with every game it played, as a
    former member: the club's admins still see it, merge it and add it again."""
    lock_club(membership.club_id)
    try:
        membership.refresh_from_db()
    except Membership.DoesNotExist:
        raise NotFound(N_("That member was already removed.")) from None
    _refuse_losing_last_admin(membership, doing=N_("remove them"))
    player = membership.player
    FormerMembership.objects.update_or_create(
        club_id=membership.club_id,
        player=player,
        defaults={"role": membership.role, "joined_at": membership.joined_at},
    )
    membership.delete()
    return player


@transaction.atomic
def player_set_public(*, player: Player, is_public: bool) -> Player:
    player.is_public = is_public
    player.save(update_fields=["is_public"])
    return player
