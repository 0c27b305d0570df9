"""What the pages share: finding the event the URL names, and running a service."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect

from kaiser_club.errors import NotAllowed, NotFound
from kaiser_club.page_errors import refusal_shown

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
                # A round or game the address names that the event lacks: a 404 as well.
                return view(request, event, *args, **kw)
            except NotFound as exc:
                raise Http404(exc.message) from None
            except NotAllowed as exc:
                raise PermissionDenied(exc.message) from None

        return inner

    return wrap


def attempt(request: HttpRequest, call: Callable[[], Any], done: str = "") -> Any:
    """Runs a service; a refusal becomes an error message on the next page."""
    with refusal_shown(request) as refused:
        result = call()
    if refused:
        return None
    if done:
        messages.success(request, done)
    return result if result is not None else True


def act(
    request: HttpRequest,
    call: Callable[[dict[str, Any]], Any],
    *,
    done: str | Callable[[Any], str],
    back_to: HttpResponse,
    form: forms.BaseForm | None = None,
    again: Callable[[int], HttpResponse] | None = None,
) -> HttpResponse:
    """One action from a page, with its one service call.

    With a form: an invalid form is shown again (``again``, status 400) with its errors, never a
    silent redirect; a valid one's data goes to ``call``, and a refusal stands under the form's
    fields (or above the form), shown again with the refusal's status. Without a form: a
    refusal is a message on the page ``back_to`` goes to. Done: a message, and ``back_to``."""
    data: dict[str, Any] = {}
    if form is not None:
        assert again is not None, "a form's page is shown again when the form is refused"
        if not form.is_valid():
            return again(400)
        data = form.cleaned_data
    with refusal_shown(request, form=form) as refused:
        result = call(data)
    if refused:
        return again(refused.status) if form is not None and again is not None else back_to
    messages.success(request, done(result) if callable(done) else done)
    return back_to


def back(event: Event, name: str = "tournaments:event", **kw: Any) -> HttpResponse:
    return redirect(name, event_id=event.id, **kw)
