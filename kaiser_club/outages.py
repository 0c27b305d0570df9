"""Outages of the conveniences (Redis as the cache, Redis as Celery's broker), as this process
has noticed them: each is noticed once, then left alone for a few seconds.

A service that does not answer costs the first request that asks it its timeouts. Asking it
again at every request would cost every request the same (a hung Redis: a second or more
each), so once a call has failed, ``may_ask`` says no for ``seconds`` and the caller does
without (computes the page, runs the job here, leaves it for the sweep); then one caller asks
again, and the others keep doing without until it has. One warning when an outage is noticed,
one when the service answers again: not one per request.

A service is named by what it is to us (``what``: "The cache (Redis)") and its address.
"""

from __future__ import annotations

import logging
import re
import threading
from dataclasses import dataclass
from time import monotonic
from urllib.parse import urlsplit, urlunsplit

log = logging.getLogger(__name__)


@dataclass
class Outage:
    since: float  # when it was noticed (monotonic)
    retry_at: float  # nobody asks before this
    last_error: str


_outages: dict[tuple[str, str], Outage] = {}
_lock = threading.Lock()  # the threads of a gunicorn worker share what it has noticed


def may_ask(what: str, address: str, seconds: float) -> bool:
    """False while an outage of the service noticed less than ``seconds`` ago lasts; then
    True for one caller (the next ask is then ``seconds`` away again, unless it succeeds)."""
    if (what, address) not in _outages:  # the usual case: no outage, no lock to take
        return True
    with _lock:
        outage = _outages.get((what, address))
        if outage is None:
            return True
        now = monotonic()
        if now < outage.retry_at:
            return False
        outage.retry_at = now + seconds
        return True


def went_away(what: str, address: str, exc: BaseException, seconds: float) -> None:
    """The service failed: the start of an outage (one warning), or more of it (none)."""
    error = f"{type(exc).__name__}: {exc}"
    now = monotonic()
    with _lock:
        outage = _outages.get((what, address))
        first = outage is None
        if outage is None:
            outage = _outages[(what, address)] = Outage(since=now, retry_at=0.0, last_error=error)
        outage.retry_at, outage.last_error = now + seconds, error
    if first:
        log.warning(
            "%s at %s cannot be reached (%s): doing without it, and asking it again every %g s.",
            what,
            without_password(address),
            error,
            seconds,
        )


def came_back(what: str, address: str) -> None:
    """The service answered: the end of its outage, if there was one (one warning)."""
    if (what, address) not in _outages:
        return
    with _lock:
        outage = _outages.pop((what, address), None)
    if outage is not None:
        log.warning(
            "%s at %s answers again, after %.0f s away.",
            what,
            without_password(address),
            monotonic() - outage.since,
        )


def last_error(what: str, address: str) -> str:
    """What the last failed call to the service said ("" when it answers)."""
    outage = _outages.get((what, address))
    return "" if outage is None else outage.last_error


def without_password(url: str) -> str:
    """``url`` fit for a log: a password in it replaced by ``***`` (in each of several
    addresses, as a cache's LOCATION may list them)."""
    if "," in url or ";" in url:
        return ",".join(without_password(one) for one in re.split("[;,]", url))
    try:
        parts = urlsplit(url)
        if parts.password is None:
            return url
        host = parts.netloc.rpartition("@")[2]
        user = parts.username or ""
        return urlunsplit(
            (parts.scheme, f"{user}:***@{host}", parts.path, parts.query, parts.fragment)
        )
    except ValueError:
        return "(an address that cannot be read)"


def forget() -> None:
    """Every service answers, as far as this process knows (for the tests)."""
    with _lock:
        _outages.clear()
