"""The session engine (``SESSION_ENGINE``): sessions live in the database, as Django's ``db``
engine keeps them (same table, same encoding: a session made by either is read by the other).

Every signed-in request reads its session, so on PostgreSQL the read is one statement written
once rather than a query compiled by the ORM on every request (the compiler cost ~0.4 ms a
request here, more than the query); when this process has seen the session before, the same
statement reads its user's row (kaiser_club/signed_in.py): one round trip for both. Writes are
the database engine's own.

Sessions are not kept in the cache, Redis or not: with the user's row read in the session's
statement, a signed-in request costs one statement either way, and a cache look-up before it
only added a round trip (bench/floor.py), and a way for an ended session to outlive its row.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone

from . import signed_in

_READ = "SELECT session_data, expire_date FROM {table} WHERE session_key = %s AND expire_date > %s"
_READ_WITH_USER = (
    "SELECT s.session_data, s.expire_date, {columns} FROM {table} s "
    "LEFT JOIN {users} u ON u.{pk} = %s WHERE s.session_key = %s AND s.expire_date > %s"
)


class SessionStore(db.SessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        # (user id, row) when the session's statement read its user too (kaiser_club/signed_in.py)
        self.owner_row: tuple[Any, tuple[Any, ...]] | None = None

    def _get_session_from_db(self) -> Any:
        key = self.session_key
        if key is None:
            return None
        model = self.model
        connection = connections[router.db_for_read(model)]
        if connection.vendor != "postgresql":  # the others' dates need the ORM's converters
            return super()._get_session_from_db()  # type: ignore[misc]
        table = connection.ops.quote_name(model._meta.db_table)
        user_id = signed_in.owner(key)
        with connection.cursor() as cursor:
            if user_id is None:
                cursor.execute(_READ.format(table=table), [key, timezone.now()])
            else:  # whose it was last time: that user's row comes in the same round trip
                users = get_user_model()
                cursor.execute(
                    _READ_WITH_USER.format(
                        table=table,
                        columns=signed_in.user_columns(connection, "u"),
                        users=connection.ops.quote_name(users._meta.db_table),
                        pk=connection.ops.quote_name(str(users._meta.pk.column)),
                    ),
                    [user_id, key, timezone.now()],
                )
            row = cursor.fetchone()
        if row is None:
            self._session_key = None
            return None
        if user_id is not None:
            self.owner_row = (user_id, row[2:])
        return model(session_key=key, session_data=row[0], expire_date=row[1])
