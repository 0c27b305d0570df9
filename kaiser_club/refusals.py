"""Refusals said the same way wherever they are decided: one function per sentence, so every
door (the API, the pages, the table) gives the same words and the same code."""

from __future__ import annotations

from .errors import NotAllowed
from .models import Club
from .sentences import N_


def role_refused(club: Club) -> NotAllowed:
    """The actor's role in ``club`` is too low for what they asked: 403, code ``not_allowed``
    (the code the API documents for it). Raise what it returns."""
    return NotAllowed(N_("Your role in %(club)s does not allow this.", club=club.name))
