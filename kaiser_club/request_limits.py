"""Limits on what a request may carry, checked before any view runs (so before any role is
looked up): a JSON body nested deeper than any request of the app needs is refused with a
sentence instead of exhausting the parser (a RecursionError is a 500)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext

from .errors import InvalidInput

# The largest id, hand number or version a request may name: a database integer. A larger one
# is refused by the input (a query with it would overflow the column: a 500).
LARGEST_ID = 2**31 - 1

MAX_JSON_DEPTH = 32  # an event export, the deepest document the app reads, nests 6 levels
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def too_deep_text() -> str:
    return gettext(
        "The data sent is nested more than %(depth)s levels deep, which no request of this app "
        "needs: send it in the shape the API documentation shows."
    ) % {"depth": MAX_JSON_DEPTH}


def nesting_depth_exceeds(value: Any, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether parsed JSON nests lists and objects more than ``limit`` deep (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: list[Any] = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def loads_bounded(text: str | bytes) -> Any:
    """``json.loads`` that refuses a document nested too deep (InvalidInput); a document that
    is not JSON raises ValueError as ``json.loads`` does."""
    try:
        value = json.loads(text)
    except RecursionError:
        raise InvalidInput(too_deep_text(), code="too_deep") from None
    if nesting_depth_exceeds(value):
        raise InvalidInput(too_deep_text(), code="too_deep")
    return value


class RequestLimitsMiddleware:
    """Refuses a JSON body that is too deep before the view (and its role check) runs. A body
    that is not JSON, or too large to read, is left to the view, which says so in its own
    words."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
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
            loads_bounded(body or b"null")
        except InvalidInput as exc:
            return JsonResponse({"detail": exc.message, "code": exc.code}, status=400)
        except ValueError:
            return None
        return None
