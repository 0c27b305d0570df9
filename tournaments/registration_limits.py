"""How often one client may sign up: every sign-up, by the page or the API, counts against
``REGISTRATION_RATE`` per client address (django-ratelimit on the cache, failing open as the
table codes' limit does, ``kaiser_club/client_address.py`` for the address), and the page
refuses a form sent by a robot: a hidden field filled in, or a form sent faster than a person
types it."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited

from kaiser_club.errors import InvalidInput, KaiserError
from kaiser_club.sentences import N_

RATE_GROUP = "registration"
FORM_SALT = "kaiser.registration.form"
FASTEST_SECONDS = 3  # no person fills in two names and two e-mail addresses faster
OLDEST_SECONDS = 60 * 60 * 6


class TooManySignUps(KaiserError):
    status = 429
    code = "too_many_requests"


def count_sign_up(request: HttpRequest) -> None:
    """Counts this sign-up; refuses it when the client has sent too many lately."""
    try:
        limited = is_ratelimited(
            request,
            group=RATE_GROUP,
            key="ip",
            rate=getattr(settings, "REGISTRATION_RATE", settings.TABLE_CODE_RATE),
            increment=True,
        )
    except Exception:  # the cache (Redis) is down: fail open, as the table codes do
        return
    if limited:
        raise TooManySignUps(
            N_("Too many sign-ups from your address just now; wait a minute and send it again.")
        )


def form_stamp() -> str:
    """The signed time the form was shown, carried by the form."""
    return signing.dumps("sign-up", salt=FORM_SALT)


def refuse_robot(*, stamp: str, honeypot: str) -> None:
    """Refuses a form whose hidden field was filled in, or sent too fast (or too late, or with
    a stamp not ours)."""
    said = N_("The form could not be read; wait a few seconds, check it and send it again.")
    if honeypot:
        raise InvalidInput(said, code="robot")
    try:
        signing.loads(stamp, salt=FORM_SALT, max_age=OLDEST_SECONDS)
    except signing.BadSignature:
        raise InvalidInput(said, code="robot") from None
    try:
        signing.loads(stamp, salt=FORM_SALT, max_age=FASTEST_SECONDS)
    except signing.SignatureExpired:
        return  # older than the fastest a person types: fine
    raise InvalidInput(said, code="robot")
