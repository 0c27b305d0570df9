"""A database that is briefly away (restarting, failing over, out of connections) is answered
with 503 and a sentence, not a 500: a tablet retries a 503 with the same hand id, and the
hand is recorded once when the database is back."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

UNAVAILABLE_MESSAGE = "The database is restarting; try again in a moment."
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
            {"detail": UNAVAILABLE_MESSAGE, "code": "database_unavailable"}, status=503
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
