"""Typed text as the app stores it (``kaiser_club.text``); no database."""

from __future__ import annotations

import pytest

from kaiser_club.text import REASON_LENGTH, clean_reason, clean_text


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  wrong\x00 bid ", "wrong bid"),
        ("r" * 5000, "r" * 300),
        # The cut falls just after a space: the space goes, as clean_text would drop it.
        ("r" * 299 + " bid", "r" * 299),
        ("r" * 299 + "\u202e bid", "r" * 299),
    ],
)
def test_a_reason_is_cleaned_and_cut_to_its_column(typed: str, stored: str) -> None:
    reason = clean_reason(typed)
    assert reason == stored
    assert len(reason) <= REASON_LENGTH
    assert clean_text(reason) == reason
