"""Export of a whole event as a JSON file, and import of such a file as a new event."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from kaiser_club.api.parsers import ReadableJSONParser
from kaiser_club.request_limits import whole_number_text
from kaiser_club.sentences import N_

from ..transfer import (
    ImportRefused,
    event_export,
    event_import,
    event_import_preview,
    parse_people,
    read_document,
)
from ..transfer.limits import check_document_size, check_file_size
from .base import ERRORS, EventView


def export_filename(event: Any) -> str:
    safe = "".join(ch if ch.isalnum() else "-" for ch in event.name.lower()).strip("-")
    return f"event-{event.id}-{safe or 'export'}.json"


class ExportView(EventView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT, **ERRORS},
        description="The whole event as a JSON file (organiser): settings, rules, entries, "
        "rounds, tables (without codes), pairings, games and every hand as entered.",
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        event = self.event(request, pk, write=True)
        body = json.dumps(event_export(event=event), indent=1)
        response = HttpResponse(body, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{export_filename(event)}"'
        return response


def read_upload(request: Request) -> Any:
    """The document sent, as a JSON body or a multipart 'file', refused with a sentence when it
    is bigger than an event can be (before the import service starts its transaction)."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    length = whole_number_text(request.META.get("CONTENT_LENGTH") or "0", 2**62) or 0
    is_json = request.content_type.startswith("application/json")
    if is_json and limit is not None and length > limit:
        raise ImportRefused(
            N_(
                "This export is bigger than a JSON body may be here (%(kib)s KiB): send it as a "
                "multipart upload named 'file' instead.",
                kib=limit // 1024,
            )
        )
    upload = request.FILES.get("file") if hasattr(request, "FILES") else None
    if upload is None:
        data = request.data
    else:
        check_file_size(upload.size)
        data = read_document(upload.read())
    check_document_size(data)
    return data


def is_dry_run(request: Request) -> bool:
    return request.query_params.get("dry_run", "").lower() in ("1", "true", "yes")


class ImportView(EventView):
    parser_classes = [ReadableJSONParser, MultiPartParser]

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT},
        parameters=[
            OpenApiParameter(
                "dry_run",
                bool,
                description="Only say what the import would do (200); nothing is written.",
            ),
            OpenApiParameter(
                "people",
                str,
                description="Which record each ambiguous player of the file is: the file's "
                "player ref, a colon, and a record's id (one of the choices the dry run or a "
                "409 lists) or new; several separated by commas (3:12,4:new).",
            ),
        ],
        responses={
            200: OpenApiResponse(
                description="With dry_run: the event's name and club, the counts of what would "
                "be written, notes (each row imported otherwise than the file says, and why) and "
                "people: each player of the file, the record here it is (by email, by name, as "
                "chosen) or a new record, and the choices where more than one could be it."
            ),
            201: OpenApiResponse(
                description="The new event's id and name, the notes and the people."
            ),
            **ERRORS,
        },
        description="Imports an exported event (JSON body, or a multipart 'file') as a new "
        "event of the file's club: organiser of that club (staff when the club is new here). "
        "Teams of clubs you do not organise become teams of the event's club, clubs missing "
        "here are created only for staff, and each player is found here before a record is "
        "made: by email among your clubs' records, then by name among the event's club's; a "
        "player more than one record could be is refused (409, code choose_player) until "
        "people says which. Scores are recomputed from the hands; all of it is written, or "
        "nothing.",
    )
    def post(self, request: Request) -> Response:
        data = read_upload(request)
        choices = parse_people(request.query_params.get("people", ""))
        if is_dry_run(request):
            preview = event_import_preview(data=data, actor=request.user, choices=choices)
            return Response(preview.as_dict(), status=status.HTTP_200_OK)
        result = event_import(data=data, actor=request.user, choices=choices)
        return Response(
            {
                "id": result.event.id,
                "name": result.event.name,
                "notes": [str(note) for note in result.notes],
                "people": [person.as_dict() for person in result.people],
            },
            status=status.HTTP_201_CREATED,
        )
