"""The members API: a club's members, read by any member; added, re-roled and removed by its
club admins. Thin views over kaiser_club.members' services and selectors."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kaiser_club.sentences import N_

from ..actors import Actor
from ..errors import NotFound
from ..members import services
from ..members.selectors import club_members, membership_in_club
from ..models import Club, Membership
from ..people import NEW, Choice
from ..refusals import role_needed
from ..roles import Role
from ..selectors import role_in_club

ERRORS = {
    400: OpenApiResponse(description="The request breaks a rule; a message per field."),
    403: OpenApiResponse(description="Your role in this club does not allow this."),
    404: OpenApiResponse(description="No such club or member, or not a club of yours."),
    409: OpenApiResponse(
        description="It clashes with another member (the same email), or more than one record "
        "could be this person (code choose_player, with the choices)."
    ),
}


class MemberSerializer(serializers.ModelSerializer[Membership]):
    player_id = serializers.IntegerField(read_only=True)
    name = serializers.CharField(source="player.name", read_only=True)
    has_account = serializers.SerializerMethodField()

    class Meta:
        model = Membership
        fields = ["id", "player_id", "name", "role", "has_account", "joined_at"]

    def get_has_account(self, membership: Membership) -> bool:
        return membership.player.user_id is not None


class MemberAdminSerializer(MemberSerializer):
    """What a club admin sees: emails too."""

    email = serializers.CharField(source="player.email", read_only=True)

    class Meta(MemberSerializer.Meta):
        fields = [*MemberSerializer.Meta.fields, "email"]


class MemberListSerializer(MemberAdminSerializer):
    """The list's shape for the schema: ``email`` is there for club admins only."""

    email = serializers.CharField(
        source="player.email", required=False, help_text="In a club admin's list only."
    )


class MemberCreateSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    email = serializers.EmailField(required=False, allow_blank=True, default="", max_length=254)
    role = serializers.ChoiceField(choices=Role.choices, default=Role.PLAYER)
    player_id = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**63 - 1,
        help_text="The record this person already has (one of the choices of a 409 answer).",
    )
    new = serializers.BooleanField(
        default=False,
        help_text="A new record: another person of the same name as the records offered.",
    )


class MemberRoleSerializer(serializers.Serializer[Any]):
    role = serializers.ChoiceField(choices=Role.choices)


def club_and_role(request: Request, club_id: int, *, at_least: Role) -> tuple[Club, Role]:
    club = Club.objects.filter(id=club_id).first()
    role = role_in_club(user=request.user, club_id=club.id) if club else None
    if club is None or role is None:
        raise NotFound(
            N_("There is no club %(club_id)s that you are a member of.", club_id=club_id)
        )
    if not role.includes(at_least):
        raise role_needed(club, at_least)
    return club, role


class MemberListView(APIView):
    @extend_schema(responses={200: MemberListSerializer(many=True), **ERRORS})
    def get(self, request: Request, club_id: int) -> Response:
        """The club's members (emails only for its club admins)."""
        club, role = club_and_role(request, club_id, at_least=Role.PLAYER)
        shape = MemberAdminSerializer if role.includes(Role.CLUB_ADMIN) else MemberSerializer
        return Response(shape(club_members(club=club), many=True).data)

    @extend_schema(request=MemberCreateSerializer, responses={201: MemberAdminSerializer, **ERRORS})
    def post(self, request: Request, club_id: int) -> Response:
        """Adds a member (club admins): the record the person already has when one is found
        by email; a record of the same name is asked about (409, code ``choose_player``, with
        ``choices``): send again with its ``player_id``, or ``new: true`` for a new record."""
        club, _role = club_and_role(request, club_id, at_least=Role.CLUB_ADMIN)
        incoming = MemberCreateSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        choice: Choice | None = NEW if data["new"] else data.get("player_id")
        membership = services.member_add(
            club=club,
            name=data["name"],
            email=data["email"],
            role=Role(data["role"]),
            actor=Actor.of(request.user),
            choice=choice,
        )
        return Response(MemberAdminSerializer(membership).data, status=status.HTTP_201_CREATED)


class MemberDetailView(APIView):
    def _member(self, request: Request, club_id: int, membership_id: int) -> Membership:
        club, _role = club_and_role(request, club_id, at_least=Role.CLUB_ADMIN)
        membership = membership_in_club(club=club, membership_id=membership_id)
        if membership is None:
            raise NotFound(
                N_(
                    "%(name)s has no member %(membership_id)s.",
                    name=club.name,
                    membership_id=membership_id,
                )
            )
        return membership

    @extend_schema(request=MemberRoleSerializer, responses={200: MemberAdminSerializer, **ERRORS})
    def patch(self, request: Request, club_id: int, membership_id: int) -> Response:
        """Changes a member's role (club admins). A club keeps at least one club admin."""
        membership = self._member(request, club_id, membership_id)
        incoming = MemberRoleSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        membership = services.member_change_role_by(
            actor=Actor.of(request.user),
            membership=membership,
            role=Role(incoming.validated_data["role"]),
        )
        return Response(MemberAdminSerializer(membership).data)

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, club_id: int, membership_id: int) -> Response:
        """Ends a membership (club admins); the player and their games stay."""
        services.member_remove_by(
            actor=Actor.of(request.user), membership=self._member(request, club_id, membership_id)
        )
        return Response(status=status.HTTP_204_NO_CONTENT)
