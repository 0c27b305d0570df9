"""A database that is briefly away (restarting, failing over, out of connections) is answered
with 503 and a sentence, not a 500: a tablet retries a 503 with the same hand id, and the
hand is recorded once when the database is back. ``/healthz`` is answered before any other
middleware looks at the request."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext, gettext_noop

logger = logging.getLogger(__name__)

UNAVAILABLE_MESSAGE = gettext_noop("The database is restarting; try again in a moment.")
RETRY_AFTER_SECONDS = 2


class DatabaseUnavailableMiddleware:
    """Maps django.db.OperationalError and InterfaceError raised by a view to HTTP 503 with a
    Retry-After header. Listed last in MIDDLEWARE so the answer still passes every other
    middleware's response hooks (security headers, CSP)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.warning(
            "Database unavailable for %s %s: %s", request.method, request.path, exception
        )
        response = JsonResponse(
            {"detail": gettext(UNAVAILABLE_MESSAGE), "code": "database_unavailable"}, status=503
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


HEALTH_PATH = "/healthz"


def health_answer() -> JsonResponse:
    """200 when this process and the database answer; 503 with the database sentence and
    Retry-After when the database does not (any other error is a 500, as anywhere)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except (OperationalError, InterfaceError) as exc:
        logger.warning("Health check: the database does not answer: %s", exc)
        response = JsonResponse(
            {"detail": UNAVAILABLE_MESSAGE, "code": "database_unavailable"}, status=503
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return JsonResponse({"ok": True})


class HealthCheckMiddleware:
    """Answers ``GET /healthz`` first of all, whatever the Host header and the scheme.

    The health checks ask the process itself: compose's ``curl http://127.0.0.1:8000/healthz``
    inside the container, the proxy's checks at the container's address. Neither is a public
    host name nor HTTPS, so behind the other middleware they met DisallowedHost (400) or the
    redirect to HTTPS (301) and never reached the database. The answer says nothing but
    whether the process and the database answer, so it needs neither."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == HEALTH_PATH and request.method in ("GET", "HEAD"):
            response = health_answer()  # the view's own answer, whichever door
            response["Cache-Control"] = "no-store"
            return response
        return self.get_response(request)
