"""Who may open and write a table: a device holding the table's code, or a club member.

A code grants the device that opened ``/t/<code>/`` a signed cookie scoped to the table's own
path (``/table/<id>/``), so the browser sends it nowhere else and another table's pages refuse
it. The cookie holds a digest of the code it was issued for: revoking or renewing the code ends
every grant at once. Signed-in members need no code: at a club night a scorekeeper of the club
may open any of its tables, at a tournament an organiser of the club.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django_ratelimit.core import get_usage, is_ratelimited

from kaiser_club.selectors import has_role
from tournaments.game_gate import writer_role
from tournaments.models import Table
from tournaments.selectors import table_for_code

__all__ = ["Access", "access_for", "issue_grant", "table_for_code"]

GRANT_SALT = "kaiser.table.grant"
GRANT_MAX_AGE = 60 * 60 * 48  # a tournament day and its evening, with room to spare
RATE_GROUP = "table-code"


@dataclass(frozen=True)
class Access:
    """How a request reached a table: by its code (a tablet) or as a club member."""

    by_code: bool
    by_role: bool

    @property
    def allowed(self) -> bool:
        return self.by_code or self.by_role


def code_lookups_blocked(request: HttpRequest) -> bool:
    """As many unknown codes from this address lately as the rate allows (guessing): refuse
    every code for a while."""
    try:
        usage = get_usage(request, group=RATE_GROUP, key="ip", rate=settings.TABLE_CODE_RATE)
    except Exception:  # the cache (Redis) is down: fail open, tablets must still get in
        return False
    return usage is not None and usage["count"] >= usage["limit"]


def count_failed_lookup(request: HttpRequest) -> None:
    """Only wrong codes count, so fifty tablets of one hall behind one address all get in."""
    try:
        is_ratelimited(
            request, group=RATE_GROUP, key="ip", rate=settings.TABLE_CODE_RATE, increment=True
        )
    except Exception:  # the cache is down: fail open
        return


def cookie_name(table_id: int) -> str:
    return f"kaiser_table_{table_id}"


def table_path(table_id: int) -> str:
    return reverse("table:page", args=[table_id])


def _grant_value(table: Table) -> str:
    digest = hashlib.sha256((table.code or "").encode()).hexdigest()[:24]
    return f"{table.id}:{digest}"


def issue_grant(response: HttpResponse, request: HttpRequest, table: Table) -> None:
    response.set_signed_cookie(
        cookie_name(table.id),
        _grant_value(table),
        salt=GRANT_SALT,
        max_age=GRANT_MAX_AGE,
        path=table_path(table.id),
        secure=request.is_secure(),
        httponly=True,
        samesite="Lax",
    )


def has_grant(request: HttpRequest, table: Table) -> bool:
    if not table.code:
        return False  # revoked
    try:
        value = request.get_signed_cookie(
            cookie_name(table.id), salt=GRANT_SALT, max_age=GRANT_MAX_AGE
        )
    except (KeyError, signing.BadSignature):
        return False
    return value == _grant_value(table)


def member_may_open(user: Any, table: Table) -> bool:
    """A member who enters the event's hands without a code opens any of its tables
    (``tournaments.game_gate.writer_role``)."""
    event = table.event
    return has_role(user=user, club_id=event.club_id, at_least=writer_role(event))


def access_for(request: HttpRequest, table: Table) -> Access:
    return Access(by_code=has_grant(request, table), by_role=member_may_open(request.user, table))


def writer_label(request: HttpRequest, table: Table, access: Access) -> str:
    """Who wrote, for the game's history when no account did it."""
    if access.by_role and request.user.is_authenticated:
        return ""
    return f"Table {table.number} (tablet)"
