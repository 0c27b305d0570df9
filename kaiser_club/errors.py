"""The one family of domain errors. Services raise them with a sentence a person can act on;
the API's exception handler maps them to HTTP statuses and HTML views show them as form errors.

The sentence is a ``kaiser_club.sentences.Sentence`` (an English template and its parameters,
``N_("...")``) and is rendered in the reader's language when it is read: ``message`` and
``field_errors`` give it in the language active where the refusal is shown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .sentences import Said, render


class KaiserError(Exception):
    status = 400
    code = "invalid"

    def __init__(
        self,
        message: Said,
        *,
        code: str | None = None,
        field_errors: Mapping[str, Sequence[Said]] | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.text = message
        if code:
            self.code = code
        self.said_by_field = {name: list(texts) for name, texts in (field_errors or {}).items()}
        self.extra: dict[str, Any] = dict(extra or {})

    @property
    def message(self) -> str:
        """The sentence in the active language."""
        return render(self.text)

    @property
    def field_errors(self) -> dict[str, list[str]]:
        """Each field's sentences in the active language."""
        return {name: [render(t) for t in texts] for name, texts in self.said_by_field.items()}

    def __str__(self) -> str:
        return self.message


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
