"""Browser notifications through Web Push (RFC 8030), with VAPID keys from the environment
(``WEBPUSH_VAPID_PRIVATE_KEY``, ``WEBPUSH_VAPID_PUBLIC_KEY``, ``WEBPUSH_VAPID_SUBJECT``); off
when no keys are set. pywebpush encrypts the message for the browser (RFC 8291) and signs the
request with the server's key (RFC 8292)."""

from __future__ import annotations

import json

import requests
from django.conf import settings
from py_vapid import Vapid02
from pywebpush import WebPushException, webpush

from ..models import PushSubscription

PUSH_SECONDS = 10


class PushUnsent(Exception):
    """The push service could not take the message now: try again later."""


class PushGone(Exception):
    """The subscription has ended (the browser unsubscribed): never try it again."""


def push_public_key() -> str:
    """The public key a browser subscribes with; "" when push is off."""
    if not getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", ""):
        return ""
    return str(getattr(settings, "WEBPUSH_VAPID_PUBLIC_KEY", ""))


def push(subscription: PushSubscription, *, title: str, body: str, url: str) -> None:
    private_key = getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", "")
    if not private_key:
        raise PushGone("Web Push is off: no VAPID keys are set")
    try:
        # RFC 8292's "vapid t=…, k=…" header (pywebpush's own default is the older draft's)
        signer = Vapid02.from_string(private_key=private_key)
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps({"title": title, "body": body, "url": url}),
            vapid_private_key=signer,
            vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT},
            timeout=PUSH_SECONDS,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        if status in (404, 410):
            raise PushGone(str(exc)) from exc
        raise PushUnsent(str(exc)) from exc
    except requests.RequestException as exc:
        raise PushUnsent(str(exc)) from exc
    except ValueError as exc:  # WEBPUSH_VAPID_PRIVATE_KEY is not a key: the log says so
        raise PushUnsent(f"the VAPID private key cannot be read: {exc}") from exc
