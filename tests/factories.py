"""factory_boy factories for the people and the games."""

from __future__ import annotations

from typing import Any, cast

import factory
from django.contrib.auth import get_user_model

from kaiser_club.models import Club, Membership, Player
from kaiser_club.roles import Role
from scoring import services
from scoring.models import Game, Team
from scoring.rules import Seat


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    default_preset = "tournament"


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    player = factory.SubFactory(PlayerFactory)
    role = Role.PLAYER


class TeamFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Team

    club = factory.SubFactory(ClubFactory)
    player_one = factory.SubFactory(PlayerFactory)
    player_two = factory.SubFactory(PlayerFactory)
    name = factory.Sequence(lambda n: f"Team {n}")


def member(club: Club, role: Role, *, username: str | None = None) -> Any:
    """A user who holds ``role`` in ``club``."""
    user = UserFactory(username=username) if username else UserFactory()
    player = PlayerFactory(user=user, name=user.username)
    MembershipFactory(club=club, player=player, role=role)
    return user


def start_game(
    *,
    club: Club | None = None,
    preset_name: str = "tournament",
    changes: dict[str, Any] | None = None,
    first_dealer: Seat = Seat.NORTH,
    from_paper: bool = False,
) -> Game:
    club = club or cast(Club, ClubFactory())
    return services.game_start(
        club=club,
        ns_team=cast(Team, TeamFactory(club=club)),
        ew_team=cast(Team, TeamFactory(club=club)),
        first_dealer=first_dealer,
        rules=services.rules_from(preset_name=preset_name, changes=changes),
        preset_name=preset_name,
        from_paper=from_paper,
    )
