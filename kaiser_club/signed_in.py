"""The user of a signed-in request, read with one statement.

``AuthenticationMiddleware`` is Django's, with ``request.user`` found by ``get_user`` below:
the steps of ``django.contrib.auth.get_user`` (the session's user and backend, the session's
hash checked against the user's password, then the fallback secrets, the session ended when
none matches), but for a session signed in by ModelBackend on PostgreSQL the user's row is
read with one statement written once, rather than a query compiled by the ORM on every request
(the compiler cost ~0.4 ms a request here, more than the query), or by the session's own
statement when this process has seen the session before. Any other backend or database:
the backend reads its user itself, as Django does.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import (  # type: ignore[attr-defined]
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    _get_user_session_key,
    get_user_model,
    load_backend,
)
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoMiddleware
from django.contrib.auth.models import AnonymousUser
from django.db import connections, router
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
_model_backend = ModelBackend()


# Whose each session is, as this process last found it. A session key names one user for its
# whole life (login() gives the session a new key, whoever signs in), so the session's own
# statement can read that user's row too (kaiser_club/sessions.py): one round trip for both.
# A wrong guess costs a second statement, never a wrong user: the row is used only for the user
# the session names.
_owners: dict[str, Any] = {}
OWNERS_KEPT = 10_000  # then forgotten all at once: each costs one more statement, once


def owner(session_key: str) -> Any:
    return _owners.get(session_key)


def _remember_owner(session_key: str | None, user_id: Any) -> None:
    if session_key is None or _owners.get(session_key) == user_id:
        return
    if len(_owners) >= OWNERS_KEPT:
        _owners.clear()
    _owners[session_key] = user_id


def user_columns(connection: Any, alias: str) -> str:
    """The user's columns, qualified with ``alias``, as ``_user_from_row`` reads them."""
    return ", ".join(
        f"{alias}.{connection.ops.quote_name(str(f.column))}"
        for f in get_user_model()._meta.concrete_fields
    )


def _user_from_row(row: tuple[Any, ...] | None) -> Any:
    """The user of a row ``user_columns`` read (None for no row, or all NULL: no such user),
    if ModelBackend lets them in."""
    if row is None or row[0] is None:
        return None
    model = get_user_model()
    fields = [f.attname for f in model._meta.concrete_fields]
    user = model.from_db(router.db_for_read(model), fields, row)
    return user if _model_backend.user_can_authenticate(user) else None


def _read_user(user_id: Any) -> Any:
    """The user with this primary key, or None: ``ModelBackend.get_user`` in one statement."""
    model = get_user_model()
    connection = connections[router.db_for_read(model)]
    if connection.vendor != "postgresql":
        return _model_backend.get_user(user_id)
    sql = "SELECT {} FROM {} u WHERE u.{} = %s".format(
        user_columns(connection, "u"),
        connection.ops.quote_name(model._meta.db_table),
        connection.ops.quote_name(str(model._meta.pk.column)),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [model._meta.pk.get_db_prep_value(user_id, connection)])
        return _user_from_row(cursor.fetchone())


def _session_user(request: HttpRequest, user_id: Any) -> Any:
    """The user the session's own statement read, if it read this one; else one statement."""
    read = getattr(request.session, "owner_row", None)
    if read is not None and read[0] == user_id:
        return _user_from_row(read[1])
    return _read_user(user_id)


def get_user(request: HttpRequest) -> Any:
    """``django.contrib.auth.get_user`` with the user read by ``_session_user`` (see above)."""
    user: Any = None
    try:
        user_id = _get_user_session_key(request)
        backend_path = request.session[BACKEND_SESSION_KEY]
    except KeyError:
        pass
    else:
        if backend_path in settings.AUTHENTICATION_BACKENDS:
            if backend_path == MODEL_BACKEND:
                user = _session_user(request, user_id)
            else:
                user = load_backend(backend_path).get_user(user_id)
            if hasattr(user, "get_session_auth_hash"):
                session_hash = request.session.get(HASH_SESSION_KEY)
                if not session_hash:
                    verified = False
                else:
                    current = user.get_session_auth_hash()
                    verified = constant_time_compare(session_hash, current)
                if not verified:
                    if session_hash and any(
                        constant_time_compare(session_hash, fallback)
                        for fallback in user.get_session_auth_fallback_hash()
                    ):
                        request.session.cycle_key()
                        request.session[HASH_SESSION_KEY] = current
                    else:
                        request.session.flush()
                        user = None
                if user is not None and verified and backend_path == MODEL_BACKEND:
                    _remember_owner(request.session.session_key, user.pk)
    return user or AnonymousUser()


def _cached_user(request: HttpRequest) -> Any:
    if not hasattr(request, "_cached_user"):
        request._cached_user = get_user(request)  # type: ignore[attr-defined]
    return request._cached_user  # type: ignore[attr-defined]


class AuthenticationMiddleware(DjangoMiddleware):
    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _cached_user(request))  # type: ignore[assignment]
