"""What a shared HTTP cache (nginx's micro-cache in front, a CDN) may keep, said in one place.

A public page, and its live part, are the same for every reader of one language who is not
signed in (``shared_reader``): they are answered ``public`` with a short ``s-maxage`` and
``stale-while-revalidate``, so a cache in front carries a hall of phones and asks the app
again at most once per ``SHARED_SECONDS`` per page (a browser revalidates every poll:
``max-age=0``). Such a page is rendered with ``shared_page`` in its context: nothing of the
reader in it (no CSRF token: the language switch needs none, ``language_switch.py``; no
messages, no signed-in menu; the session is not read, so no ``Vary: Cookie``). Everything
else is the reader's own at least in part (a signed-in page, a table's page, a sign-up's page)
and is answered ``private``: ``SharedCacheGuardMiddleware`` makes sure no answer that sets a
cookie leaves ``public``, nor one in a language chosen by a cookie (a cache keyed on the
address and ``Accept-Language`` would give it to readers of another language). A cache in
front must pass a request carrying the session cookie to the app unkept (a signed-in reader's
menu): deploy/nginx-micro-cache.conf does.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import patch_cache_control, patch_vary_headers

SHARED_SECONDS = 2  # how long a shared cache serves a part without asking the app
# How much longer it may serve it while it asks (one request refreshes it, the others are
# answered at once): a part is at most SHARED_SECONDS + STALE_SECONDS old when served.
STALE_SECONDS = 2


def chooses_language_by_cookie(request: HttpRequest) -> bool:
    return settings.LANGUAGE_COOKIE_NAME in request.COOKIES


def shareable(response: HttpResponseBase) -> HttpResponseBase:
    """An answer any reader asking in the same language would get: a shared cache may keep it
    for ``SHARED_SECONDS`` (and serve it ``STALE_SECONDS`` more while it asks again)."""
    patch_cache_control(
        response,
        public=True,
        max_age=0,
        s_maxage=SHARED_SECONDS,
        stale_while_revalidate=STALE_SECONDS,
    )
    patch_vary_headers(response, ["Accept-Language"])
    return response


def personal(response: HttpResponseBase) -> HttpResponseBase:
    """An answer for this reader only: a browser revalidates it, a shared cache never keeps it."""
    patch_cache_control(response, no_cache=True, private=True)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


def _words(response: HttpResponseBase) -> set[str]:
    value = response.get("Cache-Control", "")
    return {word.strip().split("=")[0].lower() for word in value.split(",") if word.strip()}


def signed_in(request: HttpRequest) -> bool:
    return settings.SESSION_COOKIE_NAME in request.COOKIES


def shared_reader(request: HttpRequest) -> bool:
    """A read by someone with nothing of their own a page could show: no session (not
    signed in, no message waiting there) and no message waiting in a cookie."""
    return (
        request.method in ("GET", "HEAD")
        and not signed_in(request)
        and "messages" not in request.COOKIES
    )


def shared_if_no_reader(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """A public page: shared when its reader is nobody in particular, else theirs only."""
    return shareable(response) if shared_reader(request) else personal(response)


class SharedCacheGuardMiddleware:
    """The last word on ``Cache-Control`` before an answer leaves the app.

    An answer that sets a cookie is never ``public``, nor one whose language a cookie chose;
    one that says nothing about caching is ``private`` (``no-store`` for a signed-in reader
    or a cookie set). Listed before the stored public pages and the session and CSRF
    middleware, so it sees the cookies they set and the answers they give."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        own = bool(response.cookies) or signed_in(request)
        words = _words(response)
        if "public" in words and bool(response.cookies):
            del response["Cache-Control"]
            response["Cache-Control"] = "private, no-store"
        elif "public" in words and chooses_language_by_cookie(request):
            del response["Cache-Control"]
            personal(response)
        elif not words:
            response["Cache-Control"] = "private, no-store" if own else "private, no-cache"
        return response
