"""One value of an event export, read as the column that stores it and the app's own ranges
allow, before anything is written. Each reader returns the value to store or raises
``ImportRefused`` with a sentence that names the file's row and quotes the value as the file
has it (as JSON, shortened): "Entry 3 (Aces): the seed 99999999999 is not a whole number from
1 to 9999."

- Numbers are whole where the column is (``true`` is not 1), within the column's range and
  the app's (``tournaments/limits.py``); a float is finite.
- Text is text, storable (no lone surrogate), within its column's length; names and other free
  text lose control and bidi formatting characters first (``kaiser_club.text.clean_text``).
- Choices are one of the column's; dates and times are ISO 8601 within ``YEARS``.

``column(Model, "field")`` makes the reader from the model's own field (length, choices,
range, whether it may be empty), so the check cannot drift from the column it protects.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.utils.dateparse import parse_date, parse_datetime

from kaiser_club.errors import InvalidInput
from kaiser_club.sentences import N_, Said
from kaiser_club.text import clean_text

# Dates and times an export may carry: wide enough for any club's history and future, narrow
# enough that a deadline computed from them (a time plus minutes and paused seconds) stays a
# date Python and the database can hold.
YEARS = (1900, 2999)
QUOTE_LENGTH = 40  # a value quoted in a sentence is cut to this many characters

# The range each integer column holds, whichever database stores it.
COLUMN_RANGES: dict[str, tuple[int, int]] = dict(BaseDatabaseOperations.integer_field_ranges)


class ImportRefused(InvalidInput):
    """The file cannot be imported; the message names the file's row and says why."""


def shown(raw: Any) -> str:
    """A value of the file as a sentence quotes it: JSON, ASCII only, at most QUOTE_LENGTH."""
    try:
        text = json.dumps(raw, ensure_ascii=True)
    except (TypeError, ValueError):
        text = repr(raw)
    return text if len(text) <= QUOTE_LENGTH else text[: QUOTE_LENGTH - 1] + "…"


def refuse(where: Said, why: Said) -> NoReturn:
    raise ImportRefused(N_("%(where)s: %(why)s", where=where, why=why))


def whole_number(raw: Any) -> bool:
    return isinstance(raw, int) and not isinstance(raw, bool)


def storable(text: str) -> bool:
    """Whether the text can be stored as it is: UTF-8 (no lone surrogate), no NUL."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Reader:
    """Reads one field of a row: ``read(raw, where)`` returns the value to store."""

    label: str

    def read(self, raw: Any, where: Said) -> Any:
        raise NotImplementedError


@dataclass(frozen=True)
class Whole(Reader):
    label: str
    low: int
    high: int
    null: bool = False

    def read(self, raw: Any, where: Said) -> int | None:
        if raw is None and self.null:
            return None
        if whole_number(raw) and self.low <= raw <= self.high:
            return int(raw)
        empty = N_(" (or empty)") if self.null else ""
        refuse(
            where,
            N_(
                "the %(label)s %(value)s is not a whole number from %(low)s to %(high)s%(empty)s.",
                label=self.label,
                value=shown(raw),
                low=self.low,
                high=self.high,
                empty=empty,
            ),
        )


@dataclass(frozen=True)
class Number(Reader):
    label: str
    low: float
    high: float
    null: bool = False

    def read(self, raw: Any, where: Said) -> float | None:
        if raw is None and self.null:
            return None
        if (
            isinstance(raw, int | float)
            and not isinstance(raw, bool)
            and math.isfinite(raw)
            and self.low <= raw <= self.high
        ):
            return float(raw)
        empty = N_(" (or empty)") if self.null else ""
        refuse(
            where,
            N_(
                "the %(label)s %(value)s is not a number from %(low)s to %(high)s%(empty)s.",
                label=self.label,
                value=shown(raw),
                low=f"{self.low:g}",
                high=f"{self.high:g}",
                empty=empty,
            ),
        )


@dataclass(frozen=True)
class Flag(Reader):
    label: str

    def read(self, raw: Any, where: Said) -> bool:
        if isinstance(raw, bool):
            return raw
        refuse(
            where,
            N_(
                "the %(label)s %(value)s is not true or false.",
                label=self.label,
                value=shown(raw),
            ),
        )


@dataclass(frozen=True)
class Text(Reader):
    """Free text: cleaned (one line, no control or bidi formatting characters), then within
    the column's length; empty is refused when the column needs a value."""

    label: str
    max_length: int
    required: bool = False
    clean: bool = True

    def read(self, raw: Any, where: Said) -> str:
        if raw is None and not self.required:
            return ""
        if not isinstance(raw, str):
            refuse(
                where,
                N_(
                    "the %(label)s %(value)s is not text.",
                    label=self.label,
                    value=shown(raw),
                ),
            )
        value = clean_text(raw) if self.clean else raw
        if not storable(value):
            refuse(
                where,
                N_(
                    "the %(label)s %(value)s has characters that cannot be stored.",
                    label=self.label,
                    value=shown(raw),
                ),
            )
        if self.required and not value:
            refuse(where, N_("the %(label)s is empty.", label=self.label))
        if len(value) > self.max_length:
            refuse(
                where,
                N_(
                    "the %(label)s %(value)s is longer than %(max_length)s characters.",
                    label=self.label,
                    value=shown(value),
                    max_length=self.max_length,
                ),
            )
        return value


@dataclass(frozen=True)
class Choice(Reader):
    """One of a closed set of text values; empty (or null) only when ``blank``."""

    label: str
    values: tuple[str, ...]
    blank: bool = False

    def read(self, raw: Any, where: Said) -> str:
        if self.blank and raw in (None, ""):
            return ""
        if isinstance(raw, str) and raw in self.values:
            return raw
        empty = N_(" (or empty)") if self.blank else ""
        refuse(
            where,
            N_(
                "the %(label)s %(value)s is not one of: %(choices)s%(empty)s.",
                label=self.label,
                value=shown(raw),
                choices=", ".join(self.values),
                empty=empty,
            ),
        )


SEAT_NAMES = N_("0 (north), 1 (east), 2 (south), 3 (west)")


@dataclass(frozen=True)
class SeatNumber(Reader):
    label: str
    null: bool = False

    def read(self, raw: Any, where: Said) -> int | None:
        if raw is None and self.null:
            return None
        if whole_number(raw) and 0 <= raw <= 3:
            return int(raw)
        empty = N_(", or empty") if self.null else ""
        refuse(
            where,
            N_(
                "the %(label)s %(value)s is not a seat: %(seats)s%(empty)s.",
                label=self.label,
                value=shown(raw),
                seats=SEAT_NAMES,
                empty=empty,
            ),
        )


@dataclass(frozen=True)
class Day(Reader):
    label: str
    null: bool = False

    def read(self, raw: Any, where: Said) -> dt.date | None:
        if raw is None and self.null:
            return None
        parsed = None
        if isinstance(raw, str):
            try:
                parsed = parse_date(raw)
            except ValueError:
                parsed = None
        if parsed is not None and YEARS[0] <= parsed.year <= YEARS[1]:
            return parsed
        refuse(
            where,
            N_(
                "the %(label)s %(value)s is not a date (YYYY-MM-DD) from %(first)s to %(last)s.",
                label=self.label,
                value=shown(raw),
                first=YEARS[0],
                last=YEARS[1],
            ),
        )


@dataclass(frozen=True)
class Moment(Reader):
    """A time, ISO 8601; one without an offset is taken as UTC."""

    label: str
    null: bool = True

    def read(self, raw: Any, where: Said) -> dt.datetime | None:
        if raw is None and self.null:
            return None
        parsed = None
        if isinstance(raw, str):
            try:
                parsed = parse_datetime(raw)
                if parsed is not None:
                    if parsed.tzinfo is None:
                        parsed = parsed.replace(tzinfo=dt.UTC)
                    parsed = parsed.astimezone(dt.UTC)
            except (ValueError, OverflowError):
                parsed = None
        if parsed is not None and YEARS[0] <= parsed.year <= YEARS[1]:
            return parsed
        refuse(
            where,
            N_(
                "the %(label)s %(value)s is not a time (ISO 8601, as 2026-11-28T19:30:00+00:00) "
                "from %(first)s to %(last)s.",
                label=self.label,
                value=shown(raw),
                first=YEARS[0],
                last=YEARS[1],
            ),
        )


@dataclass(frozen=True)
class Uuid(Reader):
    label: str

    def read(self, raw: Any, where: Said) -> uuid.UUID:
        if isinstance(raw, str):
            try:
                return uuid.UUID(raw)
            except ValueError:
                pass
        refuse(
            where,
            N_("the %(label)s %(value)s is not a UUID.", label=self.label, value=shown(raw)),
        )


SLUG = re.compile(r"[-a-zA-Z0-9_]+\Z")


@dataclass(frozen=True)
class Slug(Reader):
    label: str
    max_length: int

    def read(self, raw: Any, where: Said) -> str:
        if isinstance(raw, str) and SLUG.match(raw) and len(raw) <= self.max_length:
            return raw
        refuse(
            where,
            N_(
                "the %(label)s %(value)s is not a slug (letters, digits, - and _, at most "
                "%(max_length)s).",
                label=self.label,
                value=shown(raw),
                max_length=self.max_length,
            ),
        )


CODE = re.compile(r"[A-Za-z0-9-]*\Z")


@dataclass(frozen=True)
class Code(Reader):
    """A bracket match's code (W2-1, L3-2, GF, GF2, 3P): ASCII letters, digits and hyphens."""

    label: str
    max_length: int

    def read(self, raw: Any, where: Said) -> str:
        if raw is None:
            return ""
        if isinstance(raw, str) and CODE.match(raw) and len(raw) <= self.max_length:
            return raw
        refuse(
            where,
            N_(
                "the %(label)s %(value)s is not a match code (letters, digits and -, at most "
                "%(max_length)s).",
                label=self.label,
                value=shown(raw),
                max_length=self.max_length,
            ),
        )


@dataclass(frozen=True)
class Email(Reader):
    label: str
    max_length: int

    def read(self, raw: Any, where: Said) -> str:
        if raw is None or raw == "":
            return ""
        if isinstance(raw, str) and len(raw) <= self.max_length and storable(raw):
            try:
                validate_email(raw)
            except ValidationError:
                pass
            else:
                return raw
        refuse(
            where,
            N_(
                "the %(label)s %(value)s is not an email address.",
                label=self.label,
                value=shown(raw),
            ),
        )


@dataclass(frozen=True)
class Custom(Reader):
    """A reader made of a function, for the values only the app's rules describe."""

    label: str
    function: Callable[[Any, Said], Any]

    def read(self, raw: Any, where: Said) -> Any:
        return self.function(raw, where)


def column(
    model: type[models.Model],
    name: str,
    *,
    within: tuple[int, int] | tuple[float, float] | None = None,
    choices: Sequence[str] | None = None,
    label: str | None = None,
    clean: bool = True,
) -> Reader:
    """The reader of a model's field: its length, choices, range and whether it may be empty.

    ``within`` narrows a number to the app's range (which must fit the column's), ``choices``
    a text column to the app's closed set."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field), f"{model.__name__}.{name} is not a column"
    label = label or name.replace("_", " ")
    kind = field.get_internal_type()
    null = bool(getattr(field, "null", False))
    if isinstance(field, models.BooleanField):
        return Flag(label)
    if kind in COLUMN_RANGES:
        low, high = COLUMN_RANGES[kind]
        if field.choices and within is None:  # the only numbers with choices are seats
            assert [v for v, _ in field.choices] == [0, 1, 2, 3], f"{model.__name__}.{name}"
            return SeatNumber(label, null=null)
        if within is not None:
            assert low <= within[0] <= within[1] <= high, f"{model.__name__}.{name}: {within}"
            low, high = int(within[0]), int(within[1])
        return Whole(label, low, high, null=null)
    if isinstance(field, models.FloatField):
        assert within is not None, f"{model.__name__}.{name} needs the app's range"
        return Number(label, float(within[0]), float(within[1]), null=null)
    if isinstance(field, models.DateTimeField):
        return Moment(label, null=null)
    if isinstance(field, models.DateField):
        return Day(label, null=null)
    if isinstance(field, models.UUIDField):
        return Uuid(label)
    if isinstance(field, models.SlugField):
        return Slug(label, int(field.max_length or 50))
    if isinstance(field, models.EmailField):
        return Email(label, int(field.max_length or 254))
    if isinstance(field, models.CharField):
        values = choices if choices is not None else [str(v) for v, _ in field.choices or []]
        if values:
            assert all(len(v) <= int(field.max_length or 0) for v in values)
            return Choice(label, tuple(values), blank=field.blank)
        return Text(label, int(field.max_length or 0), required=not field.blank, clean=clean)
    raise AssertionError(f"{model.__name__}.{name}: no reader for {kind}")
