"""Rounds, pairings and their results; the clock of a game or a whole round."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput
from kaiser_club.sentences import N_
from scoring import services as scoring_services
from scoring.api.serializers import HandCorrectSerializer

from .. import services
from ..models import Event, Pairing, Round
from ..selectors import bracket_of, pairings_of, rounds_of
from ..services import actions
from .base import ERRORS, EventView, pairing_of, round_of
from .serializers import (
    AdjustSerializer,
    ByePointsSerializer,
    ClockSerializer,
    LateSerializer,
    MinutesSerializer,
    PairingForfeitSerializer,
    PairingSerializer,
    RollbackSerializer,
    RoundDetailSerializer,
    RoundSerializer,
    SubstituteSerializer,
    SwapTablesSerializer,
    SwapTeamsSerializer,
)


def _pairing_answer(pairing: Pairing) -> Response:
    fresh = Pairing.objects.select_related("table", "home", "away", "game", "round").get(
        id=pairing.id
    )
    return Response(PairingSerializer(fresh).data)


class RoundListView(EventView):
    @extend_schema(responses={200: RoundSerializer(many=True), **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        return Response(RoundSerializer(rounds_of(event=event), many=True).data)


class RoundDetailView(EventView):
    @extend_schema(responses={200: RoundDetailSerializer, **ERRORS})
    def get(self, request: Request, pk: int, number: int) -> Response:
        event = self.event(request, pk)
        round_ = round_of(event, number)
        round_.prefetched = pairings_of(round_=round_).select_related("round")  # type: ignore[attr-defined]
        return Response(RoundDetailSerializer(round_).data)


def _actor(request: Request) -> Actor:
    return Actor.of(request.user)


def _body(serializer_class: type[serializers.Serializer[Any]], request: Request) -> dict[str, Any]:
    incoming = serializer_class(data=request.data)
    incoming.is_valid(raise_exception=True)
    return dict(incoming.validated_data)


def _round_answer(event: Event, round_: Round) -> Response:
    return Response(RoundSerializer(rounds_of(event=event).get(id=round_.id)).data)


# A round's actions: POST /api/events/<id>/rounds/<number>/<action>/, one view per operation,
# each calling the service the round page calls, with the same arguments.
ROUND_ANSWER: dict[int | str, Any] = {200: RoundSerializer, **ERRORS}
# The actions that take nothing but their address still say so in the schema.
NO_BODY: dict[str, Any] = {
    "application/json": {
        "type": "object",
        "properties": {},
        "description": "Nothing: the address names the round or the game.",
    }
}


class RoundStartView(EventView):
    @extend_schema(
        request=NO_BODY, responses=ROUND_ANSWER, summary="Start every clock of the round at once"
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = self.event_seen(request, pk)
        round_ = round_of(event, number)
        actions.round_start(actor=_actor(request), round_=round_)
        return _round_answer(event, round_)


class RoundStartWaitingView(EventView):
    @extend_schema(
        request=NO_BODY,
        responses=ROUND_ANSWER,
        summary="Start the clocks of the round's games created since it started",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = self.event_seen(request, pk)
        round_ = round_of(event, number)
        actions.round_start_waiting(actor=_actor(request), round_=round_)
        return _round_answer(event, round_)


class RoundPauseView(EventView):
    @extend_schema(request=NO_BODY, responses=ROUND_ANSWER, summary="Pause every running clock")
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = self.event_seen(request, pk)
        round_ = round_of(event, number)
        actions.round_pause(actor=_actor(request), round_=round_)
        return _round_answer(event, round_)


class RoundResumeView(EventView):
    @extend_schema(request=NO_BODY, responses=ROUND_ANSWER, summary="Resume every paused clock")
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = self.event_seen(request, pk)
        round_ = round_of(event, number)
        actions.round_resume(actor=_actor(request), round_=round_)
        return _round_answer(event, round_)


class RoundAddMinutesView(EventView):
    @extend_schema(
        request=MinutesSerializer,
        responses=ROUND_ANSWER,
        summary="Add minutes to every running clock of the round",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = self.event_seen(request, pk)
        round_ = round_of(event, number)
        actions.round_add_minutes(
            actor=_actor(request), round_=round_, **_body(MinutesSerializer, request)
        )
        return _round_answer(event, round_)


class RoundSwapTablesView(EventView):
    @extend_schema(
        request=SwapTablesSerializer,
        responses=ROUND_ANSWER,
        summary="Two games of a round not started exchange tables",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = self.event_seen(request, pk)
        round_ = round_of(event, number)
        actions.round_swap_tables(
            actor=_actor(request), round_=round_, **_body(SwapTablesSerializer, request)
        )
        return _round_answer(event, round_)


class RoundSwapTeamsView(EventView):
    @extend_schema(
        request=SwapTeamsSerializer,
        responses=ROUND_ANSWER,
        summary="Two teams of a round not started exchange places",
    )
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = self.event_seen(request, pk)
        round_ = round_of(event, number)
        actions.round_swap_teams(
            actor=_actor(request), round_=round_, **_body(SwapTeamsSerializer, request)
        )
        return _round_answer(event, round_)


class BracketView(EventView):
    @extend_schema(responses={200: PairingSerializer(many=True), **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        return Response(PairingSerializer(bracket_of(event=event), many=True).data)


class PairingView(EventView):
    @extend_schema(responses={200: PairingSerializer, **ERRORS})
    def get(self, request: Request, pk: int, pairing_id: int) -> Response:
        event = self.event(request, pk)
        return _pairing_answer(pairing_of(event, pairing_id))


# A game's actions: POST /api/events/<id>/pairings/<pairing id>/<action>/, one view per
# operation, each calling the service the game's page calls, with the same arguments.
PAIRING_ANSWER: dict[int | str, Any] = {200: PairingSerializer, **ERRORS}


class PairingForfeitView(EventView):
    @extend_schema(
        request=PairingForfeitSerializer,
        responses=PAIRING_ANSWER,
        summary="One team forfeits: the other wins by the event's forfeit score",
    )
    def post(self, request: Request, pk: int, pairing_id: int) -> Response:
        pairing = pairing_of(self.event_seen(request, pk), pairing_id)
        actions.pairing_forfeit(
            actor=_actor(request), pairing=pairing, **_body(PairingForfeitSerializer, request)
        )
        return _pairing_answer(pairing)


class ForfeitUndoSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)


class PairingForfeitUndoView(EventView):
    @extend_schema(
        request=ForfeitUndoSerializer,
        responses=PAIRING_ANSWER,
        summary="A forfeit taken back, while nothing after it depends on it",
    )
    def post(self, request: Request, pk: int, pairing_id: int) -> Response:
        pairing = pairing_of(self.event(request, pk), pairing_id)
        actions.pairing_forfeit_undo(
            actor=_actor(request), pairing=pairing, **_body(ForfeitUndoSerializer, request)
        )
        return _pairing_answer(pairing)


class PairingAdjustView(EventView):
    @extend_schema(
        request=AdjustSerializer,
        responses=PAIRING_ANSWER,
        summary="An adjusted result, with its reason",
    )
    def post(self, request: Request, pk: int, pairing_id: int) -> Response:
        pairing = pairing_of(self.event_seen(request, pk), pairing_id)
        actions.pairing_adjust(
            actor=_actor(request), pairing=pairing, **_body(AdjustSerializer, request)
        )
        return _pairing_answer(pairing)


class PairingLateView(EventView):
    @extend_schema(
        request=LateSerializer,
        responses=PAIRING_ANSWER,
        summary="Mark the game as played after its round (or with it after all)",
    )
    def post(self, request: Request, pk: int, pairing_id: int) -> Response:
        pairing = pairing_of(self.event_seen(request, pk), pairing_id)
        actions.pairing_mark_late(
            actor=_actor(request), pairing=pairing, **_body(LateSerializer, request)
        )
        return _pairing_answer(pairing)


class PairingByePointsView(EventView):
    @extend_schema(request=ByePointsSerializer, responses=PAIRING_ANSWER, summary="A bye's points")
    def post(self, request: Request, pk: int, pairing_id: int) -> Response:
        pairing = pairing_of(self.event_seen(request, pk), pairing_id)
        actions.pairing_set_bye_points(
            actor=_actor(request), pairing=pairing, **_body(ByePointsSerializer, request)
        )
        return _pairing_answer(pairing)


class PairingSubstituteView(EventView):
    @extend_schema(
        request=SubstituteSerializer,
        responses=PAIRING_ANSWER,
        summary="A substitute plays this one game in a player's seat",
    )
    def post(self, request: Request, pk: int, pairing_id: int) -> Response:
        pairing = pairing_of(self.event_seen(request, pk), pairing_id)
        services.pairing_substitute(
            actor=_actor(request), pairing=pairing, **_body(SubstituteSerializer, request)
        )
        return _pairing_answer(pairing)


class PairingClockView(EventView):
    @extend_schema(
        request=ClockSerializer,
        responses=PAIRING_ANSWER,
        summary="The game's clock: start, pause, resume, or add minutes",
    )
    def post(self, request: Request, pk: int, pairing_id: int) -> Response:
        pairing = pairing_of(self.event_seen(request, pk), pairing_id)
        actions.pairing_clock(
            actor=_actor(request), pairing=pairing, **_body(ClockSerializer, request)
        )
        return _pairing_answer(pairing)


class RollbackView(EventView):
    @extend_schema(
        responses={200: None, **ERRORS},
        description="What rolling back the later games of this bracket game would undo.",
    )
    def get(self, request: Request, pk: int, pairing_id: int) -> Response:
        event = self.event(request, pk, write=True)
        pairing = pairing_of(event, pairing_id)
        return Response({"undone": services.rollback_preview(pairing=pairing)})

    @extend_schema(request=RollbackSerializer, responses={200: None, **ERRORS})
    def post(self, request: Request, pk: int, pairing_id: int) -> Response:
        event = self.event_seen(request, pk)
        incoming = RollbackSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        if not incoming.validated_data["confirm"]:
            raise InvalidInput(N_("Confirm the roll back once you have read what it undoes."))
        undone = actions.pairing_rollback(
            actor=_actor(request),
            pairing=pairing_of(event, pairing_id),
            reason=incoming.validated_data.get("reason", ""),
        )
        return Response({"undone": undone})


class CorrectHandView(EventView):
    @extend_schema(request=HandCorrectSerializer, responses={200: PairingSerializer, **ERRORS})
    def put(self, request: Request, pk: int, pairing_id: int, number: int) -> Response:
        event = self.event(request, pk)
        pairing = pairing_of(event, pairing_id)
        if pairing.game is None:
            raise InvalidInput(N_("This pairing has no game to correct."))
        incoming = HandCorrectSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        scoring_services.hand_correct_by(  # the games API's correction: the same rule, one service
            actor=_actor(request),
            game=pairing.game,
            number=int(number),
            entry=incoming.to_entry(),
            reason=incoming.validated_data.get("reason", ""),
            expected_version=incoming.validated_data.get("version"),
            roll_back=incoming.validated_data["rollback"],
        )
        return _pairing_answer(pairing)
