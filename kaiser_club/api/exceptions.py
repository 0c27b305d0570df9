"""Maps the KaiserError family to HTTP answers in one place, with the same JSON shape as DRF's
own validation errors: a field's messages under its name, the general message under "detail"."""

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler

from kaiser_club.errors import KaiserError


def kaiser_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, KaiserError):
        body: dict[str, Any] = {"detail": exc.message, "code": exc.code}
        body.update(exc.field_errors)
        body.update(exc.extra)
        return Response(body, status=exc.status)
    return exception_handler(exc, context)
