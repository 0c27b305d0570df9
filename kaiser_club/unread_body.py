"""A refusal sent before the body it refuses is read reaches the client whole.

The app answers an over-long body (413, ``request_limits``) from its headers alone, as it
should: it reads none of it. But a socket closed with unread bytes waiting makes the kernel
send a reset, and a reset can reach the proxy (Caddy) before it has read the answer; it then
gives the client a 502 instead of the sentence. So after such an answer the connection is
half-closed (the answer and its end are sent), and what the client goes on sending is read and
thrown away for a short while before the server closes the socket: the "lingering close" web
servers do. Memory stays flat (one small buffer) and the time is bounded.

It needs the server's socket, which gunicorn hands the app as ``environ["gunicorn.socket"]``;
under another server nothing changes.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterable
from typing import Any

from .after_response import AfterResponse

LINGER_SECONDS = 2.0
CHUNK = 65536

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def drain(sock: socket.socket, *, seconds: float = LINGER_SECONDS) -> int:
    """Half-closes ``sock`` and reads what the peer still sends until it stops, closes, or
    ``seconds`` pass. Returns the bytes thrown away."""
    thrown = 0
    deadline = time.monotonic() + seconds
    try:
        sock.shutdown(socket.SHUT_WR)
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            data = sock.recv(CHUNK)
            if not data:
                break
            thrown += len(data)
    except OSError:  # a time-out, or the peer went away: either way, done
        pass
    return thrown


def linger_after_unread_body(app: WSGIApp) -> WSGIApp:
    """``app`` whose 413 answers drain the unread body before the connection is closed."""

    def wrapped(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        said: list[str] = []

        def remember(status: str, headers: Any, exc_info: Any = None) -> Any:
            said.append(status)
            return start_response(status, headers, exc_info)

        response = app(environ, remember)
        sock = environ.get("gunicorn.socket")
        if said and said[-1].startswith("413") and isinstance(sock, socket.socket):
            return AfterResponse(response, lambda: drain(sock))
        return response

    return wrapped
