"""Tables: their codes and QR links (organisers only), revoke and renew."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from kaiser_club.actors import Actor
from kaiser_club.sentences import N_

from .. import services
from ..models import Event, Table
from ..permissions import EventAction
from ..qr import qr_svg
from ..selectors import tables_of
from .common import attempt, back, event_page


@event_page(EventAction.MANAGE)
def table_list(request: HttpRequest, event: Event) -> HttpResponse:
    tables = []
    for table in tables_of(event=event):
        url = request.build_absolute_uri(services.table_path(table.code)) if table.code else ""
        tables.append(
            {
                "table": table,
                "code": services.display_code(table.code) if table.code else "",
                "url": url,
                "qr": qr_svg(url) if url else "",
                "current": table.current[0] if table.current else None,  # type: ignore[attr-defined]
            }
        )
    return render(request, "tournaments/tables.html", {"event": event, "tables": tables})


@require_POST
@event_page(EventAction.MANAGE)
def table_action(request: HttpRequest, event: Event, table_id: int, action: str) -> HttpResponse:
    table = Table.objects.filter(event=event, id=table_id).first()
    if table is None:
        raise Http404(N_("No such table."))
    if action == "revoke":
        attempt(
            request,
            lambda: services.table_revoke(actor=Actor.of(request.user), table=table),
            _("The code of table %(n)s is revoked.") % {"n": table.number},
        )
    elif action == "renew":
        attempt(
            request,
            lambda: services.table_renew(actor=Actor.of(request.user), table=table),
            _("Table %(n)s has a new code.") % {"n": table.number},
        )
    else:
        raise Http404(N_("No such action."))
    return back(event, "tournaments:tables")


@require_POST
@event_page(EventAction.MANAGE)
def table_add(request: HttpRequest, event: Event) -> HttpResponse:
    attempt(
        request,
        lambda: services.table_add(actor=Actor.of(request.user), event=event),
        _("Table added."),
    )
    return back(event, "tournaments:tables")
