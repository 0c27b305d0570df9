"""Registering a club's partnerships."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, NotAllowed
from kaiser_club.models import Club, Player
from kaiser_club.roles import Role
from kaiser_club.sentences import N_
from kaiser_club.text import clean_within

from ..models import Team
from ..scope import require_known_players

TEAM_NAME_MAX = Team._meta.get_field("name").max_length or 160
TEAM_NAME_TOO_LONG = N_("A team's name has at most %(limit)s characters; this one has %(length)s.")


@transaction.atomic
def team_create(
    *, actor: Actor, club: Club | None, player_one: Player, player_two: Player, name: str = ""
) -> Team:
    """A partnership of two players the club knows, registered by one of its organisers."""
    if club is None or not actor.has_role(club_id=club.id, at_least=Role.ORGANISER):
        raise NotAllowed(gettext("Only a club's organisers can register its teams."))
    if player_one.id == player_two.id:
        raise InvalidInput(gettext("A team needs two different players."))
    require_known_players(club=club, players=[player_one], field="player_one_id")
    require_known_players(club=club, players=[player_two], field="player_two_id")
    name = clean_within(name, TEAM_NAME_MAX, too_long=TEAM_NAME_TOO_LONG)
    return Team.objects.create(club=club, player_one=player_one, player_two=player_two, name=name)
