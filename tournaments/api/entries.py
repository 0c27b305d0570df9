"""Registration endpoints: enter, import from CSV, check in, withdraw. Each write calls its
service with the actor; the service decides who may make it."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput
from kaiser_club.sentences import N_

from .. import services
from ..selectors import entries_of
from ..services import csv_import
from .base import ERRORS, EventView, entry_of
from .serializers import (
    CheckInSerializer,
    CsvImportSerializer,
    EntryCreateSerializer,
    EntrySerializer,
    EntryUpdateSerializer,
    PairingSerializer,
    ReasonSerializer,
)


class EntryListView(EventView):
    @extend_schema(responses={200: EntrySerializer(many=True), **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        entries = entries_of(event=event).order_by("seed", "name", "id")
        return Response(EntrySerializer(entries, many=True).data)

    @extend_schema(request=EntryCreateSerializer, responses={201: EntrySerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        event = self.event_seen(request, pk)
        incoming = EntryCreateSerializer(data=request.data, context={"request": request})
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        common = {"seed": data.get("seed"), "rating": data.get("rating"), "club": data.get("club")}
        if event.individual:
            if "player" not in data:
                raise InvalidInput(
                    N_("Give the player."), field_errors={"player": [N_("Required.")]}
                )
            entry = services.entry_register_player(
                actor=Actor.of(request.user), event=event, player=data["player"], **common
            )
        else:
            if "player_one" not in data or "player_two" not in data:
                raise InvalidInput(
                    N_("A team needs two players."),
                    field_errors={"player_one": [N_("Required.")], "player_two": [N_("Required.")]},
                )
            entry = services.entry_register_team(
                actor=Actor.of(request.user),
                event=event,
                player_one=data["player_one"],
                player_two=data["player_two"],
                name=data.get("name", ""),
                **common,
            )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryDetailView(EventView):
    @extend_schema(request=EntryUpdateSerializer, responses={200: EntrySerializer, **ERRORS})
    def patch(self, request: Request, pk: int, entry_id: int) -> Response:
        event = self.event_seen(request, pk)
        entry = entry_of(event, entry_id)
        incoming = EntryUpdateSerializer(data=request.data, context={"request": request})
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        entry = services.entry_update(
            actor=Actor.of(request.user),
            entry=entry,
            seed=data.get("seed", entry.seed),
            rating=data.get("rating", entry.rating),
            name=data.get("name", ""),
            player_one=data.get("player_one"),
            player_two=data.get("player_two"),
            player=data.get("player"),
        )
        return Response(EntrySerializer(entry).data)


class CheckInView(EventView):
    @extend_schema(request=CheckInSerializer, responses={200: EntrySerializer, **ERRORS})
    def post(self, request: Request, pk: int, entry_id: int) -> Response:
        event = self.event_seen(request, pk)
        incoming = CheckInSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        entry = services.entry_check_in(
            actor=Actor.of(request.user),
            entry=entry_of(event, entry_id),
            checked_in=incoming.validated_data["checked_in"],
        )
        return Response(EntrySerializer(entry).data)


class WithdrawView(EventView):
    @extend_schema(
        request=ReasonSerializer,
        responses={200: PairingSerializer(many=True), **ERRORS},
        description="Withdraws the entry; answers with the games forfeited because of it.",
    )
    def post(self, request: Request, pk: int, entry_id: int) -> Response:
        event = self.event_seen(request, pk)
        incoming = ReasonSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        forfeited = services.entry_withdraw(
            actor=Actor.of(request.user),
            entry=entry_of(event, entry_id),
            reason=incoming.validated_data.get("reason", ""),
        )
        return Response(PairingSerializer(forfeited, many=True).data)


class ReinstateView(EventView):
    @extend_schema(
        request=None,
        responses={200: EntrySerializer, **ERRORS},
        description="Undoes a withdrawal: the entry is paired again from the next round; the "
        "games forfeited when it withdrew stand.",
    )
    def post(self, request: Request, pk: int, entry_id: int) -> Response:
        event = self.event_seen(request, pk)
        entry = services.entry_reinstate(
            actor=Actor.of(request.user), entry=entry_of(event, entry_id)
        )
        return Response(EntrySerializer(entry).data)


class ImportView(EventView):
    @extend_schema(
        request=CsvImportSerializer,
        responses={200: None, 201: EntrySerializer(many=True), **ERRORS},
        description="With dry_run, answers with every row and its problems. Otherwise imports "
        "every row, or none when any row has a problem (400 with the rows).",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event_seen(request, pk)
        incoming = CsvImportSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        text = incoming.validated_data["csv"]
        csv_import.check_size(text)  # before anything is read into the database
        if incoming.validated_data["dry_run"]:
            result = services.entries_preview(actor=Actor.of(request.user), event=event, text=text)
            return Response(
                {"ok": result.ok, "rows": [row.as_dict() for row in result.rows]},
                status=status.HTTP_200_OK,
            )
        result = services.entries_import(actor=Actor.of(request.user), event=event, text=text)
        return Response(
            EntrySerializer(result.created, many=True).data, status=status.HTTP_201_CREATED
        )
