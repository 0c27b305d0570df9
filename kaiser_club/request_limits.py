"""Limits on what a request may carry, checked before any view runs (so before any role is
looked up, and before any transaction): a body longer than ``settings.MAX_REQUEST_BYTES``
(the largest upload, an exported event, with room for the form around it) is refused from its
Content-Length, unread; a JSON body nested deeper than any request of the app needs is refused
with a sentence instead of exhausting the parser (a RecursionError is a 500).

A body sent chunked (no Content-Length) comes here with its length when the server says where it
ends (gunicorn): ``kaiser_club/chunked.py`` reads it, within the same limit, before Django does.
Beyond the limit it is refused with 413 here; under a server that cannot say where it ends it is
refused with 411 and a sentence, never read as an empty body (which answered 200 and changed
nothing). Each upload has its own smaller limit, said where it is read
(``tournaments/transfer/limits.py``, the CSV imports)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import get_language, gettext

from .chunked import OVER_LIMIT, body_limit, is_chunked
from .errors import InvalidInput

# The largest id, hand number or version a request may name: a database integer. A larger one
# is refused by the input (a query with it would overflow the column: a 500).
LARGEST_ID = 2**31 - 1
# An id in an API address: ASCII digits, no more than LARGEST_ID has. "abc", "٣" (an Arabic
# digit, which int() reads as 3) or 5,000 digits (beyond what int() reads: a ValueError, a 500)
# name no row: the router answers 404 before a view sees them.
ID_IN_PATH = f"[0-9]{{1,{len(str(LARGEST_ID))}}}"


def whole_number_text(text: str, largest: int = LARGEST_ID) -> int | None:
    """The whole number ``text`` writes in ASCII digits (spaces around allowed), from 0 to
    ``largest``; None for anything else. ``str.isdigit`` also takes "²" (which ``int`` then
    refuses: a 500) and "١٢" (which ``int`` reads as 12): a number typed into a form, a CSV or
    a table's request is read only in the digits 0-9 its page shows."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 19:
        return None
    value = int(text)
    return value if value <= largest else None


MAX_JSON_DEPTH = 32  # an event export, the deepest document the app reads, nests 6 levels
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def too_deep_text() -> str:
    return gettext(
        "The data sent is nested more than %(depth)s levels deep, which no request of this app "
        "needs: send it in the shape the API documentation shows."
    ) % {"depth": MAX_JSON_DEPTH}


def not_text_text() -> str:
    return gettext(
        "The data sent holds text that is not valid Unicode (a lone surrogate such as \\ud800), "
        "which cannot be stored: send the text as UTF-8."
    )


def too_big_number_text() -> str:
    return gettext(
        "The data sent holds a number too large to be read (such as 1e999): send numbers as "
        "the API documentation shows."
    )


def nesting_depth_exceeds(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether parsed JSON nests lists and objects more than ``limit`` deep (no recursion)."""
    return _first_fault(value, limit, texts=False) == "too_deep"


def unreadable_value(value: Any) -> str | None:
    """What parsed JSON holds that no column takes, in one walk: "not_text" (a key or string
    with a lone surrogate), else "not_number" (a number too large for a float: ``json`` reads
    1e999 as infinity, which no integer or id can take, and a query on it fails with
    OverflowError), else None."""
    return _first_fault(value, 2**31, texts=True, numbers=True)


def _is_storable(text: str) -> bool:
    """No lone surrogate (JSON's "\\ud800" escape makes one): no database stores it."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _first_fault(
    value: Any, limit: int, *, texts: bool = True, numbers: bool = False
) -> str | None:
    """ "too_deep", "not_text" (when ``texts``), "not_number" (when ``numbers``: a number
    that is not finite, said only when neither of the others is found) or None, walking
    parsed JSON without recursion."""
    number_fault: str | None = None
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: list[Any] = list(item.values())
            if texts and not all(_is_storable(key) for key in item):
                return "not_text"
        elif isinstance(item, list):
            children = item
        elif isinstance(item, str):
            if texts and not _is_storable(item):
                return "not_text"
            continue
        else:
            if numbers and isinstance(item, float) and not math.isfinite(item):
                number_fault = "not_number"
            continue
        if depth > limit:
            return "too_deep"
        stack.extend((child, depth + 1) for child in children)
    return number_fault


def loads_bounded(text: str | bytes, *, texts: bool = True) -> Any:
    """``json.loads`` that refuses a document nested too deep or (when ``texts``) holding a
    lone surrogate (InvalidInput); a document that is not JSON raises ValueError as
    ``json.loads`` does."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise InvalidInput(too_deep_text(), code="too_deep") from None
    fault = _first_fault(value, MAX_JSON_DEPTH, texts=texts)
    if fault == "too_deep":
        raise InvalidInput(too_deep_text(), code="too_deep")
    if fault == "not_text":
        raise InvalidInput(not_text_text(), code="not_text")
    return value


def too_large_text(length: int, limit: int) -> str:
    return gettext(
        "The request carries %(size)s MiB; this server takes at most %(limit)s MiB in one "
        "request. An exported event or a CSV file is far smaller: check the file chosen."
    ) % {"size": f"{length / 1048576:.1f}", "limit": f"{limit / 1048576:.1f}"}


def too_large_unmeasured_text(limit: int) -> str:
    return gettext(
        "The request carries more than %(limit)s MiB; this server takes at most %(limit)s MiB "
        "in one request. An exported event or a CSV file is far smaller: check the file chosen."
    ) % {"limit": f"{limit / 1048576:.1f}"}


def length_required_text() -> str:
    return gettext(
        "This request's body was sent in chunks (Transfer-Encoding: chunked) with no "
        "Content-Length, and this server cannot read it so: send it again with a "
        "Content-Length header, as any HTTP client does when it is given the whole body."
    )


def unread_body(request: HttpRequest, text: str, *, status: int, code: str) -> HttpResponse:
    """A refusal of a body left unread: JSON for the API and scripts, a short page for a
    browser's form; the connection is closed (the rest of the body is not read)."""
    accept = request.headers.get("Accept", "")
    if (
        request.path.startswith("/api/")
        or "json" in (request.content_type or "")
        or ("json" in accept and "html" not in accept)
    ):
        response: HttpResponse = JsonResponse({"detail": text, "code": code}, status=status)
    else:
        response = HttpResponse(
            f'<!doctype html><html lang="{get_language() or "en"}"><meta charset="utf-8">'
            f"<title>{status}</title>"
            f"<p>{escape(text)}</p></html>",
            status=status,
        )
    response["Connection"] = "close"
    return response


def too_large(request: HttpRequest, length: int | None, limit: int) -> HttpResponse:
    """413 with the sentence (``length`` None: a chunked body, read no further than the
    limit)."""
    text = too_large_unmeasured_text(limit) if length is None else too_large_text(length, limit)
    return unread_body(request, text, status=413, code="too_large")


def declared_length(request: HttpRequest) -> int | None:
    """The Content-Length, 0 when there is none, None when it is not a number in ASCII digits
    (Django would raise ValueError reading the body: a 500; gunicorn refuses it itself)."""
    raw = request.META.get("CONTENT_LENGTH") or "0"
    return whole_number_text(raw, 2**62)


def bad_length_text() -> str:
    return gettext("The request's Content-Length header is not a number of bytes.")


class RequestLimitsMiddleware:
    """Refuses a body longer than MAX_REQUEST_BYTES, and a JSON body that is too deep, before
    the view (and its role check) runs. A body that is not JSON, or too large to read as one,
    is left to the view, which says so in its own words."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = getattr(settings, "MAX_REQUEST_BYTES", None)
        if request.META.get(OVER_LIMIT):  # chunked, and longer than kaiser_club.chunked reads
            return too_large(request, None, body_limit())
        if is_chunked(request.META) and "wsgi.input" in request.META:
            # Left chunked under WSGI: the server did not say where the body ends, so it was
            # not read, and Django would read it as empty (a write going through without it).
            # (Under ASGI Django reads the whole body itself.)
            return unread_body(request, length_required_text(), status=411, code="length_required")
        length = declared_length(request)
        if length is None:
            return JsonResponse({"detail": bad_length_text(), "code": "bad_length"}, status=400)
        if limit is not None and length > limit:
            return too_large(request, length, limit)
        if request.method in WRITE_METHODS and "json" in (request.content_type or ""):
            refusal = self._refusal(request)
            if refusal is not None:
                return refusal
        return self.get_response(request)

    def _refusal(self, request: HttpRequest) -> HttpResponse | None:
        try:
            body = request.body
        except RequestDataTooBig:
            return None  # the view says how to send a large document (the event import does)
        try:
            loads_bounded(body or b"null", texts=False)  # text: the parser's (the import's)
        except InvalidInput as exc:
            return JsonResponse({"detail": exc.message, "code": exc.code}, status=400)
        except ValueError:
            return None
        return None
