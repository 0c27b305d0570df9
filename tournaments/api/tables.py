"""Tables, their codes and QR links. Codes are shown to organisers only."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, NotFound
from kaiser_club.sentences import N_

from .. import services
from ..permissions import EventAction, may_on_event
from ..qr import qr_svg
from ..selectors import tables_of
from .base import ERRORS, EventView, table_of
from .serializers import TableSerializer


class TableListView(EventView):
    @extend_schema(responses={200: TableSerializer(many=True), **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        show = may_on_event(user=request.user, action=EventAction.MANAGE, event=event)
        context = {"request": request, "show_codes": show}
        return Response(TableSerializer(tables_of(event=event), many=True, context=context).data)

    @extend_schema(request=None, responses={201: TableSerializer, **ERRORS})
    def post(self, request: Request, pk: int) -> Response:
        event = self.event_seen(request, pk)
        table = services.table_add(actor=Actor.of(request.user), event=event)
        context = {"request": request, "show_codes": True}
        return Response(TableSerializer(table, context=context).data, status.HTTP_201_CREATED)


class TableActionView(EventView):
    @extend_schema(
        operation_id="events_tables_action",
        request=None,
        responses={200: TableSerializer, **ERRORS},
        description="action: revoke (the code stops working) or renew (a new code).",
    )
    def post(self, request: Request, pk: int, table_id: int, action: str) -> Response:
        table = table_of(self.event_seen(request, pk), table_id)
        if action == "revoke":
            table = services.table_revoke(actor=Actor.of(request.user), table=table)
        elif action == "renew":
            table = services.table_renew(actor=Actor.of(request.user), table=table)
        else:
            raise NotFound(N_("There is no action %(action)r here.", action=action))
        context = {"request": request, "show_codes": True}
        return Response(TableSerializer(table, context=context).data)


class TableQrView(EventView):
    @extend_schema(responses={(200, "image/svg+xml"): bytes, **ERRORS})
    def get(self, request: Request, pk: int, table_id: int) -> HttpResponse:
        event = self.event(request, pk, write=True)
        table = table_of(event, table_id)
        if not table.code:
            raise InvalidInput(
                N_("Table %(number)s's code is revoked; renew it first.", number=table.number)
            )
        url = request.build_absolute_uri(services.table_path(table.code))
        return HttpResponse(qr_svg(url), content_type="image/svg+xml")
