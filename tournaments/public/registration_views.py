"""The players' pages: the sign-up form (/e/<event>/register/) and each registrant's own page
(/e/<event>/me/<secret>/), reached by the private link of their e-mails. They parse, call the
registrations service and show what ``registration_selectors`` read."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from kaiser_club.actors import Actor
from kaiser_club.error_answers import error_json
from kaiser_club.errors import KaiserError
from kaiser_club.models import Player
from kaiser_club.page_errors import refusal_shown

from ..models import Registrant
from ..models.registrations import EMAIL_MAX
from ..outbox.push import push_public_key
from ..registration_limits import count_sign_up, form_stamp, refuse_robot
from ..registration_selectors import (
    own_page,
    own_page_path,
    registrant_by_secret,
    registrant_of_user,
    sign_up_state,
)
from ..services import registrations as service
from . import selectors as public

OWN_POLL_SECONDS = 5


class SignUpForm(forms.Form):
    player_1_name = forms.CharField(label=gettext_lazy("Your name"), max_length=400)
    player_1_email = forms.CharField(label=gettext_lazy("Your e-mail"), max_length=EMAIL_MAX + 40)
    player_2_name = forms.CharField(label=gettext_lazy("Your partner's name"), max_length=400)
    player_2_email = forms.CharField(
        label=gettext_lazy("Your partner's e-mail"), max_length=EMAIL_MAX + 40
    )
    name = forms.CharField(
        label=gettext_lazy("Partnership name (optional)"), max_length=400, required=False
    )
    # Left empty by people (it is hidden), filled in by robots.
    website = forms.CharField(
        required=False, max_length=200, label=gettext_lazy("Leave this empty")
    )
    stamp = forms.CharField(widget=forms.HiddenInput, max_length=200)

    def __init__(self, *args: Any, individual: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if individual:
            for field in ("player_2_name", "player_2_email", "name"):
                del self.fields[field]

    def people(self) -> list[service.Person]:
        data = self.cleaned_data
        people = [service.Person(data["player_1_name"], data["player_1_email"])]
        if "player_2_name" in self.fields:
            people.append(service.Person(data["player_2_name"], data["player_2_email"]))
        return people


def _private(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, no_cache=True, no_store=True, private=True)
    return response


def _initial(request: HttpRequest) -> dict[str, str]:
    initial = {"stamp": form_stamp()}
    if request.user.is_authenticated:
        player = Player.objects.filter(user=request.user).first()
        if player is not None:
            initial["player_1_name"] = player.name
            initial["player_1_email"] = player.email or request.user.email
    return initial


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest, event_id: int) -> HttpResponse:
    try:
        event = service.open_event(event_id)
    except KaiserError:
        raise Http404(_("There is no sign-up for this event.")) from None
    closed = service.refusal_to_sign_up(event)
    form = SignUpForm(
        request.POST if request.method == "POST" else None,
        initial=_initial(request),
        individual=event.individual,
    )
    state = None
    if request.method == "POST" and closed is None and form.is_valid():
        with refusal_shown(request, form=form) as refused:
            count_sign_up(request)
            refuse_robot(stamp=form.cleaned_data["stamp"], honeypot=form.cleaned_data["website"])
            registration = service.registration_submit(
                actor=Actor.of(request.user),
                event_id=event.id,
                people=form.people(),
                name=form.cleaned_data.get("name", ""),
                language=get_language() or "en",
                base_url=request.build_absolute_uri("/").rstrip("/"),
            )
            state = sign_up_state(registration)
        if refused:
            data = request.POST.copy()
            data["stamp"] = form_stamp()  # the next try is timed from now
            form.data = data
    context = {
        "event": event,
        "form": form,
        "state": state,
        "closed": closed,
        "places_left": service.places_left(event),
    }
    status = 400 if request.method == "POST" and state is None else 200
    if state is not None:
        status = 201
    return _private(render(request, "tournaments/public/register.html", context, status=status))


def _registrant(event_id: int, secret: str) -> Registrant:
    found = registrant_by_secret(event_id, secret)
    if found is None:
        raise Http404(_("This link is not valid (any more): ask the organiser for a new one."))
    return found


@require_http_methods(["GET"])
def own(request: HttpRequest, event_id: int, secret: str) -> HttpResponse:
    """The registrant's own page; ``?part=1``: its live part, for the page's refresh."""
    registrant = _registrant(event_id, secret)
    page = own_page(registrant)
    context = {
        "event": page.event,
        "page": page,
        "secret": secret,
        "poll_seconds": OWN_POLL_SECONDS,
        "push_key": push_public_key(),
        "clock": public.round_clock([page.seat.line.pairing]) if page.seat else None,
    }
    template = "tournaments/public/_own.html"
    if request.GET.get("part") != "1":
        template = "tournaments/public/own.html"
    response = render(request, template, context)
    response["Referrer-Policy"] = "no-referrer"  # the secret is in the address
    return _private(response)


@require_http_methods(["GET"])
def mine(request: HttpRequest, event_id: int) -> HttpResponse:
    """A signed-in player's own page for the event, without the e-mail's link."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    registrant = registrant_of_user(event_id, request.user)
    if registrant is None:
        raise Http404(_("You have not signed up for this event."))
    return redirect(own_page_path(registrant))


@require_POST
def own_withdraw(request: HttpRequest, event_id: int, secret: str) -> HttpResponse:
    registrant = _registrant(event_id, secret)
    with refusal_shown(request):
        service.registration_withdraw(registrant=registrant)
    return redirect(own_page_path(registrant))


@require_http_methods(["GET", "POST"])
def own_stop(request: HttpRequest, event_id: int, secret: str) -> HttpResponse:
    """The e-mails' link to stop them: a page that asks, and the button that does it (a link
    opened by a mail scanner changes nothing)."""
    registrant = _registrant(event_id, secret)
    if request.method == "POST":
        registrant = service.registrant_emails_stop(registrant=registrant)
    context = {"event": registrant.registration.event, "registrant": registrant, "secret": secret}
    return _private(render(request, "tournaments/public/stop_emails.html", context))


@require_POST
def own_push(request: HttpRequest, event_id: int, secret: str) -> HttpResponse:
    """Keeps the browser's push subscription (its JSON, as the browser gives it)."""
    registrant = _registrant(event_id, secret)
    try:
        data = json.loads(request.body or b"{}")
        endpoint = str(data["endpoint"])
        keys = data["keys"]
        p256dh, auth = str(keys["p256dh"]), str(keys["auth"])
    except (ValueError, KeyError, TypeError):
        return JsonResponse(
            {"detail": _("This is not a browser's push subscription."), "code": "invalid"},
            status=400,
        )
    try:
        service.push_subscribe(registrant=registrant, endpoint=endpoint, p256dh=p256dh, auth=auth)
    except KaiserError as exc:
        return JsonResponse(error_json(exc), status=exc.status)
    return JsonResponse({"subscribed": True}, status=201)
