"""Django's PostgreSQL backend, checking a kept connection's health without a round trip.

With ``CONN_HEALTH_CHECKS`` Django runs ``SELECT 1`` before the first query of every request
that uses the database, so a connection a restarted PostgreSQL has cut costs a reconnection
rather than an error. A server that ends a connection (a restart, an administrator, an idle
timeout) says so on its socket (a FATAL message, then end of file), and an idle connection
otherwise receives nothing: so the socket is looked at first (a poll that does not wait), and
``SELECT 1`` is run only when something has arrived. A connection psycopg already knows to be
closed or broken is unusable as before.

Public ground only: Django's documented way to change a backend (subclass the built-in one,
name the package in ``ENGINE``), the backend's ``is_usable`` that Django's health check calls,
and psycopg's documented ``Connection.closed``, ``.broken`` and ``.fileno()``. Statements are
handled by psycopg as it handles them by default.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base


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
