"""What the pages share: finding the event the URL names, and running a service."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from kaiser_club.answers import show_error
from kaiser_club.errors import KaiserError, NotAllowed, NotFound

from ..models import Event
from ..permissions import EventAction
from ..selectors import event_for

View = Callable[..., HttpResponse]


def event_page(action: EventAction = EventAction.READ) -> Callable[[View], View]:
    """Resolves ``event_id`` to the event (404 if the user cannot see it, 403 if their role is
    too low for ``action``); writes (POST) always need an organiser."""

    def wrap(view: View) -> View:
        @login_required
        @wraps(view)
        def inner(request: HttpRequest, event_id: int, *args: Any, **kw: Any) -> HttpResponse:
            needed = EventAction.MANAGE if request.method == "POST" else action
            try:
                event = event_for(user=request.user, event_id=event_id, action=needed)
            except NotFound as exc:
                raise Http404(exc.message) from None
            except NotAllowed as exc:
                raise PermissionDenied(exc.message) from None
            return view(request, event, *args, **kw)

        return inner

    return wrap


def attempt(request: HttpRequest, call: Callable[[], Any], done: str = "") -> Any:
    """Runs a service; a refusal becomes an error message on the next page."""
    try:
        result = call()
    except KaiserError as exc:
        show_error(request, exc)
        return None
    if done:
        messages.success(request, done)
    return result if result is not None else True


def back(event: Event, name: str = "tournaments:event", **kw: Any) -> HttpResponse:
    return redirect(name, event_id=event.id, **kw)
