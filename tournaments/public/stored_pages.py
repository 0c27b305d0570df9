"""Stored renderings of the public pages, served before the work an anonymous request does
not need (sessions, authentication, CSRF checks, URL resolving, the view).

``StoredPagesMiddleware`` sits just after the security and static-file middleware. For a GET
of an event's public page (``/e/<id>/…``) from a browser with no session (anyone in the hall
who has not signed in) it reads the event's ``live`` counter (one look-up by primary key:
``tournaments.models.EventVersion``; a worker reuses what it read for up to a second) and,
when a rendering of this very address in this language was stored at that version,
answers with it: the bytes, or 304 when the browser has them. Otherwise the request goes
through the stack; the view renders the page (marking it storable), and the rendering is
stored under the version read BEFORE the view ran, so a change committed meanwhile can only
make it newer than its label, never older: the next request reads the new counter and renders
again. A confirmed hand moves the counter in its own transaction, so it shows on the next
poll; a pending hand shows nowhere.

Per language (the key holds the language the request asks for), per page (its path and query).
Nothing of the reader is on such a page (``kaiser_club/http_cache.py``: no CSRF token, no
session read, no clock: a page learns the server's time from its polls' ``Date``), so a
rendering is served as it was made, and a shared cache in front may keep it too. Renderings live
in the Django cache (shared by the workers) and, once seen, in the worker's memory, so a hit
costs the counter's look-up and a copy.

A page that shows fewer rows than the counter follows (the standings: what the results
counter covers; a game's score sheet: that, and its game, round and table) is stored with a
token of those rows. When the counter has moved (a hand at another table), the token is read
again (no look-up for the standings, one for a sheet) and,
unchanged, the rendering is served once more, labelled with the new counter, its ETag kept:
the phone holding it gets a 304, not a page rendered afresh to say the same. Any other page
rendered again the same as before keeps its ETag too.

A page is rendered by one request at a time, whichever worker it reaches, and at most once per
``PUBLIC_VERSION_SECONDS``: a rendering shows every change committed before it began
(``read_at``), so it is served for that long whatever the counter says, and while one request
renders the page again the others are answered with the last rendering, here, before the
stack. With a hand somewhere in the hall every second, each page is then rendered about once a
second, not by every poll that arrives before the new rendering is stored (one render per
worker per version seen, several at once, each slowing the others).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils import translation
from django.utils.cache import get_conditional_response

from kaiser_club.http_cache import shared_reader

from ..standings.versions import Versions, live_versions
from .selectors import round_rows, sheet_rows

PUBLIC_PAGE = re.compile(r"^/e/(\d{1,12})/(?!standings\.csv)")
GAME_SHEET = re.compile(r"^/e/(\d{1,12})/games/(\d{1,12})/$")
STANDINGS = re.compile(r"^/e/(\d{1,12})/standings/$")
ROUND = re.compile(r"^/e/(\d{1,12})/rounds/(\d{1,12})/$")
STORE_SECONDS = 24 * 60 * 60  # keys name their version: the timeout only clears old ones
RENDERING_SECONDS = 10  # a rendering that died holds its page's lock no longer than this
FIRST_WAIT_SECONDS = 2.0  # how long a request waits for another's first rendering of a page
FIRST_WAIT_STEP = 0.02
LOCAL_PAGES = 256  # renderings kept in a worker's memory
KEPT_HEADERS = ("Content-Type", "Content-Language", "Vary", "Cache-Control", "ETag")


@dataclass(frozen=True)
class Stored:
    version: str
    read_at: float  # time.time() before it was rendered: it shows every change committed before
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    rows: str | None = None  # the token of the rows it shows (``page_rows``), if it has one


_local: OrderedDict[str, Stored] = OrderedDict()
_local_lock = threading.Lock()  # a worker's threads (gthread) share _local


def storable(request: HttpRequest) -> bool:
    """A GET by someone with nothing of their own on the page, of an event's public page."""
    return (
        request.method == "GET"
        and shared_reader(request)
        and PUBLIC_PAGE.match(request.path_info) is not None
    )


def mark_storable(response: HttpResponse) -> HttpResponse:
    response.kaiser_storable = True  # type: ignore[attr-defined]
    return response


def key_of(event_id: int, language: str, full_path: str) -> str:
    """``stored4``: renderings as served, nothing left to fill in (an older one is not read)."""
    digest = hashlib.blake2b(full_path.encode(), digest_size=12).hexdigest()
    return f"kaiser:public:stored4:{event_id}:{language}:{digest}"


def rendering_key(key: str) -> str:
    """The lock held while a request renders the page stored under ``key``."""
    return f"{key}:rendering"


def _fresh(stored: Stored, version: str, now: float) -> bool:
    """Shows every change committed up to a second ago (``PUBLIC_VERSION_SECONDS``): made
    at the version the counter says, or begun within that second."""
    return stored.version == version or now - stored.read_at < _seconds()


def _seconds() -> float:
    return float(getattr(settings, "PUBLIC_VERSION_SECONDS", 1.0))


def _keep_locally() -> bool:
    """A worker keeps renderings in its memory when the shared cache is another process's
    (Redis): a hit then costs no round trip. A cache in this process's memory is that
    already (the quick start, the tests, where clearing the cache must clear them all)."""
    return not isinstance(caches["default"], LocMemCache)


def _get(key: str, version: str, now: float) -> Stored | None:
    """The rendering stored under ``key``: this worker's copy while it is fresh, else the
    latest of it and the shared one (the caller checks which it is)."""
    local = _local.get(key) if _keep_locally() else None
    if local is not None and _fresh(local, version, now):
        return local
    found = cache.get(key)
    if found is None or (local is not None and local.read_at >= found.read_at):
        return local
    if _keep_locally():
        _remember(key, found)
    return found


def page_rows(path: str, event_id: int, versions: Versions) -> str | None:
    """The token of what a page shows, for the pages that show less than the live counter
    follows: the standings (what the results counter covers: they show who is playing whom,
    not the running score), a game's score sheet (its game, round and table besides, on
    PostgreSQL) and a round's page (the event's rounds, its games and tables besides, on
    PostgreSQL); None for the others, which change with any hand of the event."""
    if STANDINGS.match(path) is not None:
        return versions.results
    if connection.vendor != "postgresql":
        return None
    rows = None
    if (match := GAME_SHEET.match(path)) is not None:
        rows = sheet_rows(event_id=event_id, pairing_id=int(match[2]))
    elif (match := ROUND.match(path)) is not None:
        rows = round_rows(event_id=event_id, number=int(match[2]))
    return None if rows is None else f"{versions.results}|{rows}"


def _revalidated(
    key: str, found: Stored, rows: str | None, version: str, read_at: float
) -> Stored | None:
    """``found`` labelled with ``version`` if what it shows has not changed by ``read_at``."""
    if found.rows is None or rows != found.rows:
        return None
    relabelled = dataclasses.replace(found, version=version, read_at=read_at)
    with contextlib.suppress(Exception):
        cache.set(key, relabelled, STORE_SECONDS)
    if _keep_locally():
        _remember(key, relabelled)
    return relabelled


def _remember(key: str, stored: Stored) -> None:
    with _local_lock:  # another thread's popitem between these lines would lose ``key``
        _local[key] = stored
        _local.move_to_end(key)
        while len(_local) > LOCAL_PAGES:
            _local.popitem(last=False)


def _put(
    key: str, version: str, read_at: float, response: HttpResponse, rows: str | None
) -> Stored:
    stored = Stored(
        version=version,
        read_at=read_at,
        status=response.status_code,
        headers=tuple((name, response[name]) for name in KEPT_HEADERS if response.has_header(name)),
        body=response.content,
        rows=rows,
    )
    with contextlib.suppress(Exception):  # a convenience: the page is served all the same
        cache.set(key, stored, STORE_SECONDS)
    if _keep_locally():
        _remember(key, stored)
    return stored


def _not_modified(request: HttpRequest, stored: Stored) -> HttpResponse | None:
    """304 if the browser holds this rendering."""
    etag = dict(stored.headers).get("ETag")
    if etag is not None:
        not_modified = get_conditional_response(request, etag=etag)
        if isinstance(not_modified, HttpResponseNotModified):
            for name, value in stored.headers:
                if name != "Content-Type":
                    not_modified[name] = value
            return not_modified
    return None


def _answer(request: HttpRequest, stored: Stored) -> HttpResponse:
    not_modified = _not_modified(request, stored)
    if not_modified is not None:
        return not_modified
    response = HttpResponse(status=stored.status)
    for name, value in stored.headers:
        response[name] = value
    response.content = stored.body
    return response


_seen: dict[int, tuple[float, Versions | None]] = {}


def _live_versions(event_id: int) -> Versions | None:
    """The event's counters, as read at most ``PUBLIC_VERSION_SECONDS`` ago by this worker
    (default 1 s; 0 reads them on every request): a change shows within that second plus
    the poll, and a hall of phones costs each worker one look-up a second per event, not one
    per request. A rendering is stored under the version read BEFORE it was made, so a
    version read a moment ago can only label a rendering newer than itself."""
    memo = _seconds()
    now = time.monotonic()
    if memo > 0:
        seen = _seen.get(event_id)
        if seen is not None and now - seen[0] < memo:
            return seen[1]
    found = live_versions(event_id)
    if memo > 0:
        if len(_seen) > LOCAL_PAGES:
            _seen.clear()
        _seen[event_id] = (now, found)
    return found


class StoredPagesMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not storable(request):
            return self.get_response(request)
        match = PUBLIC_PAGE.match(request.path_info)
        assert match is not None
        request.get_host()  # an unknown host is refused here as further in (400)
        event_id = int(match[1])
        versions = _live_versions(event_id)
        if versions is None:  # no such event: the view says so
            return self.get_response(request)
        language = translation.get_language_from_request(request)
        key = key_of(event_id, language, request.get_full_path())
        read_at = time.time()
        found = _get(key, versions.live, read_at)
        if found is not None and _fresh(found, versions.live, read_at):
            return _answer(request, found)
        # Read before any rendering, as the counter is: a change made meanwhile can only make
        # the token older than what is stored with it, never newer.
        rows = page_rows(request.path_info, event_id, versions)
        if found is not None:
            relabelled = _revalidated(key, found, rows, versions.live, read_at)
            if relabelled is not None:
                return _answer(request, relabelled)
        locked = _lock(rendering_key(key))
        if not locked:
            # Being rendered: the last rendering meanwhile, or, before the first one (a hall
            # opening the page at once), that one when it is stored.
            found = found or _first(key)
            if found is not None:
                return _answer(request, found)
        try:
            response = self.get_response(request)
            storing = getattr(response, "kaiser_storable", False)
            storing = storing and response.status_code == 200 and not response.streaming
            if storing:
                _keep_etag(found, response)
                kept = _put(key, versions.live, read_at, response, rows)
        finally:
            if locked:
                _unlock(rendering_key(key))
        if storing:
            not_modified = _not_modified(request, kept)
            if not_modified is not None:
                return not_modified  # rendered the same as the copy the browser holds
        return response


def _first(key: str) -> Stored | None:
    """The first rendering of a page another request is making, once stored (a short
    wait: the hall's phones open the same page within seconds of each other, and each
    rendering it at once would take them all the longer). None if that request ends
    without storing one (it was answered with an older rendering): this one renders."""
    lock = rendering_key(key)
    deadline = time.monotonic() + FIRST_WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(FIRST_WAIT_STEP)
        found = cache.get_many([key, lock])
        if key in found:
            stored: Stored = found[key]
            return stored
        if lock not in found:
            return None
    return None


def _keep_etag(last: Stored | None, response: HttpResponse) -> None:
    """A rendering the same as the last one keeps its ETag, so the phones holding it get
    304: a change the page does not show (a hand waiting for confirmation writes its game's
    row and moves the counter) costs the hall one rendering, not a page to every phone."""
    etag = dict(last.headers).get("ETag") if last is not None else None
    if last is None or etag is None or not response.has_header("ETag"):
        return
    if last.status == response.status_code and last.body == response.content:
        response["ETag"] = etag


def _lock(key: str) -> bool:
    """True if this request may render the page (no other is), or the cache cannot say."""
    try:
        return bool(cache.add(key, 1, RENDERING_SECONDS))
    except Exception:
        return True


def _unlock(key: str) -> None:
    with contextlib.suppress(Exception):
        cache.delete(key)
