"""How a refusal (a KaiserError) is answered: one place per transport.

- As JSON (the API's exception handler and the table page's endpoints): the general sentence
  under "detail", its code, a field's messages under the field's name, and any extra data.
- On a page: the field's messages under that field of the form, the general sentence above the
  form, or, when the page has no form, as a message on the next page.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest

from .errors import KaiserError


def error_json(exc: KaiserError, *, message: str | None = None) -> dict[str, Any]:
    """The JSON body of a refusal (``message`` replaces the sentence, say in the reader's
    language); the HTTP status is ``exc.status``. Every JSON door answers a refusal with it:
    the API's exception handler, and outside DRF ``kaiser_club.json_errors.error_response``."""
    body: dict[str, Any] = {"detail": exc.message if message is None else message}
    body["code"] = exc.code
    body.update(exc.field_errors)
    body.update(exc.extra)
    return body


def show_error(
    request: HttpRequest, exc: KaiserError, *, form: forms.BaseForm | None = None
) -> None:
    """A refusal on a page. With a form: each field's messages under that field, and the
    general sentence above the form when no field of the form took one (the page shows the
    form again). Without a form: the sentence as an error message on the next page."""
    placed = False
    if form is not None:
        for field, field_messages in exc.field_errors.items():
            if field in form.fields:
                for text in field_messages:
                    form.add_error(field, text)
                placed = True
        if not placed:
            form.add_error(None, exc.message)
        return
    messages.error(request, exc.message)
