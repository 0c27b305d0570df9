"""How big an exported event may be to import, checked before the import service (and its one
transaction) starts, so that a file too big is refused with a sentence and no transaction is
held, no worker swells and no row is written.

The limits hold the largest event the app runs (500 teams, 50 rounds, 300 tables) with room to
spare; at the limits an import takes under 20 s on the CI machine, inside the 30 s a request
should take. A file of 5,000 players held one transaction for 34 s before these limits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kaiser_club.sentences import N_, grouped

from .import_ import ImportRefused

MAX_FILE_BYTES = 20 * 1024 * 1024
# Rows of each list of the document (``event_export`` writes these lists).
MAX_ROWS = {
    "clubs": 50,
    "players": 1_000,
    "teams": 500,
    "entries": 500,
    "rounds": 50,
    "tables": 300,
    "games": 2_000,
    "pairings": 2_500,
    "substitutions": 500,
    "registrations": 1_000,  # every entry's sign-up, and as many waiting, pending or refused
}
MAX_HANDS = 25_000  # every game's hands together


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


def check_file_size(size: int | None) -> None:
    """Refuses an uploaded file bigger than any export of an event (``size`` in bytes)."""
    if size is not None and size > MAX_FILE_BYTES:
        raise ImportRefused(
            N_(
                "The file has %(size)s; an exported event may have at most %(most)s. Check that it "
                "is an event exported from Kaiser Club.",
                size=_mib(size),
                most=_mib(MAX_FILE_BYTES),
            )
        )


def check_document_size(data: Any) -> None:
    """Refuses a document listing more rows than an event can have, before anything is read
    into the database. A document of another shape is left to the import to refuse."""
    if not isinstance(data, Mapping):
        return
    for name, limit in MAX_ROWS.items():
        rows = data.get(name)
        if isinstance(rows, list) and len(rows) > limit:
            raise ImportRefused(
                N_(
                    "The file lists %(count)s %(name)s; an event imports at most %(limit)s.",
                    count=grouped(len(rows)),
                    name=name,
                    limit=grouped(limit),
                )
            )
    games = data.get("games")
    if isinstance(games, list):
        hands = sum(
            len(game["hands"])
            for game in games
            if isinstance(game, Mapping) and isinstance(game.get("hands"), list)
        )
        if hands > MAX_HANDS:
            raise ImportRefused(
                N_(
                    "The file holds %(hands)s hands; an event imports at most %(most)s.",
                    hands=grouped(hands),
                    most=grouped(MAX_HANDS),
                )
            )
