"""Django's PostgreSQL backend, checking a kept connection's health without a round trip.

With ``CONN_HEALTH_CHECKS`` Django runs ``SELECT 1`` before the first query of every request
that uses the database, so a connection a restarted PostgreSQL has cut costs a reconnection
rather than an error. A server that ends a connection (a restart, an administrator, an idle
timeout) says so on its socket (a FATAL message, then end of file), and an idle connection
otherwise receives nothing: so the socket is looked at first (a poll that does not wait), and
``SELECT 1`` is run only when something has arrived. A connection psycopg already knows to be
closed or broken is unusable as before.

It also lets psycopg keep the conversion of the project's longer statements. Before sending a
statement psycopg turns its ``%s`` placeholders into ``$1, $2, …`` (a regular expression over
the whole text), and keeps the result only for statements of at most 50 values and 4 KiB, so
as not to fill its cache with ORM-made bulk inserts of every length. The hand's write
(scoring/services/kept_write.py: the game, the hand and its history line, 58 values) was
converted afresh at every hand: ~0.24 ms, a sixth of the request's Python. The limits are
raised to what the project's own statements need; a bulk insert past them is still not kept.
tests/kaiser_club/test_db_engine.py holds the write within them, and fails if psycopg stops
reading these names.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import _queries

# The hand's write has 58 values and ~2.8 KiB of text; room for the models to grow.
CONVERSION_KEPT_UP_TO_VALUES = 120
CONVERSION_KEPT_UP_TO_BYTES = 8192


def keep_longer_conversions() -> None:
    """Raises psycopg's limits for keeping a statement's conversion (never lowers them)."""
    _queries.MAX_CACHED_STATEMENT_PARAMS = max(
        _queries.MAX_CACHED_STATEMENT_PARAMS, CONVERSION_KEPT_UP_TO_VALUES
    )
    _queries.MAX_CACHED_STATEMENT_LENGTH = max(
        _queries.MAX_CACHED_STATEMENT_LENGTH, CONVERSION_KEPT_UP_TO_BYTES
    )


keep_longer_conversions()


def _quiet(fileno: int) -> bool:
    """Nothing to read, no hang-up and no error on the socket, without waiting."""
    poller = select.poll()
    poller.register(fileno, select.POLLIN | select.POLLPRI | select.POLLERR | select.POLLHUP)
    return not poller.poll(0)


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.closed or connection.broken:
            return False
        try:
            quiet = _quiet(connection.fileno())
        except (OSError, ValueError):
            quiet = False
        return True if quiet else bool(super().is_usable())
