"""Reading what the table page sends: a JSON body, a hand entry, a seat, a team."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext

from kaiser_club.errors import InvalidInput
from kaiser_club.request_limits import LARGEST_ID, loads_bounded, whole_number_text
from scoring.api.serializers import HandEntrySerializer
from scoring.rules import HandEntry, Seat, Side


def body(request: HttpRequest) -> dict[str, Any]:
    try:
        data = loads_bounded(request.body or b"{}")
    except ValueError:
        raise InvalidInput(gettext("The page sent something unreadable.")) from None
    if not isinstance(data, dict):
        raise InvalidInput(gettext("The page sent something unreadable."))
    return data


def hand_entry(data: dict[str, Any]) -> HandEntry:
    """The ``entry`` of a request, checked for shape (the rules judge it afterwards)."""
    incoming = HandEntrySerializer(data=data.get("entry") or {})
    if not incoming.is_valid():
        fields = {name: [str(m) for m in messages] for name, messages in incoming.errors.items()}
        first = next(iter(fields.values()), [gettext("Check the entry.")])
        raise InvalidInput(" ".join(first), field_errors=fields)
    return incoming.to_entry()


def client_id(data: dict[str, Any]) -> uuid.UUID:
    try:
        return uuid.UUID(str(data.get("client_id")))
    except ValueError:
        raise InvalidInput(gettext("The page sent a hand without its id.")) from None


def whole_number(data: dict[str, Any], name: str) -> int:
    """A whole number the page sent (as a number or its digits), from 0 to LARGEST_ID: a
    float, an infinity or a number too large for a database column is refused, not a 500."""
    value = data.get(name)
    if isinstance(value, str):
        value = whole_number_text(value)  # ASCII digits only: "²" and "١٢" are not numbers
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= LARGEST_ID:
        return value
    raise InvalidInput(
        gettext("The page sent no %(name)s.") % {"name": name}, field_errors={name: []}
    )


def optional_number(data: dict[str, Any], name: str) -> int | None:
    return None if data.get(name) is None else whole_number(data, name)


def seat(data: dict[str, Any], name: str) -> Seat:
    value = whole_number(data, name)
    if value not in range(4):
        raise InvalidInput(gettext("Choose a seat: North, East, South or West."))
    return Seat(value)


def optional_seat(data: dict[str, Any], name: str) -> Seat | None:
    return None if data.get(name) is None else seat(data, name)


def team(data: dict[str, Any]) -> Side:
    value = data.get("team")
    if value not in ("ns", "ew"):
        raise InvalidInput(gettext("Choose a partnership: North–South or East–West."))
    return Side(value)
