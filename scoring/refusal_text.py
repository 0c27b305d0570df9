"""The rules engine's refusals in the reader's language.

The engine (``scoring.rules``, no Django) gives each refusal a template marked ``N_`` (its
code's entry in ``scoring.rules.MESSAGES``, with named ``%(placeholders)s``) and parameters,
the names among them as ``Term``s. ``kaiser_club.sentences.render`` puts both into the active
language (the request's, under ``LocaleMiddleware``): it is what ``HandNotAccepted`` sends to
the API and the table page.
"""

from __future__ import annotations

from collections.abc import Mapping

from kaiser_club.sentences import render

from .rules import Refusal
from .rules.terms import Term


def refusal_message(refusal: Refusal) -> str:
    """The refusal's sentence in the active language (English: the engine's own text)."""
    return render(refusal)


def plain_params(refusal: Refusal) -> Mapping[str, object]:
    """The refusal's parameters as JSON gives them: a name in English, as the engine says it."""
    return {
        name: str(value) if isinstance(value, Term) else value
        for name, value in refusal.params.items()
    }
