"""How a page view runs a service and turns its refusal into the page's answer: the service is
called inside ``with refusal_shown(request, form=form) as refused:``; a refusal (a
KaiserError) is shown as ``kaiser_club.error_answers.show_error`` shows it (under the form's
fields, or as a message on the next page), and the view, reading ``refused``, answers as it
does for a refusal (the form again, or a redirect). ``refusal_kept`` only catches it, for a
view that shows it its own way.

    with refusal_shown(request, form=form) as refused:
        done = services.member_add(...)
    if refused:
        return render(..., status=refused.status)
    messages.success(...)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django import forms
from django.http import HttpRequest

from .error_answers import show_error
from .errors import KaiserError


class Refusal:
    """What the block was refused with: false while nothing was refused."""

    error: KaiserError | None = None

    def __bool__(self) -> bool:
        return self.error is not None

    @property
    def message(self) -> str:
        """The refusal's sentence in the active language ("" when nothing was refused)."""
        return self.error.message if self.error is not None else ""

    @property
    def status(self) -> int:
        """The refusal's HTTP status, for the page shown again (200 when nothing was refused)."""
        return self.error.status if self.error is not None else 200


@contextmanager
def refusal_kept(*, passes: tuple[type[KaiserError], ...] = ()) -> Iterator[Refusal]:
    """A refusal raised in the block, kept in the ``Refusal`` it yields rather than raised;
    those of ``passes`` are raised on (refusals the view answers otherwise)."""
    refusal = Refusal()
    try:
        yield refusal
    except passes:
        raise
    except KaiserError as exc:
        refusal.error = exc


@contextmanager
def refusal_shown(
    request: HttpRequest,
    *,
    form: forms.BaseForm | None = None,
    passes: tuple[type[KaiserError], ...] = (),
) -> Iterator[Refusal]:
    """As ``refusal_kept``, the refusal also shown: with ``form``, under its fields (or above
    it); without, as an error message on the next page."""
    with refusal_kept(passes=passes) as refusal:
        yield refusal
    if refusal.error is not None:
        show_error(request, refusal.error, form=form)
