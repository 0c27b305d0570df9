"""The session engine (``SESSION_ENGINE``): sessions live in the database, as Django's ``db``
engine keeps them (same table, same encoding: a session made by either is read by the other).

Every signed-in request reads its session, so on PostgreSQL the read is one statement written
once rather than a query compiled by the ORM on every request (the compiler cost ~0.4 ms a
request here, more than the query); when this process has seen the session before, the same
statement reads its user's row (kaiser_club/signed_in.py): one round trip for both.

With ``SESSION_CACHE_SECONDS`` above 0 (set when Redis is configured) a session read is also
kept in the cache for that long, shared by every worker: a request then costs a cache look-up
instead of a query.

The database stays the truth: every write goes to it first, and a cache that fails (Redis
stopped or hung: each call gives up after a second) is passed over, never an error. A session
ended while the cache could not be told (a logout during an outage) is gone from the database
at once and from the cache within ``SESSION_CACHE_SECONDS``; a password change ends it at once
either way (the user is read from the database on every request and no longer matches the
session's hash).

Only the synchronous methods use the cache; the asynchronous ones (unused: the app is WSGI)
are the database engine's own.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends import db
from django.core.cache import caches
from django.db import connections, router
from django.utils import timezone

from . import signed_in

logger = logging.getLogger(__name__)

KEY_PREFIX = "kaiser:session:"
_READ = "SELECT session_data, expire_date FROM {table} WHERE session_key = %s AND expire_date > %s"
_READ_WITH_USER = (
    "SELECT s.session_data, s.expire_date, {columns} FROM {table} s "
    "LEFT JOIN {users} u ON u.{pk} = %s WHERE s.session_key = %s AND s.expire_date > %s"
)


class SessionStore(db.SessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache_seconds = int(getattr(settings, "SESSION_CACHE_SECONDS", 0))
        # (user id, row) when the session's statement read its user too (kaiser_club/signed_in.py)
        self.owner_row: tuple[Any, tuple[Any, ...]] | None = None

    # The database ---------------------------------------------------------------------------

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

    # The cache, when configured --------------------------------------------------------------

    def _cache_key(self, session_key: str) -> str:
        return KEY_PREFIX + session_key

    def _cached(self, session_key: str) -> tuple[bool, Any]:
        """(whether the cache answered, what it holds for the session or None)."""
        try:
            return True, caches[settings.SESSION_CACHE_ALIAS].get(self._cache_key(session_key))
        except Exception as exc:
            logger.warning("Sessions: the cache did not answer (%s); read the database", exc)
            return False, None

    def _remember(self, session_key: str, data: dict[str, Any], seconds: int) -> None:
        try:
            caches[settings.SESSION_CACHE_ALIAS].set(
                self._cache_key(session_key), data, min(seconds, self._cache_seconds)
            )
        except Exception as exc:
            logger.warning("Sessions: the cache did not answer (%s); not kept there", exc)

    def _forget(self, session_key: str) -> None:
        try:
            caches[settings.SESSION_CACHE_ALIAS].delete(self._cache_key(session_key))
        except Exception as exc:
            logger.warning(
                "Sessions: the cache did not answer (%s); the ended session may be read from it "
                "for up to %s s",
                exc,
                self._cache_seconds,
            )

    # The store's interface -------------------------------------------------------------------

    def load(self) -> dict[str, Any]:
        key = self.session_key
        answered, data = (False, None)
        if self._cache_seconds > 0 and key is not None:
            answered, data = self._cached(key)
            if data is not None:
                return data  # type: ignore[no-any-return]
        found = self._get_session_from_db()
        if found is None:
            return {}
        data = self.decode(found.session_data)
        if answered:  # a cache that just failed is not asked again in this request
            self._remember(found.session_key, data, self.get_expiry_age(expiry=found.expire_date))
        return data  # type: ignore[no-any-return]

    def save(self, must_create: bool = False) -> None:
        super().save(must_create)
        if self._cache_seconds > 0 and self.session_key is not None:
            self._remember(self.session_key, self._session, self.get_expiry_age())  # type: ignore[attr-defined]

    def delete(self, session_key: str | None = None) -> None:
        super().delete(session_key)
        key = session_key if session_key is not None else self.session_key
        if self._cache_seconds > 0 and key is not None:
            self._forget(key)
