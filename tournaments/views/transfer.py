"""The organiser's download of a whole event as JSON, and the upload of such a file as a new
event (the same services as the API's /api/events/<id>/export/ and /api/events/import/, which
decide who may import what: this page only shows their answer)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from kaiser_club.errors import KaiserError
from kaiser_club.sentences import N_

from ..api.transfer import export_filename
from ..models import Event
from ..permissions import EventAction
from ..transfer import (
    event_export,
    event_import,
    event_import_preview,
    parse_people,
    read_document,
)
from ..transfer.import_ import ImportPreview
from ..transfer.limits import check_document_size, check_file_size
from ..transfer.people import summary as people_summary
from .common import event_page

PERSON = "person-"  # the preview's choice of record for the file's player: person-<ref>
# Room left in a form's body for the CSRF token and the field names around a carried document.
FORM_MARGIN_BYTES = 10 * 1024


@event_page(EventAction.MANAGE)
def event_download(request: HttpRequest, event: Event) -> HttpResponse:
    response = HttpResponse(
        json.dumps(event_export(event=event), indent=1), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{export_filename(event)}"'
    return response


def _document(request: HttpRequest) -> Any:
    """The uploaded file's JSON, or the document a preview carried to its Import button,
    refused with a sentence when it is bigger than an event can be."""
    upload = request.FILES.get("file")
    if upload is None:
        carried = request.POST.get("document")
        if not carried:
            raise KaiserError(N_("Choose the exported event's .json file."))
        data = read_document(carried.encode("utf-8"))
    else:
        check_file_size(upload.size)
        data = read_document(upload.read())
    check_document_size(data)
    return data


def _carried(data: Any) -> str | None:
    """The document as compact JSON for the preview's Import button, when a form may carry
    it; otherwise the page asks for the file again."""
    text = json.dumps(data, separators=(",", ":"))
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is not None and len(text.encode("utf-8")) + FORM_MARGIN_BYTES > limit:
        return None
    return text


def _page(
    request: HttpRequest,
    *,
    preview: ImportPreview | None = None,
    document: str | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "tournaments/event_import.html",
        {"preview": preview, "document": document},
        status=status,
    )


@login_required
def event_upload(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request)
    try:
        data = _document(request)
        choices = parse_people(
            [
                f"{key.removeprefix(PERSON)}:{value}"
                for key, value in request.POST.items()
                if key.startswith(PERSON) and value
            ]
        )
        if request.POST.get("preview"):
            preview = event_import_preview(data=data, actor=request.user, choices=choices)
            return _page(request, preview=preview, document=_carried(data))
        result = event_import(data=data, actor=request.user, choices=choices)
    except KaiserError as exc:
        # The services' sentence, as the API gives it (403 when the role does not allow it).
        messages.error(request, _("Nothing was imported. %(why)s") % {"why": exc.message})
        return _page(request, status=exc.status)
    messages.success(
        request,
        _("%(name)s is imported, with new table codes.") % {"name": result.event.name},
    )
    messages.success(request, people_summary(result.people))
    for note in result.notes:
        messages.info(request, str(note))
    return redirect("tournaments:event", event_id=result.event.id)
