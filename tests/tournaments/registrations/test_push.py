"""Browser notifications sent through Web Push to a local endpoint that checks what a push
service checks: the VAPID signature (RFC 8292: an ES256 token for this origin, signed by the
server's key) and the message's encryption (RFC 8291, aes128gcm, readable only with the
browser's own key and secret). No network beyond 127.0.0.1."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from collections.abc import Iterator
from email.message import Message
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.test import Client, override_settings

from tournaments.models import MessageStatus, OutboxMessage, PushSubscription
from tournaments.outbox.sending import outbox_send
from tournaments.services import registrations as reg

from .world import open_event, pair, sign_up

pytestmark = pytest.mark.django_db


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def raw_public(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )


class Browser:
    """A browser's subscription keys (what PushManager.subscribe gives the page)."""

    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)

    def keys(self) -> dict[str, str]:
        return {"p256dh": b64(raw_public(self.key)), "auth": b64(self.auth)}


class PushService:
    """Answers as a push service: 201 for a message it could check, 401 for a bad signature,
    and ``answer`` when told to (410: the subscription has ended)."""

    def __init__(self, server_public: bytes, browser: Browser) -> None:
        self.server_public = server_public
        self.browser = browser
        self.delivered: list[dict[str, Any]] = []
        self.refused: list[str] = []
        self.answer: int | None = None
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.origin = f"http://127.0.0.1:{self.http.server_address[1]}"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                try:
                    status = service.answer or service.check(self.headers, body)
                except Exception as exc:  # a message it cannot read: said, as a push service does
                    service.refused.append(f"{type(exc).__name__}: {exc}")
                    status = 400
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return

        return Handler

    def check(self, headers: Message, body: bytes) -> int:
        scheme, _, params = str(headers.get("Authorization", "")).partition(" ")
        fields = dict(p.strip().split("=", 1) for p in params.split(","))
        token, key = fields.get("t", ""), unb64(fields.get("k", ""))
        if scheme != "vapid" or key != self.server_public:
            self.refused.append("not our server's key")
            return 401
        head, claims, signature = token.split(".")
        raw = unb64(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32]), int.from_bytes(raw[32:]))
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key)
        try:
            public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))
        except Exception:  # cryptography's InvalidSignature: the answer under test
            self.refused.append("bad signature")
            return 401
        said = json.loads(unb64(claims))
        if said["aud"] != self.origin or said["exp"] < time.time() or not said.get("sub"):
            self.refused.append(f"bad claims {said}")
            return 403
        if headers.get("Content-Encoding") != "aes128gcm":
            self.refused.append("not aes128gcm")
            return 400
        plain = http_ece.decrypt(
            body, private_key=self.browser.key, auth_secret=self.browser.auth, version="aes128gcm"
        )
        self.delivered.append(json.loads(plain))
        return 201

    def __enter__(self) -> PushService:
        threading.Thread(target=self.http.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *args: Any) -> None:
        self.http.shutdown()
        self.http.server_close()


@pytest.fixture
def vapid() -> Iterator[bytes]:
    key = ec.generate_private_key(ec.SECP256R1())
    private = b64(key.private_numbers().private_value.to_bytes(32))  # as web-push tools print it
    public = raw_public(key)
    with override_settings(
        WEBPUSH_VAPID_PRIVATE_KEY=private,
        WEBPUSH_VAPID_PUBLIC_KEY=b64(public),
        WEBPUSH_VAPID_SUBJECT="mailto:organiser@example.org",
        WEBPUSH_ENDPOINT_SCHEMES=["http", "https"],
    ):
        yield public


def test_a_player_opts_in_and_their_browser_gets_each_change_encrypted_and_signed(
    client: Client, vapid: bytes, django_capture_on_commit_callbacks: Any
) -> None:
    event = open_event(capacity=1)
    registered = sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    waiting = sign_up(event, pair("Cleo", "c@x.org", "Dan", "d@x.org"))
    cleo = waiting.registrants.get(position=1)
    browser = Browser()
    own = client.get(f"/e/{event.id}/me/{cleo.secret}/")
    assert own.context["push_key"] == b64(vapid)
    with PushService(vapid, browser) as service:
        subscribed = client.post(
            f"/e/{event.id}/me/{cleo.secret}/push/",
            json.dumps({"endpoint": f"{service.origin}/push/abc", "keys": browser.keys()}),
            content_type="application/json",
        )
        assert subscribed.status_code == 201
        with django_capture_on_commit_callbacks(execute=True):
            reg.registration_withdraw(registrant=registered.registrants.get(position=1))
        assert service.refused == [], service.refused
        assert service.delivered == [
            {
                "title": "A place for you in Open pairs",
                "body": "A place has freed in Open pairs: you are registered.",
                "url": f"http://testserver/e/{event.id}/me/{cleo.secret}/",
            }
        ]
        assert OutboxMessage.objects.get(channel="push").status == MessageStatus.SENT


def test_an_ended_subscription_is_dropped_and_a_failing_service_retried(vapid: bytes) -> None:
    event = open_event(capacity=4)
    registrant = sign_up(event, pair("A", "a@x.org", "B", "b@x.org")).registrants.get(position=1)
    browser = Browser()
    with PushService(vapid, browser) as service:
        subscription = reg.push_subscribe(
            registrant=registrant, endpoint=f"{service.origin}/p/1", **browser.keys()
        )
        message = OutboxMessage.objects.create(
            registrant=registrant,
            channel="push",
            key="approved",
            subscription=subscription,
            subject="S",
            body="B",
        )
        service.answer = 503
        assert not outbox_send(message_id=message.id)  # to be tried again
        message.refresh_from_db()
        assert (message.status, message.attempts) == (MessageStatus.QUEUED, 1)
        service.answer = 410
        assert outbox_send(message_id=message.id)
        assert not PushSubscription.objects.filter(id=subscription.id).exists()


@pytest.mark.parametrize(
    "data",
    [
        "{}",
        "[]",
        "not json",
        json.dumps({"endpoint": "ftp://x/", "keys": {"p256dh": "a", "auth": "b"}}),
        json.dumps(
            {"endpoint": "https://push.example/" + "x" * 600, "keys": {"p256dh": "a", "auth": "b"}}
        ),
        json.dumps({"endpoint": "https://push.example/1", "keys": {"p256dh": "", "auth": "b"}}),
    ],
)
def test_a_bad_subscription_is_refused_in_words(client: Client, data: str) -> None:
    event = open_event(capacity=4)
    registrant = sign_up(event, pair("A", "a@x.org", "B", "b@x.org")).registrants.get(position=1)
    answer = client.post(
        f"/e/{event.id}/me/{registrant.secret}/push/", data, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == "This is not a browser's push subscription."
    assert not PushSubscription.objects.exists()


def test_push_is_off_without_keys(client: Client) -> None:
    event = open_event(capacity=4)
    registrant = sign_up(event, pair("A", "a@x.org", "B", "b@x.org")).registrants.get(position=1)
    page = client.get(f"/e/{event.id}/me/{registrant.secret}/")
    assert page.context["push_key"] == ""
    assert b"data-push-key" not in page.content


def test_the_pages_button_sends_the_readers_own_token(vapid: bytes) -> None:
    """The page's script takes the token from the button's box, not from some form that a
    pair's state may leave off the page (the language switch carries none)."""
    import re

    event = open_event(capacity=4)
    registrant = sign_up(event, pair("A", "a@x.org", "B", "b@x.org")).registrants.get(position=1)
    client = Client(enforce_csrf_checks=True)
    page = client.get(f"/e/{event.id}/me/{registrant.secret}/").content.decode()
    found = re.search(r'data-push-key="[^"]+"[^>]*data-csrf-token="([^"]+)"', page)
    assert found is not None
    url = f"/e/{event.id}/me/{registrant.secret}/push/"
    body = json.dumps({"endpoint": "https://push.example/1", "keys": Browser().keys()})
    refused = client.post(url, body, content_type="application/json")
    assert refused.status_code == 403  # the check is on: the token is what lets it through
    subscribed = client.post(
        url, body, content_type="application/json", headers={"X-CSRFToken": found[1]}
    )
    assert subscribed.status_code == 201
    assert PushSubscription.objects.filter(registrant=registrant).exists()
