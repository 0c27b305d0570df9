"""A request body sent chunked (``Transfer-Encoding: chunked``, no ``Content-Length``) is read,
within the server's limit, and handed to Django with its length.

Django reads a request's body by its ``CONTENT_LENGTH`` only; without one it reads nothing.
Gunicorn takes a chunked body, gives the application the body itself in ``wsgi.input`` (the
chunks joined, their framing gone), no ``CONTENT_LENGTH``, and ``wsgi.input_terminated``: the
WSGI extension saying the stream ends where the body does, so reading it to its end is safe.
Caddy passes a chunked body on as it came. So ``PATCH /api/events/3/`` with a chunked JSON body
was read as an empty one: 200, and nothing changed.

This wraps Django's WSGI application (``kaiser_club/wsgi.py``), with nothing but WSGI (PEP 3333
and that extension): such a body is read up to ``MAX_REQUEST_BYTES`` (the largest body the app
takes at all, an exported event), in memory up to ``DATA_UPLOAD_MAX_MEMORY_SIZE`` and in a
temporary file beyond, then passed on as a plain body: ``wsgi.input`` the bytes read,
``CONTENT_LENGTH`` their number, no ``Transfer-Encoding``. Django and DRF read it as they read
any body, with their own limits, and every upload its own smaller one.

What is not read is said, by ``RequestLimitsMiddleware`` (``kaiser_club/request_limits.py``),
in the reader's language:

- a body longer than the limit: reading stops one byte past it and the request is marked
  (``OVER_LIMIT``); the answer is 413, and the rest is never read (``kaiser_club.unread_body``
  drains it after the answer);
- a chunked body under a server that does not say its stream ends (``runserver``, Python's
  ``wsgiref``: reading on could wait for ever): left unread, and answered 411 with a sentence
  saying to send a ``Content-Length``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterable
from typing import IO, Any

from django.conf import settings

from .after_response import AfterResponse

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

# Set in the environ of a chunked body longer than the limit (its length is not known).
OVER_LIMIT = "kaiser_club.chunked_body_over_limit"
CHUNK = 65536
DEFAULT_LIMIT = 2_621_440  # Django's DATA_UPLOAD_MAX_MEMORY_SIZE, should both be None


def is_chunked(environ: dict[str, Any]) -> bool:
    """Whether the request's body is framed by chunks (its length known only at its end)."""
    codings = str(environ.get("HTTP_TRANSFER_ENCODING", "")).lower()
    return "chunked" in (part.strip() for part in codings.split(","))


def body_limit() -> int:
    """The most a chunked body may carry: what any request may (``MAX_REQUEST_BYTES``)."""
    for name in ("MAX_REQUEST_BYTES", "DATA_UPLOAD_MAX_MEMORY_SIZE"):
        value = getattr(settings, name, None)
        if value is not None:
            return int(value)
    return DEFAULT_LIMIT


def memory_limit() -> int:
    value = getattr(settings, "DATA_UPLOAD_MAX_MEMORY_SIZE", None)
    return DEFAULT_LIMIT if value is None else int(value)


def read_within(stream: IO[bytes], limit: int) -> tuple[IO[bytes], int, bool]:
    """The stream's bytes up to ``limit`` (a spooled file at its start), their number, and
    whether there was more (one byte past the limit is read to know; nothing further)."""
    kept: IO[bytes] = tempfile.SpooledTemporaryFile(max_size=memory_limit())  # noqa: SIM115
    total = 0
    while total <= limit:
        data = stream.read(min(CHUNK, limit + 1 - total))
        if not data:
            break
        kept.write(data)
        total += len(data)
    kept.seek(0)
    return kept, min(total, limit), total > limit


def read_chunked_bodies(app: WSGIApp) -> WSGIApp:
    """``app`` to which a chunked request body comes with its length (see the module)."""

    def wrapped(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if not (is_chunked(environ) and environ.get("wsgi.input_terminated")):
            return app(environ, start_response)
        body, length, over = read_within(environ["wsgi.input"], body_limit())
        if over:
            body.close()
            environ[OVER_LIMIT] = True
            environ["CONTENT_LENGTH"] = "0"  # none of it is read on (answered 413)
            return app(environ, start_response)
        environ["wsgi.input"] = body
        environ["CONTENT_LENGTH"] = str(length)
        del environ["HTTP_TRANSFER_ENCODING"]  # now a plain body, as a de-chunking proxy makes it
        return AfterResponse(app(environ, start_response), body.close)

    return wrapped
