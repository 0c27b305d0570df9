"""The one family of domain errors. Services raise them with a sentence a person can act on;
the API's exception handler maps them to HTTP statuses and HTML views show them as form errors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class KaiserError(Exception):
    status = 400
    code = "invalid"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        field_errors: Mapping[str, Sequence[str]] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
        self.field_errors = dict(field_errors or {})
        self.extra: dict[str, Any] = dict(extra or {})


class InvalidInput(KaiserError):
    """The request breaks a rule: HTTP 400."""


class Conflict(KaiserError):
    """The request was made against a state that has changed, or repeats an id with another
    body: HTTP 409."""

    status = 409
    code = "conflict"


class NotAllowed(KaiserError):
    status = 403
    code = "not_allowed"


class NotFound(KaiserError):
    status = 404
    code = "not_found"
