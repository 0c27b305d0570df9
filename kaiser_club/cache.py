"""The cache backend when Redis is the cache (``REDIS_URL``): Django's Redis backend, for which
Redis being away is a miss, never an error.

Everything the cache holds can be made again from PostgreSQL: the standings
(``tournaments/standings/cache.py``), the stored public pages and their parts
(``tournaments/public/``), the rate limit's counts of wrong table codes (django-ratelimit). So
while Redis cannot be reached (stopped, restarting, hung, out of memory) this backend answers
as an empty cache that keeps nothing, and every page is computed directly, slower:

- ``get`` the default, ``get_many`` nothing, ``has_key`` and ``touch`` False;
- ``set`` keeps nothing, ``set_many`` names every key as not stored, ``delete`` finds nothing;
- ``add`` True: stored, and forgotten at once. A lock taken with ``add`` is then held by
  nobody, so each request renders its page itself instead of waiting for another's rendering;
- ``incr`` ValueError, as for any key the cache does not hold: django-ratelimit then counts
  nothing and lets the request through (``RATELIMIT_FAIL_OPEN``), as a tablet must.

An outage is noticed once (``kaiser_club/outages.py``). The first call that fails costs at
most the socket timeouts (``REDIS_CACHE_OPTIONS``) and logs one warning; for the next
``OUTAGE_SECONDS`` (a key of the ``CACHES`` entry; 5 unless it says) every call in this process
is answered without asking Redis, so a hung Redis does not cost every request its timeouts
(measured: a page of the public standings waited up to 10 s, five calls of 1 s and the wait
for another's rendering); then one call asks again. The first call that succeeds after an
outage logs that Redis is back.

Why a subclass, overriding the public methods of ``django.core.cache.backends.redis.RedisCache``
one by one, rather than a ``try`` at each call site: django-ratelimit's calls, the stored pages,
the standings and whatever reads the cache next all go through it, and none of them can forget.
Nothing private of Django's or redis-py's is read: each method calls the parent's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar

import redis
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

from . import outages

OUTAGE_SECONDS = 5.0  # how long an outage, once noticed, is answered without asking Redis
WHAT = "The cache (Redis)"
T = TypeVar("T")


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` that answers as an empty cache while
    Redis cannot be reached (see the module's docstring)."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.location = server if isinstance(server, str) else ",".join(server)
        self.outage_seconds = float(params.get("OUTAGE_SECONDS", OUTAGE_SECONDS))

    def reached(self, call: Callable[[], T], fallback: T) -> T:
        """``call``'s answer, or ``fallback`` when Redis cannot be reached (or, in an outage
        noticed less than ``outage_seconds`` ago, without asking it)."""
        if not outages.may_ask(WHAT, self.location, self.outage_seconds):
            return fallback
        try:
            answer = call()
        except (redis.RedisError, OSError) as exc:
            outages.went_away(WHAT, self.location, exc, self.outage_seconds)
            return fallback
        outages.came_back(WHAT, self.location)
        return answer

    # --- Django's cache API ----------------------------------------------------------------

    def get(self, key: Any, default: Any | None = None, version: int | None = None) -> Any:
        return self.reached(partial(super().get, key, default, version), default)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        keys = list(keys)
        return self.reached(partial(super().get_many, keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self.reached(partial(super().has_key, key, version), False)

    def set(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> None:
        self.reached(partial(super().set, key, value, timeout, version), None)

    def set_many(
        self,
        data: dict[Any, Any],
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> list[Any]:
        return self.reached(partial(super().set_many, data, timeout, version), list(data))

    def add(
        self,
        key: Any,
        value: Any,
        timeout: float | None = DEFAULT_TIMEOUT,
        version: int | None = None,
    ) -> bool:
        return self.reached(partial(super().add, key, value, timeout, version), True)

    def touch(
        self, key: Any, timeout: float | None = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        return self.reached(partial(super().touch, key, timeout, version), False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self.reached(partial(super().delete, key, version), False)

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        keys = list(keys)
        self.reached(partial(super().delete_many, keys, version), None)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        found: int | None = self.reached(partial(super().incr, key, delta, version), None)
        if found is None:
            raise ValueError(f"Key {key!r} not found (the cache cannot be reached).")
        return found

    def clear(self) -> None:
        self.reached(super().clear, None)
