"""Rounds, pairings and their results; the clock of a game or a whole round."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, NotFound

from .. import services
from ..models import Entry, Pairing
from ..selectors import bracket_of, pairings_of, rounds_of
from .base import ERRORS, EventView, pairing_of, round_of
from .serializers import (
    AdjustSerializer,
    ByePointsSerializer,
    ClockSerializer,
    CorrectSerializer,
    ForfeitSerializer,
    LateSerializer,
    MinutesSerializer,
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


class RoundActionView(EventView):
    """POST start | start-waiting | pause | resume | add-minutes | swap-teams | swap-tables."""

    @extend_schema(request=None, responses={200: RoundSerializer, **ERRORS})
    def post(self, request: Request, pk: int, number: int, action: str) -> Response:
        event = self.event(request, pk)
        round_ = round_of(event, number)
        if action == "start":
            services.round_start(round_=round_, by=request.user)
        elif action == "start-waiting":
            services.round_start_waiting(round_=round_)
        elif action == "pause":
            services.round_pause(round_=round_)
        elif action == "resume":
            services.round_resume(round_=round_)
        elif action == "add-minutes":
            minutes = MinutesSerializer(data=request.data)
            minutes.is_valid(raise_exception=True)
            services.round_add_minutes(round_=round_, minutes=minutes.validated_data["minutes"])
        elif action == "swap-teams":
            teams = SwapTeamsSerializer(data=request.data)
            teams.is_valid(raise_exception=True)
            first, second = (
                Entry.objects.get(event=event, id=teams.validated_data[k])
                for k in ("first", "second")
            )
            services.round_swap_teams(round_=round_, first=first, second=second, by=request.user)
        elif action == "swap-tables":
            tables = SwapTablesSerializer(data=request.data)
            tables.is_valid(raise_exception=True)
            first_p, second_p = (
                pairing_of(event, tables.validated_data[k]) for k in ("first", "second")
            )
            services.round_swap_tables(round_=round_, first=first_p, second=second_p)
        else:
            raise NotFound(f"There is no action {action!r} here.")
        return Response(RoundSerializer(rounds_of(event=event).get(id=round_.id)).data)


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


class PairingActionView(EventView):
    """POST forfeit | adjust | late | bye-points | substitute | clock."""

    @extend_schema(request=None, responses={200: PairingSerializer, **ERRORS})
    def post(self, request: Request, pk: int, pairing_id: int, action: str) -> Response:
        event = self.event(request, pk)
        pairing = pairing_of(event, pairing_id)
        if action == "forfeit":
            forfeit = ForfeitSerializer(data=request.data)
            forfeit.is_valid(raise_exception=True)
            services.pairing_forfeit(
                pairing=pairing,
                forfeiting=forfeit.validated_data["forfeiting"],
                by=request.user,
                reason=forfeit.validated_data.get("reason", ""),
            )
        elif action == "adjust":
            adjust = AdjustSerializer(data=request.data)
            adjust.is_valid(raise_exception=True)
            services.pairing_adjust(pairing=pairing, by=request.user, **adjust.validated_data)
        elif action == "late":
            late = LateSerializer(data=request.data)
            late.is_valid(raise_exception=True)
            services.pairing_mark_late(pairing=pairing, late=late.validated_data["late"])
        elif action == "bye-points":
            bye = ByePointsSerializer(data=request.data)
            bye.is_valid(raise_exception=True)
            services.pairing_set_bye_points(pairing=pairing, **bye.validated_data)
        elif action == "substitute":
            sub = SubstituteSerializer(data=request.data)
            sub.is_valid(raise_exception=True)
            data = sub.validated_data
            services.entry_substitute(
                pairing=pairing,
                replaced_id=data["replaced"],
                substitute_id=data.get("substitute"),
                substitute_name=data.get("substitute_name", ""),
                by=Actor.of(request.user).by,
                reason=data.get("reason", ""),
            )
        elif action == "clock":
            clock = ClockSerializer(data=request.data)
            clock.is_valid(raise_exception=True)
            services.pairing_clock(pairing=pairing, **clock.validated_data)
        else:
            raise NotFound(f"There is no action {action!r} here.")
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
        event = self.event(request, pk)
        incoming = RollbackSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        if not incoming.validated_data["confirm"]:
            raise InvalidInput("Confirm the roll back once you have read what it undoes.")
        undone = services.pairing_rollback(
            pairing=pairing_of(event, pairing_id),
            by=request.user,
            reason=incoming.validated_data.get("reason", ""),
        )
        return Response({"undone": undone})


class CorrectHandView(EventView):
    @extend_schema(request=CorrectSerializer, responses={200: PairingSerializer, **ERRORS})
    def put(self, request: Request, pk: int, pairing_id: int, number: int) -> Response:
        event = self.event(request, pk)
        pairing = pairing_of(event, pairing_id)
        incoming = CorrectSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        services.pairing_correct_hand(
            pairing=pairing,
            number=int(number),
            entry=incoming.to_entry(),
            by=request.user,
            reason=incoming.validated_data.get("reason", ""),
            rollback=incoming.validated_data["rollback"],
        )
        return _pairing_answer(pairing)
