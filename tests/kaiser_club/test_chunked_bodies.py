"""A body sent chunked (no Content-Length) is read, or refused with a sentence; never read as an
empty body (``PATCH /api/events/3/`` answered 200 and changed nothing).

Under gunicorn the body comes as gunicorn gives it, de-chunked in ``wsgi.input`` with no
``CONTENT_LENGTH`` and ``wsgi.input_terminated``: ``kaiser_club/chunked.py`` reads it within the
limit (413 past it). Where the server cannot say where the body ends (Django's test client
here, ``runserver``), ``RequestLimitsMiddleware`` answers 411 with a sentence. The last test
sends a chunked PATCH to gunicorn itself over a socket, as a client does.
"""

from __future__ import annotations

import base64
import http.client
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client

from kaiser_club.chunked import read_chunked_bodies, read_within
from kaiser_club.roles import Role
from kaiser_club.wsgi import application
from tests.factories import member
from tests.tournaments.helpers import make_event
from tournaments.models import Event

PASSWORD = "pw-for-tests"  # tests.factories.UserFactory's
LENGTH_REQUIRED = (
    "This request's body was sent in chunks (Transfer-Encoding: chunked) with no "
    "Content-Length, and this server cannot read it so: send it again with a Content-Length "
    "header, as any HTTP client does when it is given the whole body."
)


@pytest.fixture
def event(db: None) -> Event:
    return make_event(teams=4)


@pytest.fixture
def organiser(event: Event) -> Any:
    return member(event.club, Role.ORGANISER)


# --- Through Django's test client: a chunked request the server did not read -------------------


def test_a_chunked_body_left_unread_is_refused_with_411_and_a_sentence(
    event: Event, organiser: Any
) -> None:
    client = Client()
    client.force_login(organiser)
    answer = client.patch(
        f"/api/events/{event.id}/",
        json.dumps({"venue": "Legion 45"}),
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert answer.status_code == 411
    assert answer.json() == {"detail": LENGTH_REQUIRED, "code": "length_required"}
    assert answer["Connection"] == "close"
    event.refresh_from_db()
    assert event.venue != "Legion 45"


def test_the_411_is_said_in_the_readers_language_and_as_a_page_to_a_form(
    event: Event, organiser: Any
) -> None:
    client = Client()
    client.force_login(organiser)
    french = client.patch(
        f"/api/events/{event.id}/",
        "{}",
        content_type="application/json",
        HTTP_TRANSFER_ENCODING="chunked",
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert french.status_code == 411
    assert french.json()["detail"].startswith("Le corps de cette requête a été envoyé par morceaux")
    form = client.post(
        f"/events/{event.id}/settings/",
        "name=Renamed",
        content_type="application/x-www-form-urlencoded",
        HTTP_TRANSFER_ENCODING="chunked",
    )
    assert form.status_code == 411 and form["Content-Type"].startswith("text/html")
    assert "send it again with a Content-Length header" in form.content.decode()


# --- The WSGI application as gunicorn calls it ------------------------------------------------


class Counted(io.BytesIO):
    """A request's stream that counts what is read of it."""

    taken = 0

    def read(self, size: int | None = -1) -> bytes:
        data = super().read(size)
        self.taken += len(data)
        return data


@pytest.fixture
def wsgi() -> Iterator[Any]:
    """Calls the project's WSGI application (kaiser_club/wsgi.py) in this thread, keeping the
    test's database connection open across its request signals (as Django's test client
    does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)

    def call(environ: dict[str, Any]) -> tuple[str, dict[str, str], bytes]:
        said: list[Any] = []
        response = application(environ, lambda status, headers, *a: said.append((status, headers)))
        try:
            body = b"".join(response)
        finally:
            getattr(response, "close", lambda: None)()
        status, headers = said[-1]
        return status, dict(headers), body

    try:
        yield call
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def chunked_environ(
    path: str, body: bytes, user: Any, *, terminated: bool = True
) -> tuple[dict[str, Any], Counted]:
    """A chunked PATCH as gunicorn hands it to the application: the body de-chunked in
    ``wsgi.input``, no CONTENT_LENGTH, the Transfer-Encoding header, the stream terminated."""
    stream = Counted(body)
    credentials = base64.b64encode(f"{user.username}:{PASSWORD}".encode()).decode()
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "PATCH",
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "CONTENT_TYPE": "application/json",
        "HTTP_HOST": "127.0.0.1",
        "HTTP_TRANSFER_ENCODING": "chunked",
        "HTTP_AUTHORIZATION": f"Basic {credentials}",
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": "http",
        "wsgi.input": stream,
        "wsgi.errors": io.StringIO(),
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
    }
    if terminated:
        environ["wsgi.input_terminated"] = True
    return environ, stream


def test_a_chunked_patch_is_read_and_changes_the_event(
    event: Event, organiser: Any, wsgi: Any
) -> None:
    body = json.dumps({"venue": "Legion 45", "name": "Fall Open (renamed)"}).encode()
    environ, stream = chunked_environ(f"/api/events/{event.id}/", body, organiser)
    status, _headers, answer = wsgi(environ)
    assert status.startswith("200"), answer[:300]
    assert json.loads(answer)["venue"] == "Legion 45"
    event.refresh_from_db()
    assert (event.venue, event.name) == ("Legion 45", "Fall Open (renamed)")
    assert stream.taken == len(body)


def test_a_chunked_body_over_the_limit_is_refused_with_413_unread_past_it(
    event: Event, organiser: Any, wsgi: Any, settings: Any
) -> None:
    settings.MAX_REQUEST_BYTES = 1024 * 1024
    venue = event.venue
    body = json.dumps({"venue": "x" * (1024 * 1024 + 50_000)}).encode()
    environ, stream = chunked_environ(f"/api/events/{event.id}/", body, organiser)
    status, headers, answer = wsgi(environ)
    assert status.startswith("413")
    assert json.loads(answer) == {
        "detail": "The request carries more than 1.0 MiB; this server takes at most 1.0 MiB in "
        "one request. An exported event or a CSV file is far smaller: check the file chosen.",
        "code": "too_large",
    }
    assert headers["Connection"] == "close"
    assert stream.taken == settings.MAX_REQUEST_BYTES + 1  # one byte past the limit, no more
    event.refresh_from_db()
    assert event.venue == venue


def test_a_chunked_body_under_a_server_that_does_not_end_it_is_refused_with_411_unread(
    event: Event, organiser: Any, wsgi: Any
) -> None:
    body = json.dumps({"venue": "Legion 45"}).encode()
    environ, stream = chunked_environ(f"/api/events/{event.id}/", body, organiser, terminated=False)
    status, _headers, answer = wsgi(environ)
    assert status.startswith("411")
    assert json.loads(answer)["code"] == "length_required"
    assert stream.taken == 0  # reading on could have waited for ever
    event.refresh_from_db()
    assert event.venue != "Legion 45"


def test_a_plain_body_and_a_body_of_no_framing_are_left_as_they_are() -> None:
    seen: list[dict[str, Any]] = []

    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        seen.append(dict(environ))
        start_response("200 OK", [])
        return [b""]

    wrapped = read_chunked_bodies(app)
    plain = Counted(b"{}")
    wrapped({"CONTENT_LENGTH": "2", "wsgi.input": plain, "wsgi.input_terminated": True}, print)
    assert plain.taken == 0 and seen[-1]["wsgi.input"] is plain
    chunked = Counted(b'{"a": 1}')
    wrapped(
        {
            "HTTP_TRANSFER_ENCODING": "gzip, chunked",
            "wsgi.input": chunked,
            "wsgi.input_terminated": True,
        },
        print,
    )
    assert seen[-1]["CONTENT_LENGTH"] == "8" and "HTTP_TRANSFER_ENCODING" not in seen[-1]
    assert seen[-1]["wsgi.input"].read() == b'{"a": 1}'


def test_a_body_is_read_whole_within_the_limit_and_one_byte_past_it_at_most(
    settings: Any,
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000  # beyond it the body is kept in a file
    kept, length, over = read_within(io.BytesIO(b"x" * 5000), 5000)
    assert (length, over, kept.read()) == (5000, False, b"x" * 5000)
    kept.close()
    stream = Counted(b"y" * 5001)
    kept, length, over = read_within(stream, 5000)
    assert (length, over, stream.taken) == (5000, True, 5001)
    kept.close()


# --- gunicorn, over a socket ------------------------------------------------------------------

SEED = """
import datetime as dt, json, os
import django
django.setup()
from django.contrib.auth import get_user_model
from kaiser_club.models import Club, Membership, Player
from tournaments import services
club = Club.objects.create(name="Chunked Kaiser", slug="chunked")
user = get_user_model().objects.create_user("organiser", password=os.environ["SEED_PASSWORD"])
player = Player.objects.create(name="O", user=user)
Membership.objects.create(club=club, player=player, role="organiser")
event = services.event_create(club=club, name="Fall Open", date=dt.date(2026, 10, 3), rounds=3)
print(json.dumps({"event": event.id}))
"""


def send_chunked(port: int, method: str, path: str, pieces: list[bytes]) -> tuple[int, bytes]:
    """A request whose body goes in chunks, as a client streaming it sends it: no length."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    credentials = base64.b64encode(f"organiser:{PASSWORD}".encode()).decode()
    conn.putrequest(method, path)
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Accept", "application/json")
    conn.putheader("Authorization", f"Basic {credentials}")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    try:
        for piece in pieces:
            conn.send(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
        conn.send(b"0\r\n\r\n")
    except OSError:
        pass  # the server answered and closed before the rest: what a client may meet
    answer = conn.getresponse()
    body = answer.read()
    conn.close()
    return answer.status, body


@pytest.mark.stack
def test_gunicorn_reads_a_chunked_patch_and_refuses_one_over_the_limit(tmp_path: Path) -> None:
    from tests.reliability.stack import app_env, gunicorn, prepare_app, run_python

    env = app_env(
        f"sqlite:///{tmp_path / 'db.sqlite3'}",
        tmp_path / "static",
        DJANGO_MAX_REQUEST_BYTES=str(1024 * 1024),
        SEED_PASSWORD=PASSWORD,
    )
    prepare_app(env, static=False)  # JSON answers only: no static files needed
    seeded = json.loads(run_python(env, ["-c", SEED]))
    path = f"/api/events/{seeded['event']}/"
    with gunicorn(env, tmp_path / "gunicorn.log", workers=1, threads=2) as server:
        venue = json.dumps({"venue": "Legion 45", "rounds": 4}).encode()
        status, body = send_chunked(server.port, "PATCH", path, [venue[:9], venue[9:]])
        assert status == 200, body[:500]
        assert json.loads(body)["venue"] == "Legion 45"

        big = json.dumps({"venue": "x" * (1024 * 1024 + 10)}).encode()
        pieces = [big[i : i + 65536] for i in range(0, len(big), 65536)]
        status, body = send_chunked(server.port, "PATCH", path, pieces)
        assert status == 413, body[:500]
        assert json.loads(body)["code"] == "too_large"

        # What the event holds now, read back: the first PATCH, and nothing of the second.
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        credentials = base64.b64encode(f"organiser:{PASSWORD}".encode()).decode()
        conn.request("GET", path, headers={"Authorization": f"Basic {credentials}"})
        now = json.loads(conn.getresponse().read())
        conn.close()
        assert (now["venue"], now["rounds"]) == ("Legion 45", 4)
