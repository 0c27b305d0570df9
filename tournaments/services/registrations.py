"""Players signing themselves up: the sign-up, the waiting list and its promotions, the
organiser's approval, refusal, order and promotion by hand, and a player's own withdrawal.

Every write locks the event's row first, as every entry does: the places left are counted
under that lock, so two sign-ups for the last place at once give one entry and one place on
the waiting list, never an event over its capacity. A sign-up that takes a place becomes an
entry through the entries service, as one typed by the organiser would."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator, validate_email
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, KaiserError, NotFound
from kaiser_club.models import Player
from kaiser_club.people import Pool
from kaiser_club.refusals import role_refused
from kaiser_club.sentences import N_, Said, Sentence, of, stored
from kaiser_club.text import clean_within
from scoring.scope import players_open_to

from ..choices import EntryStatus, EventStatus, RegistrationMode
from ..models import (
    Entry,
    Event,
    PushSubscription,
    Registrant,
    Registration,
    RegistrationStatus,
    Round,
)
from ..models.registrations import ACTIVE_STATUSES, EMAIL_MAX, new_secret
from ..outbox.queue import tell
from ..permissions import EventAction
from . import entries
from .locks import lock_event

NAME_MAX = Registrant._meta.get_field("name").max_length or 120
PARTNERSHIP_NAME_MAX = Registration._meta.get_field("name").max_length or 160


@dataclass(frozen=True)
class Person:
    """One player as the sign-up gives them."""

    name: str
    email: str


def open_event(event_id: int) -> Event:
    """The event, if it takes sign-ups (NotFound otherwise, as for an event that does not
    exist: a closed event's sign-up is not there to be found)."""
    event = Event.objects.filter(id=event_id).exclude(registration=RegistrationMode.CLOSED).first()
    if event is None:
        raise NotFound(N_("There is no sign-up for event %(event_id)s.", event_id=event_id))
    return event


def refusal_to_sign_up(event: Event) -> Sentence | None:
    """Why the event takes no sign-up now, or None."""
    if event.registration == RegistrationMode.CLOSED:
        return N_("%(name)s takes no sign-ups: the organiser enters the teams.", name=event.name)
    if event.status == EventStatus.FINISHED:
        return N_("%(name)s has finished.", name=event.name)
    closes = event.registration_closes_at
    if closes is not None and closes <= timezone.now():
        when = timezone.localtime(closes).strftime("%Y-%m-%d %H:%M")
        return N_("Sign-ups for %(name)s closed at %(when)s.", name=event.name, when=when)
    return None


def places_left(event: Event) -> int | None:
    """Places left for sign-ups (None: no capacity). Every active entry takes one, whether the
    organiser typed it in or a player signed up."""
    if event.capacity is None:
        return None
    taken = Entry.objects.filter(event=event).exclude(status=EntryStatus.WITHDRAWN).count()
    return max(event.capacity - taken, 0)


def _people(event: Event, people: Sequence[Person]) -> list[Person]:
    wanted = 1 if event.individual else 2
    if len(people) != wanted:
        said = (
            N_("A progressive event takes one player a sign-up.")
            if event.individual
            else N_("A partnership is two players: give both names and e-mail addresses.")
        )
        raise InvalidInput(said, field_errors={"players": [said]})
    cleaned = []
    for index, person in enumerate(people, start=1):
        name = clean_within(
            person.name,
            NAME_MAX,
            too_long=N_("A name has at most %(limit)s characters; this one has %(length)s."),
            field=f"player_{index}_name",
        )
        if not name:
            said = N_("Type each player's name.")
            raise InvalidInput(said, field_errors={f"player_{index}_name": [N_("Required.")]})
        email = person.email.strip()
        try:
            validate_email(email)
            valid = len(email) <= EMAIL_MAX
        except ValidationError:
            valid = False
        if not valid:
            said = N_("%(email)s is not an e-mail address.", email=email[:EMAIL_MAX])
            raise InvalidInput(said, field_errors={f"player_{index}_email": [said]})
        cleaned.append(Person(name=name, email=email))
    if len({p.email.lower() for p in cleaned}) < len(cleaned):
        said = N_("Each player needs their own e-mail address.")
        raise InvalidInput(said, field_errors={"player_2_email": [said]})
    return cleaned


def _refuse_if_signed_up(event: Event, people: Sequence[Person]) -> None:
    for person in people:
        taken = Registrant.objects.filter(
            registration__event=event,
            registration__status__in=ACTIVE_STATUSES,
            email__iexact=person.email,
        ).exists()
        if taken:
            said = N_(
                "%(email)s has already signed up for %(name)s: the link in the e-mail it was "
                "sent leads to that sign-up.",
                email=person.email,
                name=event.name,
            )
            raise InvalidInput(said, code="already_signed_up")


def _own_player(actor: Actor, event: Event) -> Player | None:
    """The signed-in member's own record, when the event's club may name it."""
    user = actor.by
    if user is None:
        return None
    player = Player.objects.filter(user=user).first()
    if player is None or not players_open_to(club_id=event.club_id).filter(id=player.id).exists():
        return None
    return player


def _next_waiting_order(event: Event) -> int:
    last = Registration.objects.filter(event=event).aggregate(last=Max("waiting_order"))["last"]
    return (last or 0) + 1


@transaction.atomic
def registration_submit(
    *,
    actor: Actor,
    event_id: int,
    people: Sequence[Person],
    name: str = "",
    language: str = "en",
    base_url: str = "",
) -> Registration:
    """A sign-up: an entry when a place is left, else a place on the waiting list; pending the
    organiser's word when the event asks for approval. Anyone may sign up (no account); a
    signed-in member is found by their own record."""
    event = open_event(event_id)
    people = _people(event, people)
    name = clean_within(
        name,
        PARTNERSHIP_NAME_MAX,
        too_long=N_(
            "A partnership's name has at most %(limit)s characters; this one has %(length)s."
        ),
    )
    event = lock_event(event.id)
    refusal = refusal_to_sign_up(event)
    if refusal is not None:
        raise InvalidInput(refusal, code="registration_closed")
    _refuse_if_signed_up(event, people)
    registration = Registration.objects.create(
        event=event,
        name=name,
        status=RegistrationStatus.PENDING,
        language=language[:8] or "en",
        base_url=base_url[:200],
    )
    own = _own_player(actor, event)
    for position, person in enumerate(people, start=1):
        Registrant.objects.create(
            registration=registration,
            position=position,
            name=person.name,
            email=person.email,
            player=own if position == 1 else None,
        )
    if event.registration == RegistrationMode.OPEN:
        _place(event, registration)
    tell(registration, "received")
    return registration


def _place(event: Event, registration: Registration) -> None:
    """Into the event when a place is left and no one waits for it, else at the end of the
    waiting list (a place freed a moment ago is the head of the list's, not a newcomer's)."""
    left = places_left(event)
    waiting = Registration.objects.filter(event=event, status=RegistrationStatus.WAITING)
    if (left is None or left > 0) and not waiting.exists():
        _enter(event, registration)
    else:
        registration.status = RegistrationStatus.WAITING
        registration.waiting_order = _next_waiting_order(event)
        registration.save(update_fields=["status", "waiting_order"])


def _player_for(event: Event, registrant: Registrant, pool: Pool) -> Player:
    """The record the registrant is: their own, the one club-known record with their e-mail,
    or a new visitor record of the club. Never found by name alone: a stranger signing up must
    not take another person's record."""
    if registrant.player is not None:
        return registrant.player
    same_email = pool.with_email(registrant.email)
    if len(same_email) == 1:
        return same_email[0]
    return Player.objects.create(
        name=registrant.name, email=registrant.email, host_club_id=event.club_id
    )


def _enter(event: Event, registration: Registration) -> None:
    """The registration's entry, made by the entries service (which refuses, say, a player
    already entered, or a draw that has started)."""
    registrants = list(registration.registrants.order_by("position").select_related("player"))
    pool = Pool(players_open_to(club_id=event.club_id))
    players = [_player_for(event, r, pool) for r in registrants]
    if event.individual:
        entry = entries.entry_register_player_unchecked(event=event, player=players[0])
    else:
        entry = entries.entry_register_team_unchecked(
            event=event, player_one=players[0], player_two=players[1], name=registration.name
        )
    for registrant, player in zip(registrants, players, strict=True):
        if registrant.player_id != player.id:
            registrant.player = player
            registrant.save(update_fields=["player"])
    registration.entry = entry
    registration.status = RegistrationStatus.REGISTERED
    registration.waiting_order = None
    registration.decided_at = timezone.now()
    registration.save(update_fields=["entry", "status", "waiting_order", "decided_at"])


def _refuse(registration: Registration, said: Said | None) -> None:
    registration.status = RegistrationStatus.REFUSED
    registration.waiting_order = None
    registration.refusal_said = stored(said) if said is not None else None
    registration.decided_at = timezone.now()
    registration.save(update_fields=["status", "waiting_order", "refusal_said", "decided_at"])
    tell(registration, "refused")


def _try_enter(event: Event, registration: Registration) -> bool:
    """Enters the registration, or refuses it with the entries service's reason (a player
    entered by the organiser meanwhile): a promotion must not fail the change that freed the
    place."""
    try:
        with transaction.atomic():
            _enter(event, registration)
    except KaiserError as exc:
        _refuse(registration, of(exc))
        return False
    return True


def waiting_list(event: Event) -> list[Registration]:
    return list(
        Registration.objects.filter(event=event, status=RegistrationStatus.WAITING).order_by(
            "waiting_order", "id"
        )
    )


@transaction.atomic
def promote_waiting(*, event_id: int) -> list[Registration]:
    """Fills the places left from the head of the waiting list (after a withdrawal, a refusal,
    a larger capacity). Returns the registrations promoted."""
    event = lock_event(event_id)
    if event.registration == RegistrationMode.CLOSED or event.status == EventStatus.FINISHED:
        return []
    promoted = []
    for registration in waiting_list(event):
        left = places_left(event)
        if left is not None and left <= 0:
            break
        if _try_enter(event, registration):
            tell(registration, "promoted")
            promoted.append(registration)
    return promoted


def _may_direct(actor: Actor, event: Event) -> None:
    if not actor.has_role(club_id=event.club_id, at_least=EventAction.MANAGE.value):
        raise role_refused(event.club)


def _locked(registration: Registration) -> tuple[Event, Registration]:
    event = lock_event(registration.event_id)
    return event, Registration.objects.select_for_update().get(id=registration.id)


def _refuse_unless(registration: Registration, *statuses: str) -> None:
    if registration.status not in statuses:
        raise InvalidInput(
            N_(
                "%(name)s is %(status)s: this cannot be done now.",
                name=_label(registration),
                status=RegistrationStatus(registration.status).label.lower(),
            ),
            code="registration_moved_on",
        )


def _label(registration: Registration) -> str:
    if registration.name:
        return registration.name
    return " & ".join(r.name for r in registration.registrants.order_by("position"))


@transaction.atomic
def registration_approve_by(*, actor: Actor, registration: Registration) -> Registration:
    """The organiser accepts a pending sign-up: it takes a place if one is left, else the end
    of the waiting list."""
    _may_direct(actor, registration.event)
    event, registration = _locked(registration)
    _refuse_unless(registration, RegistrationStatus.PENDING)
    _place(event, registration)
    tell(registration, "approved")
    return registration


@transaction.atomic
def registration_refuse_by(
    *, actor: Actor, registration: Registration, reason: str = ""
) -> Registration:
    """The organiser turns a sign-up down, pending, waiting or registered; a registered one's
    entry withdraws, which frees its place for the head of the waiting list."""
    _may_direct(actor, registration.event)
    _event, registration = _locked(registration)
    _refuse_unless(registration, *ACTIVE_STATUSES)
    entry = registration.entry
    if entry is not None and entry.status != EntryStatus.WITHDRAWN:
        entries.entry_withdraw_unchecked(entry=entry, by=actor.by, reason=reason)
    reason = clean_within(
        reason, 300, too_long=N_("A reason has at most %(limit)s characters."), field="reason"
    )
    _refuse(registration, reason or None)
    return registration


@transaction.atomic
def registration_promote_by(*, actor: Actor, registration: Registration) -> Registration:
    """The organiser enters a waiting or pending sign-up now, whatever the capacity."""
    _may_direct(actor, registration.event)
    event, registration = _locked(registration)
    _refuse_unless(registration, RegistrationStatus.WAITING, RegistrationStatus.PENDING)
    _enter(event, registration)
    tell(registration, "promoted")
    return registration


@transaction.atomic
def registration_move_by(*, actor: Actor, registration: Registration, place: int) -> Registration:
    """Puts a waiting sign-up at ``place`` (1: next in) on the waiting list."""
    _may_direct(actor, registration.event)
    event, registration = _locked(registration)
    _refuse_unless(registration, RegistrationStatus.WAITING)
    others = [r for r in waiting_list(event) if r.id != registration.id]
    if place < 1 or place > len(others) + 1:
        said = N_("Choose a place from 1 to %(last)s.", last=len(others) + 1)
        raise InvalidInput(said, field_errors={"place": [said]})
    others.insert(place - 1, registration)
    Registration.objects.filter(id__in=[r.id for r in others]).update(waiting_order=None)
    start = _next_waiting_order(event)
    for offset, row in enumerate(others):
        Registration.objects.filter(id=row.id).update(waiting_order=start + offset)
    registration.refresh_from_db()
    return registration


@transaction.atomic
def registrant_link_renew_by(*, actor: Actor, registrant: Registrant) -> Registrant:
    """A new private link for the registrant: the old one stops working at once."""
    _may_direct(actor, registrant.registration.event)
    lock_event(registrant.registration.event_id)
    registrant.secret = new_secret()
    registrant.save(update_fields=["secret"])
    return registrant


@transaction.atomic
def registration_withdraw(*, registrant: Registrant) -> Registration:
    """A player withdraws their own sign-up from their private page; an entry only until the
    first round is drawn (then the organiser withdraws it, as its games are forfeited)."""
    event, registration = _locked(registrant.registration)
    _refuse_unless(registration, *ACTIVE_STATUSES)
    entry = registration.entry
    if entry is not None and entry.status != EntryStatus.WITHDRAWN:
        if Round.objects.filter(event=event).exists():
            raise InvalidInput(
                N_("The first round is drawn: ask the organiser to withdraw your partnership."),
                code="registration_moved_on",
            )
        entries.entry_withdraw_unchecked(entry=entry, reason="Withdrawn by the player")
    registration.status = RegistrationStatus.WITHDRAWN
    registration.waiting_order = None
    registration.decided_at = timezone.now()
    registration.save(update_fields=["status", "waiting_order", "decided_at"])
    return registration


@transaction.atomic
def registrant_emails_stop(*, registrant: Registrant) -> Registrant:
    """No more e-mails to this registrant (the link at the foot of each one)."""
    Registrant.objects.filter(id=registrant.id).update(emails_stopped=True)
    registrant.emails_stopped = True
    return registrant


PUSH_ENDPOINT_MAX = PushSubscription._meta.get_field("endpoint").max_length or 500
PUSH_KEY_MAX = PushSubscription._meta.get_field("p256dh").max_length or 200
PUSH_AUTH_MAX = PushSubscription._meta.get_field("auth").max_length or 100


@transaction.atomic
def push_subscribe(
    *, registrant: Registrant, endpoint: str, p256dh: str, auth: str
) -> PushSubscription:
    """Keeps a browser's push subscription for the registrant (the same endpoint once). The
    endpoint is a push service's address over HTTPS (``WEBPUSH_ENDPOINT_SCHEMES``)."""
    said = N_("This is not a browser's push subscription.")
    schemes = list(getattr(settings, "WEBPUSH_ENDPOINT_SCHEMES", ["https"]))
    try:
        URLValidator(schemes=schemes)(endpoint)
    except ValidationError:
        raise InvalidInput(said) from None
    too_long = (
        len(endpoint) > PUSH_ENDPOINT_MAX or len(p256dh) > PUSH_KEY_MAX or len(auth) > PUSH_AUTH_MAX
    )
    if too_long or not p256dh or not auth:
        raise InvalidInput(said)
    subscription, _ = PushSubscription.objects.update_or_create(
        registrant=registrant, endpoint=endpoint, defaults={"p256dh": p256dh, "auth": auth}
    )
    return subscription
