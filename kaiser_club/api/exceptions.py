"""The API's exception handler: a refusal of the KaiserError family answered with its status
and ``kaiser_club.error_answers.error_json`` (the sentence under "detail", its code, a field's
messages under its name as DRF's own validation errors), DRF's own errors as DRF makes them."""

from typing import Any

from rest_framework.response import Response
from rest_framework.views import exception_handler

from kaiser_club.error_answers import error_json
from kaiser_club.errors import KaiserError


def kaiser_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, KaiserError):
        return Response(error_json(exc), status=exc.status)
    return exception_handler(exc, context)
