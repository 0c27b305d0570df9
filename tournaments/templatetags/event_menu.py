"""The event menu: one menu on every organiser page of an event.

``{% event_menu event %}`` links the event's pages (registration, bracket, tables, settings,
reports, export) and its public pages and projector. The organiser's links show to those who
may manage the event: the page's ``manage`` when it has one, otherwise asked once here."""

from __future__ import annotations

from typing import Any

from django import template

from ..permissions import EventAction, may_on_event

register = template.Library()


@register.inclusion_tag("tournaments/_nav.html", takes_context=True)
def event_menu(context: template.Context, event: Any, manage: bool | None = None) -> dict[str, Any]:
    if manage is None:
        manage = context.get("manage")
    request = context.get("request")
    if manage is None and request is not None:
        manage = may_on_event(user=request.user, action=EventAction.MANAGE, event=event)
    match = getattr(request, "resolver_match", None)
    here = f"{match.namespace}:{match.url_name}" if match is not None else ""
    return {"event": event, "manage": bool(manage), "here": here}
