"""The API's exception handler: a refusal of the KaiserError family answered with its status
and ``kaiser_club.error_answers.error_json`` (the sentence under "detail", its code, a field's
messages under its name as DRF's own validation errors). DRF's own refusals keep DRF's body,
given a ``code`` beside their "detail" when they have none; a validation error keeps DRF's
shape (each field's messages under its name), and so does a refusal of the sign-in, whose
body clients read exactly as DRF writes it."""

from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from kaiser_club.error_answers import error_json
from kaiser_club.errors import KaiserError, NotAllowed, NotFound

SIGN_IN_REFUSALS = (exceptions.NotAuthenticated, exceptions.AuthenticationFailed)


def kaiser_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, KaiserError):
        return Response(error_json(exc), status=exc.status)
    response = exception_handler(exc, context)
    if response is None or isinstance(exc, SIGN_IN_REFUSALS):
        return response
    code = refusal_code(exc)
    data = response.data
    if code and isinstance(data, dict) and set(data) == {"detail"}:
        data["code"] = code
    return response


def refusal_code(exc: Exception) -> str | None:
    """The code of a refusal DRF answers itself: the project's code for a 403 and a 404 (the
    same as its own refusals say), else DRF's own code for it (``method_not_allowed``, …)."""
    if isinstance(exc, (exceptions.PermissionDenied, DjangoPermissionDenied)):
        return NotAllowed.code
    if isinstance(exc, (exceptions.NotFound, Http404)):
        return NotFound.code
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        return codes if isinstance(codes, str) else None
    return None
