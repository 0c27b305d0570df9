"""The organiser's download of a whole event as JSON, and the upload of such a file as a new
event (the same services as the API's /api/events/<id>/export/ and /api/events/import/)."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from kaiser_club.errors import KaiserError, NotAllowed

from ..api.transfer import export_filename
from ..models import Event
from ..permissions import EventAction
from ..transfer import event_export, event_import
from ..transfer.import_ import may_import
from .common import event_page

MAX_UPLOAD_BYTES = 20 * 1024 * 1024


@event_page(EventAction.MANAGE)
def event_download(request: HttpRequest, event: Event) -> HttpResponse:
    response = HttpResponse(
        json.dumps(event_export(event=event), indent=1), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{export_filename(event)}"'
    return response


@login_required
def event_upload(request: HttpRequest) -> HttpResponse:
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise KaiserError("Choose the exported event's .json file.")
            if upload.size and upload.size > MAX_UPLOAD_BYTES:
                raise KaiserError("That file is too big to be an exported event.")
            try:
                data = json.loads(upload.read().decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise KaiserError(f"The file is not JSON: {exc}") from None
            may_import(user=request.user, data=data)
            event = event_import(data=data, by=request.user)
        except NotAllowed as exc:
            raise PermissionDenied(exc.message) from None
        except KaiserError as exc:
            messages.error(request, f"Nothing was imported. {exc.message}")
            return render(request, "tournaments/event_import.html", status=400)
        messages.success(request, f"{event.name} is imported, with new table codes.")
        return redirect("tournaments:event", event_id=event.id)
    return render(request, "tournaments/event_import.html")
