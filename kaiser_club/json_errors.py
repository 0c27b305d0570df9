"""A refusal answered as JSON outside DRF (the table page's endpoints): the body the API's
exception handler gives (``kaiser_club.error_answers.error_json``), with the refusal's status."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse

from .error_answers import error_json
from .errors import KaiserError
from .sentences import N_


class MethodNotAllowed(KaiserError):
    status = 405
    code = "method_not_allowed"


def error_response(exc: KaiserError, *, message: str | None = None) -> JsonResponse:
    """The refusal as JSON (``message``: the sentence said otherwise, in the reader's words)."""
    return JsonResponse(error_json(exc, message=message), status=exc.status)


def json_methods(
    *methods: str,
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A JSON endpoint's methods: any other is refused as JSON, 405 with ``Allow``."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in methods:
                refused = MethodNotAllowed(
                    N_(
                        "This address answers %(methods)s requests only.",
                        methods=", ".join(methods),
                    )
                )
                response = error_response(refused)
                response["Allow"] = ", ".join(methods)
                return response
            return view(request, *args, **kwargs)

        # Read by the guards of tests/test_cross_club.py; functools.wraps carries it outward.
        checked.allowed_methods = frozenset(m.lower() for m in methods)  # type: ignore[attr-defined]
        return checked

    return decorate
