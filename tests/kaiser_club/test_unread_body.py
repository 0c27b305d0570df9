"""The lingering close after a 413: the answer goes out, the unread body is read and thrown
away (bounded in time), and other answers are left alone."""

from __future__ import annotations

import contextlib
import socket
import threading
from typing import Any

from kaiser_club.unread_body import drain, linger_after_unread_body


def _app(status: str) -> Any:
    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response(status, [("Content-Type", "text/plain")])
        return [b"answer"]

    return app


def _send(sock: socket.socket, total: int) -> None:
    with contextlib.suppress(OSError):
        sock.sendall(b"\0" * total)
    sock.close()


def test_drain_reads_what_the_peer_still_sends_until_it_closes():
    server, client = socket.socketpair()
    sender = threading.Thread(target=_send, args=(client, 3 * 1024 * 1024))
    sender.start()
    assert drain(server, seconds=10) == 3 * 1024 * 1024
    sender.join()
    server.close()


def test_drain_stops_at_its_time_limit_when_the_peer_sends_nothing_more():
    server, client = socket.socketpair()
    client.sendall(b"x" * 100)
    assert drain(server, seconds=0.2) == 100  # then the time-out, not a hang
    assert client.recv(10) == b""  # the server's side is half-closed: the peer sees the end
    server.close()
    client.close()


def test_a_413_drains_after_the_server_has_written_it():
    server, client = socket.socketpair()
    client.sendall(b"y" * 5000)
    client.shutdown(socket.SHUT_WR)
    started: list[str] = []
    app = linger_after_unread_body(_app("413 Request Entity Too Large"))
    response = app(
        {"gunicorn.socket": server}, lambda status, headers, exc=None: started.append(status)
    )
    assert list(response) == [b"answer"] and started == ["413 Request Entity Too Large"]
    response.close()  # type: ignore[attr-defined]  # what the server calls once it has written
    assert client.recv(10) == b""  # half-closed after the drain
    assert server.recv(10) == b""  # the 5,000 bytes were read and thrown away
    server.close()
    client.close()


def test_other_answers_and_other_servers_are_left_alone():
    server, client = socket.socketpair()
    answer = _app("200 OK")
    wrapped = linger_after_unread_body(answer)
    plain = wrapped({"gunicorn.socket": server}, lambda *args: None)
    assert isinstance(plain, list)  # not wrapped: nothing drained
    no_socket = linger_after_unread_body(_app("413 Request Entity Too Large"))({}, lambda *a: None)
    assert isinstance(no_socket, list)
    server.close()
    client.close()
