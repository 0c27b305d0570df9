"""Names as the app stores them: one line, single spaces, no control characters and no
bidirectional formatting marks (U+202E turns the rest of a line around on every page that
shows it: a name could pass for another, or hide a word). Those characters are dropped, not
refused, since a name pasted from a spreadsheet or a phone carries them by accident."""

from __future__ import annotations

import unicodedata

from .errors import InvalidInput
from .sentences import Sentence

# Embedding, override and isolate marks, and the left-to-right / right-to-left marks.
BIDI_FORMATTING = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


def _kept(char: str) -> bool:
    if char in BIDI_FORMATTING:
        return False
    category = unicodedata.category(char)
    return not (category == "Cc" or category in ("Zl", "Zp"))


def clean_text(text: str) -> str:
    """``text`` on one line without control or bidi formatting characters, spaces folded."""
    text = unicodedata.normalize("NFC", text)
    kept = "".join(char if _kept(char) else " " for char in text)
    return " ".join(kept.split())


def clean_within(text: str, limit: int, *, too_long: Sentence, field: str = "name") -> str:
    """``text`` cleaned, refused with a sentence when the cleaned text is longer than its column
    (``limit``): the standard form (NFC) writes a few characters as two, such as U+0958, so
    a text within the limit as typed can pass it once cleaned. ``too_long`` says so, with the
    parameters ``limit`` and ``length``."""
    cleaned = clean_text(text)
    if len(cleaned) > limit:
        message = too_long.with_params(limit=limit, length=len(cleaned))
        raise InvalidInput(message, field_errors={field: [message]})
    return cleaned


REASON_LENGTH = 300  # every reason column of the app


def clean_reason(text: str) -> str:
    """A reason as every reason column stores it: cleaned, and cut to the column (a reason is a
    note for the record, cut rather than refused). A cut that falls just after a space drops
    it, so the stored reason is still as ``clean_text`` leaves it."""
    return clean_text(text)[:REASON_LENGTH].rstrip(" ")
