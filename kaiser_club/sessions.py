"""The session engine (``SESSION_ENGINE``): sessions live in the database, as Django's ``db``
engine keeps them (same table, same encoding: a session made by either is read by the other).

Every signed-in request reads its session, so on PostgreSQL the read is one statement written
once rather than a query compiled by the ORM on every request. It is Django's documented way
to change how sessions are kept: a subclass of the ``db`` engine overriding ``load()``, one of
the methods a session engine implements. A session that is not found (unknown, expired) is
left to Django's own ``load()``, which also drops its key so a new one is made if it is
written to: one more statement, for a stale cookie only. Writes are the database engine's own.
tests/kaiser_club/test_sessions.py holds the read equal to Django's engine's.

Sessions are not kept in the cache, Redis or not: a cache look-up before the statement only
added a round trip (bench/floor.py), and a way for an ended session to outlive its row.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

_READ = "SELECT session_data FROM {table} WHERE session_key = %s AND expire_date > %s"


class SessionStore(db.SessionStore):
    def load(self) -> dict[str, Any]:
        key = self.session_key
        if key is None:
            return {}
        model = self.model
        connection = connections[router.db_for_read(model)]
        if connection.vendor != "postgresql":  # the others' dates need the ORM's converters
            return super().load()
        table = connection.ops.quote_name(model._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(_READ.format(table=table), [key, timezone.now()])
            row = cursor.fetchone()
        if row is None:
            return super().load()  # not found: Django's own read, which forgets the key
        return self.decode(row[0])
