"""A day of sign-ups told by e-mail through a real SMTP server (aiosmtpd on a port of its own)
and Django's SMTP backend: each message arrives once, in its player's language; one the server
turns away is tried again and then arrives, once."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.test import override_settings

from tournaments.choices import EventStatus
from tournaments.models import MessageStatus, OutboxMessage, RegistrationStatus
from tournaments.outbox.sending import outbox_send, outbox_sweep
from tournaments.services import registrations as reg

from ..helpers import generate
from .world import open_event, pair, sign_up

pytestmark = pytest.mark.django_db


class Mailbox:
    """The SMTP server's handler: keeps each message; turns away the first delivery to each
    address in ``refuse_once`` (451: try again later), as a busy server does."""

    def __init__(self) -> None:
        self.received: list[EmailMessage] = []
        self.refuse_once: set[str] = set()

    async def handle_RCPT(
        self, server: Any, session: Any, envelope: Any, address: str, options: Any
    ) -> str:
        if address in self.refuse_once:
            self.refuse_once.discard(address)
            return "451 4.3.0 Try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        parsed = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(parsed, EmailMessage)
        self.received.append(parsed)
        return "250 Message accepted"

    def told(self) -> list[tuple[str, str]]:
        return sorted((str(m["To"]), str(m["Subject"])) for m in self.received)

    def text_to(self, address: str) -> str:
        return "\n".join(m.get_content() for m in self.received if m["To"] == address)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def mailbox() -> Iterator[Mailbox]:
    box = Mailbox()
    port = _free_port()
    server = Controller(box, hostname="127.0.0.1", port=port)
    server.start()
    try:
        with override_settings(
            EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=port,
            EMAIL_USE_TLS=False,
            EMAIL_TIMEOUT=5,
        ):
            yield box
    finally:
        server.stop()


def test_a_day_of_sign_ups_reaches_each_player_once_in_their_language(
    mailbox: Mailbox, django_capture_on_commit_callbacks: Any
) -> None:
    event = open_event(capacity=2, name="Open pairs")
    mailbox.refuse_once.add("bea@x.org")
    with django_capture_on_commit_callbacks(execute=True):
        anne = sign_up(event, pair("Anne", "anne@x.org", "Bob", "bob@x.org"))
        bea = sign_up(event, pair("Béa", "bea@x.org", "Cyr", "cyr@x.org"), language="fr")
        dom = sign_up(event, pair("Dom", "dom@x.org", "Eve", "eve@x.org"), language="fr")
    refused = OutboxMessage.objects.get(registrant__email="bea@x.org")
    assert (refused.status, refused.attempts) == (MessageStatus.QUEUED, 1)
    assert "451" in refused.error
    with django_capture_on_commit_callbacks(execute=True):
        reg.registration_withdraw(registrant=anne.registrants.get(position=1))
    dom.refresh_from_db()
    assert dom.status == RegistrationStatus.REGISTERED
    generate(event)  # round 1: Béa & Cyr against Dom & Eve
    assert outbox_send(message_id=refused.id)  # the retry
    assert outbox_send(message_id=refused.id)  # sent already: not again
    assert outbox_sweep() == 0  # nothing left queued long enough to sweep
    with django_capture_on_commit_callbacks(execute=True):
        event.status = EventStatus.FINISHED
        event.save()
        event.save()  # saved again: told once

    assert mailbox.told() == sorted(
        [
            ("anne@x.org", "Your sign-up for Open pairs"),
            ("bob@x.org", "Your sign-up for Open pairs"),
            ("bea@x.org", "Votre inscription à Open pairs"),
            ("cyr@x.org", "Votre inscription à Open pairs"),
            ("dom@x.org", "Votre inscription à Open pairs"),
            ("eve@x.org", "Votre inscription à Open pairs"),
            ("dom@x.org", "Une place pour vous dans Open pairs"),
            ("eve@x.org", "Une place pour vous dans Open pairs"),
            *[(a, "Votre table à Open pairs") for a in ("bea@x.org", "cyr@x.org")],
            *[(a, "Votre table à Open pairs") for a in ("dom@x.org", "eve@x.org")],
            *[(a, "Classement final de Open pairs") for a in ("bea@x.org", "cyr@x.org")],
            *[(a, "Classement final de Open pairs") for a in ("dom@x.org", "eve@x.org")],
        ]
    )
    to_bea = mailbox.text_to("bea@x.org")
    assert "Ronde 1 de Open pairs est tirée. Table 1, place" in to_bea
    assert "Votre partenaire : Cyr." in to_bea
    assert "Contre : Dom et Eve." in to_bea or "Contre : Eve et Dom." in to_bea
    assert f"/e/{event.id}/me/{bea.registrants.get(position=1).secret}/" in to_bea
    assert "We have your sign-up for Open pairs. You are registered" in mailbox.text_to(
        "anne@x.org"
    )
    unsubscribe = [m["List-Unsubscribe"] for m in mailbox.received if m["To"] == "eve@x.org"]
    assert all(u and u.endswith("/stop-emails/>") for u in unsubscribe)
    assert OutboxMessage.objects.exclude(status=MessageStatus.SENT).count() == 0
