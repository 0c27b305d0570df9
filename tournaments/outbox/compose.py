"""What each message says, in the registrant's language: a subject, a few sentences, and the
links to their own page and to stop the e-mails."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation

from kaiser_club.sentences import N_, Sentence, listed, render

from ..models import Registrant, RegistrationStatus
from ..registration_selectors import (
    Seat,
    own_page_url,
    sign_up_state,
    stop_emails_url,
)

SEAT_NAMES = {
    "north": N_("North"),
    "east": N_("East"),
    "south": N_("South"),
    "west": N_("West"),
}


@dataclass(frozen=True)
class Composed:
    subject: str
    body: str
    summary: str  # the first sentence: a browser notification's text


def _state_sentence(registrant: Registrant) -> Sentence:
    registration = registrant.registration
    event = registration.event.name
    state = sign_up_state(registration)
    if state.status == RegistrationStatus.REGISTERED:
        return N_("You are registered for %(event)s.", event=event)
    if state.status == RegistrationStatus.WAITING:
        return N_(
            "%(event)s is full: you are number %(place)s on the waiting list. We will write "
            "if a place frees.",
            event=event,
            place=state.place or 0,
        )
    if state.status == RegistrationStatus.PENDING:
        return N_("The organiser of %(event)s will confirm your sign-up.", event=event)
    return N_("Your sign-up for %(event)s was not accepted.", event=event)


def _seat_sentences(seat: Seat) -> list[Sentence]:
    if seat.bye:
        return [N_("You have a bye in this round.")]
    said = []
    if seat.table is not None and seat.seat:
        said.append(
            N_("Table %(table)s, seat %(seat)s.", table=seat.table, seat=SEAT_NAMES[seat.seat])
        )
    elif seat.table is not None:
        said.append(N_("Table %(table)s.", table=seat.table))
    if seat.partner:
        said.append(N_("Your partner: %(partner)s.", partner=seat.partner))
    if seat.opponents:
        said.append(N_("Against: %(opponents)s.", opponents=listed(seat.opponents)))
    return said


def _sentences(registrant: Registrant, key: str, seat: Seat | None, placing: str) -> list[Sentence]:
    registration = registrant.registration
    event = registration.event.name
    if key == "received":
        return [N_("We have your sign-up for %(event)s.", event=event), _state_sentence(registrant)]
    if key == "approved":
        return [
            N_("The organiser accepted your sign-up for %(event)s.", event=event),
            _state_sentence(registrant),
        ]
    if key == "promoted":
        return [N_("A place has freed in %(event)s: you are registered.", event=event)]
    if key == "refused":
        said = [N_("Your sign-up for %(event)s was not accepted.", event=event)]
        if registration.refusal_said:
            said.append(N_("The organiser's word: %(reason)s", reason=registration.refusal))
        return said
    if key.startswith("round-") and seat is not None:
        return [
            N_(
                "%(round)s of %(event)s is drawn.",
                round=seat.round_.said,
                event=event,
            ),
            *_seat_sentences(seat),
        ]
    if key == "final":
        if placing:
            return [
                N_(
                    "The final placings of %(event)s are out: you placed %(placing)s.",
                    event=event,
                    placing=placing,
                )
            ]
        return [N_("The final placings of %(event)s are out.", event=event)]
    raise ValueError(f"no message called {key!r}")


SUBJECTS = {
    "received": N_("Your sign-up for %(event)s"),
    "approved": N_("Your sign-up for %(event)s is accepted"),
    "promoted": N_("A place for you in %(event)s"),
    "refused": N_("Your sign-up for %(event)s"),
    "round": N_("Your table in %(event)s"),
    "final": N_("Final placings of %(event)s"),
}


def compose(
    registrant: Registrant, key: str, *, seat: Seat | None = None, placing: str = ""
) -> Composed:
    """The message about ``key`` to the registrant, in the language they signed up in."""
    registration = registrant.registration
    subject_key = "round" if key.startswith("round-") else key
    with translation.override(registration.language or "en"):
        sentences = [render(s) for s in _sentences(registrant, key, seat, placing)]
        subject = render(SUBJECTS[subject_key].with_params(event=registration.event.name))
        footer = [
            render(N_("Your own page: %(link)s", link=own_page_url(registrant))),
            render(N_("To stop these e-mails: %(link)s", link=stop_emails_url(registrant))),
        ]
    greeting = f"{registrant.name},"
    body = "\n\n".join([greeting, " ".join(sentences), "\n".join(footer)]) + "\n"
    return Composed(subject=subject[:200], body=body, summary=sentences[0])
