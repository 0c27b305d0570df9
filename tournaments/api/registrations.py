"""Sign-ups: players sign up without an account; the organiser lists them, approves,
refuses, promotes and orders the waiting list."""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from kaiser_club.actors import Actor
from kaiser_club.errors import NotFound
from kaiser_club.sentences import N_

from ..models import Event, Registration
from ..models.registrations import EMAIL_MAX
from ..registration_limits import count_sign_up
from ..registration_selectors import registrations_of, sign_up_state
from ..services import registrations as service
from .base import ERRORS, EventView


class PersonSerializer(serializers.Serializer[dict[str, Any]]):
    name = serializers.CharField(max_length=400, trim_whitespace=False)
    email = serializers.CharField(max_length=EMAIL_MAX + 40, trim_whitespace=False)


class SignUpSerializer(serializers.Serializer[dict[str, Any]]):
    players = serializers.ListField(child=PersonSerializer(), min_length=1, max_length=4)
    name = serializers.CharField(max_length=400, required=False, allow_blank=True)


class StateSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(
        choices=["pending", "registered", "waiting", "refused", "withdrawn"]
    )
    place = serializers.IntegerField(allow_null=True, help_text="The place on the waiting list.")
    message = serializers.CharField(source="label", help_text="The state, in words.")
    refusal = serializers.CharField()


class RegistrantSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.CharField()
    player = serializers.IntegerField(source="player_id", allow_null=True)


class RegistrationSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField()
    waiting_order = serializers.IntegerField(allow_null=True)
    entry = serializers.IntegerField(source="entry_id", allow_null=True)
    created_at = serializers.DateTimeField()
    registrants = RegistrantSerializer(many=True, source="registrants.all")


class ReasonSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True)


class PlaceSerializer(serializers.Serializer[dict[str, Any]]):
    place = serializers.IntegerField(min_value=1, max_value=100000)


class RegistrationListView(EventView):
    def get_permissions(self) -> Any:
        if self.request.method == "POST":
            return [AllowAny()]
        return super().get_permissions()

    @extend_schema(responses={200: RegistrationSerializer(many=True), **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        """The event's sign-ups, for its organisers (with the players' e-mail addresses)."""
        event = self.event(request, pk, write=True)
        return Response(RegistrationSerializer(registrations_of(event), many=True).data)

    @extend_schema(
        request=SignUpSerializer,
        responses={
            201: StateSerializer,
            429: OpenApiResponse(description="Too many sign-ups from this address lately."),
            **ERRORS,
        },
        description="Signs up a partnership (or one player, in a progressive event) without an "
        "account. `status` says `registered`, `waiting` (with its `place` on the waiting list) "
        "or `pending` (the organiser approves sign-ups).",
    )
    def post(self, request: Request, pk: int) -> Response:
        count_sign_up(request)
        incoming = SignUpSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        registration = service.registration_submit(
            actor=Actor.of(request.user),
            event_id=int(pk),
            people=[service.Person(name=p["name"], email=p["email"]) for p in data["players"]],
            name=data.get("name", ""),
            language=get_language() or "en",
            base_url=request.build_absolute_uri("/").rstrip("/"),
        )
        state = sign_up_state(registration)
        return Response(StateSerializer(state).data, status=status.HTTP_201_CREATED)


def registration_of(event: Event, registration_id: int) -> Registration:
    found = Registration.objects.filter(event=event, id=registration_id).first()
    if found is None:
        raise NotFound(
            N_(
                "%(name)s has no sign-up %(registration_id)s.",
                name=event.name,
                registration_id=registration_id,
            )
        )
    return found


class RegistrationActionView(EventView):
    """approve, refuse (a reason), promote, move (a place on the waiting list)."""

    @extend_schema(
        operation_id="events_registrations_act",
        request=PlaceSerializer,
        responses={200: StateSerializer, **ERRORS},
        description="`approve`, `refuse` (with an optional `reason`), `promote` (whatever the "
        "capacity), or `move` (to `place` on the waiting list).",
    )
    def post(self, request: Request, pk: int, registration_id: int, action: str) -> Response:
        event = self.event(request, pk, write=False)
        registration = registration_of(event, registration_id)
        actor = Actor.of(request.user)
        if action == "approve":
            registration = service.registration_approve_by(actor=actor, registration=registration)
        elif action == "refuse":
            reason = ReasonSerializer(data=request.data)
            reason.is_valid(raise_exception=True)
            registration = service.registration_refuse_by(
                actor=actor,
                registration=registration,
                reason=reason.validated_data.get("reason", ""),
            )
        elif action == "promote":
            registration = service.registration_promote_by(actor=actor, registration=registration)
        elif action == "move":
            place = PlaceSerializer(data=request.data)
            place.is_valid(raise_exception=True)
            registration = service.registration_move_by(
                actor=actor, registration=registration, place=place.validated_data["place"]
            )
        else:
            raise NotFound(N_("There is no action %(action)s on a sign-up.", action=action[:40]))
        return Response(StateSerializer(sign_up_state(registration)).data)
