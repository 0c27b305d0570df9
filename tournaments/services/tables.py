"""Tables and their codes. A code lets a tablet reach the game now at that table (the tablet
pages live elsewhere; they find the table with ``selectors.table_for_code``).

Adding a table, revoking and renewing its code are an organiser's: each takes the actor and
refuses anyone else before it writes anything. ``tables_ensure`` is the step the draw takes
(generation and brackets make the tables a round needs, once they have decided to draw it)."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone

from kaiser_club.actors import Actor
from kaiser_club.errors import Conflict, InvalidInput
from kaiser_club.sentences import N_

from ..models import Event, Table
from .locks import lock_event
from .organisers import require_organiser

# Crockford's base 32: no I, L, O or U, so a code read aloud or typed is hard to get wrong.
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
CODE_LENGTH = 20  # 100 random bits
CODE_GROUP = 5


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalise_code(text: str) -> str:
    """What a person typed, as stored: capitals, no dashes or spaces, O read as 0, I/L as 1."""
    cleaned = "".join(ch for ch in text.upper() if ch.isalnum())
    return cleaned.translate(str.maketrans("OIL", "011"))


def display_code(code: str) -> str:
    """A code in groups of five for reading and typing: ABCDE-FGHJK-…"""
    return "-".join(code[i : i + CODE_GROUP] for i in range(0, len(code), CODE_GROUP))


def table_path(code: str) -> str:
    """Where a table's QR code points; the tablet pages serve it."""
    return f"/t/{code}/"


def tables_ensure(*, event: Event, count: int) -> dict[int, Table]:
    """Tables 1 … count of the event, creating the missing ones with fresh codes.

    Safe side by side: the insert skips a number another writer has just made (the database's
    table_number_once decides, waiting for that writer's commit), and the tables are then read
    back, so both writers get the one table of each number, with its one code."""
    existing = {t.number: t for t in Table.objects.filter(event=event, number__lte=count)}
    for _attempt in range(3):  # a code already taken (100 random bits) is drawn again
        missing = [n for n in range(1, count + 1) if n not in existing]
        if not missing:
            return existing
        now = timezone.now()
        Table.objects.bulk_create(
            [Table(event=event, number=n, code=new_code(), code_issued_at=now) for n in missing],
            ignore_conflicts=True,
        )
        existing = {t.number: t for t in Table.objects.filter(event=event, number__lte=count)}
    raise Conflict(N_("The event's tables could not be made just now; try again."))


@transaction.atomic
def table_revoke(*, actor: Actor, table: Table) -> Table:
    """The table's code stops working at once; renew it to give the table a new one."""
    require_organiser(actor, table.event)
    table = Table.objects.select_for_update().get(id=table.id)
    table.code = None
    table.save(update_fields=["code"])
    return table


@transaction.atomic
def table_renew(*, actor: Actor, table: Table) -> Table:
    """A new code for the table; the old one no longer opens anything."""
    require_organiser(actor, table.event)
    table = Table.objects.select_for_update().get(id=table.id)
    table.code = new_code()
    table.code_issued_at = timezone.now()
    table.save(update_fields=["code", "code_issued_at"])
    return table


@transaction.atomic
def table_add(*, actor: Actor, event: Event) -> Table:
    """One more table at the end of the event's numbering (two asked for at once are two
    tables: the event's lock lets the second see the first)."""
    require_organiser(actor, event)
    lock_event(event.id)
    last = Table.objects.filter(event=event).order_by("-number").first()
    number = (last.number if last else 0) + 1
    if number > 999:
        raise InvalidInput(N_("An event has at most 999 tables."))
    return tables_ensure(event=event, count=number)[number]
