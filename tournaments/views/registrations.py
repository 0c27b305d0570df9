"""The organiser's page of sign-ups: pending ones to approve or refuse, the waiting list to
order and promote from, each player's private link to renew."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from kaiser_club.actors import Actor

from ..models import Event, Registrant, Registration
from ..permissions import EventAction
from ..registration_selectors import registrations_of, waiting_place
from ..services import registrations as service
from ..services.registrations import places_left
from .common import attempt, back, event_page


@event_page(EventAction.MANAGE)
def registration_list(request: HttpRequest, event: Event) -> HttpResponse:
    rows = [
        (registration, waiting_place(registration), list(registration.registrants.all()))
        for registration in registrations_of(event)
    ]
    context = {
        "event": event,
        "rows": rows,
        "places_left": places_left(event),
        "manage": True,
    }
    return render(request, "tournaments/registrations.html", context)


@event_page(EventAction.MANAGE)
def registration_action(
    request: HttpRequest, event: Event, registration_id: int, action: str
) -> HttpResponse:
    registration = Registration.objects.filter(event=event, id=registration_id).first()
    if registration is None:
        raise Http404(_("This event has no such sign-up."))
    actor = Actor.of(request.user)
    if action == "approve":
        attempt(
            request, lambda: service.registration_approve_by(actor=actor, registration=registration)
        )
    elif action == "refuse":
        reason = request.POST.get("reason", "")
        attempt(
            request,
            lambda: service.registration_refuse_by(
                actor=actor, registration=registration, reason=reason
            ),
        )
    elif action == "promote":
        attempt(
            request, lambda: service.registration_promote_by(actor=actor, registration=registration)
        )
    elif action == "move":
        given = request.POST.get("place", "")
        place = int(given) if given.isdigit() and len(given) < 7 else 0
        attempt(
            request,
            lambda: service.registration_move_by(
                actor=actor, registration=registration, place=place
            ),
        )
    elif action == "renew-link":
        given = request.POST.get("registrant", "")
        registrant = None
        if given.isdigit() and len(given) < 12:
            registrant = Registrant.objects.filter(registration=registration, id=int(given)).first()
        if registrant is None:
            raise Http404(_("This sign-up has no such player."))
        attempt(
            request,
            lambda: service.registrant_link_renew_by(actor=actor, registrant=registrant),
            _("%(name)s has a new private link; the old one no longer works.")
            % {"name": registrant.name},
        )
    else:
        raise Http404(_("There is no such action on a sign-up."))
    return back(event, "tournaments:registrations")
