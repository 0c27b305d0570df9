"""Refusals said the same way wherever they are decided: one function per sentence, so every
door (the API, the pages, the table) gives the same words and the same code."""

from __future__ import annotations

from .errors import NotAllowed
from .models import Club
from .roles import Role
from .sentences import N_


def role_refused(club: Club) -> NotAllowed:
    """The actor's role in ``club`` is too low for what they asked: 403, code ``not_allowed``
    (the code the API documents for it). Raise what it returns."""
    return NotAllowed(N_("Your role in %(club)s does not allow this.", club=club.name))


def role_needed(club: Club, role: Role) -> NotAllowed:
    """As ``role_refused``, naming the role the action needs (a club's own pages and API, whose
    reader is a member and may ask for that role)."""
    return NotAllowed(
        N_("This needs the %(role)s role in %(club)s.", role=role.label, club=club.name)
    )
