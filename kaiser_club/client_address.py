"""The address of the client behind a request, for sign-in lockouts (django-axes) and the rate
limits (django-ratelimit): ``AXES_CLIENT_IP_CALLABLE`` and ``RATELIMIT_IP_META_KEY`` name
``client_address``.

Behind a proxy, every request connects from the proxy: counted by the connecting address, one
person's wrong passwords lock everyone out of that account and one person's wrong table codes
stop every tablet. The proxy writes the address it was reached from in ``X-Forwarded-For``,
but anyone can write that header, so it is believed only when the request comes from a
trusted proxy (``settings.TRUSTED_PROXIES``, ``DJANGO_TRUSTED_PROXIES``: addresses, networks
such as ``10.0.0.0/8``, or host names such as compose's ``proxy``, looked up again every
``RESOLVE_SECONDS``). The header is read from its right-hand end, past the trusted proxies;
the first address that is not one of them is the client. Otherwise the connecting address
counts, as before.
"""

from __future__ import annotations

import ipaddress
import logging
import re
import socket
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.conf import settings
from django.core import checks
from django.http import HttpRequest

logger = logging.getLogger(__name__)

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network

RESOLVE_SECONDS = 30.0  # a proxy container recreated gets a new address: look names up again
RETRY_SECONDS = 5.0  # the soonest lookup after another, when an unknown peer forwards
HOST_NAME = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62}[A-Za-z0-9])?(\.[A-Za-z0-9-]+)*$", re.A
)
ATTRIBUTE = "_kaiser_client_address"


def parse_address(text: str) -> Address | None:
    """An address as a header or a socket gives it (IPv4-mapped IPv6 as IPv4), or None."""
    text = text.strip()
    if text.startswith("[") and "]" in text:  # "[2001:db8::1]" or "[2001:db8::1]:443"
        text = text[1 : text.index("]")]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def entry_problem(entry: str) -> str | None:
    """Why ``entry`` of DJANGO_TRUSTED_PROXIES is neither an address, a network nor a host
    name (None when it is one)."""
    try:
        ipaddress.ip_network(entry, strict=False)
        return None
    except ValueError:
        pass
    if HOST_NAME.match(entry):
        return None
    return (
        f"DJANGO_TRUSTED_PROXIES names {entry!r}, which is neither an address (10.0.0.2), a "
        "network (10.0.0.0/8) nor a host name (proxy): write the proxies the app stands "
        "behind, separated by commas."
    )


@dataclass
class TrustedProxies:
    """The proxies named in the settings: networks at once, host names looked up when needed."""

    networks: list[Network]
    names: list[str]
    resolved: frozenset[Address] = frozenset()
    resolved_at: float = field(default=-1e9)  # monotonic time of the last lookup
    warned_names: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, entries: Iterable[str]) -> TrustedProxies:
        networks: list[Network] = []
        names: list[str] = []
        for raw in entries:
            entry = raw.strip()
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                if HOST_NAME.match(entry):
                    names.append(entry)
                # anything else is reported by the system check (``check_trusted_proxies``)
        return cls(networks=networks, names=names)

    def __bool__(self) -> bool:
        return bool(self.networks or self.names)

    def _lookup(self) -> None:
        found: set[Address] = set()
        for name in self.names:
            try:
                infos = socket.getaddrinfo(name, None, proto=socket.IPPROTO_TCP)
            except OSError as exc:
                if name not in self.warned_names:
                    self.warned_names.add(name)
                    logger.warning(
                        "DJANGO_TRUSTED_PROXIES names %s, which does not resolve (%s): requests "
                        "from it count its own address, not their client's.",
                        name,
                        exc,
                    )
                continue
            for info in infos:
                address = parse_address(str(info[4][0]))
                if address is not None:
                    found.add(address)
        self.resolved = frozenset(found)
        self.resolved_at = time.monotonic()

    def trusts(self, address: Address) -> bool:
        if any(address in network for network in self.networks):
            return True
        if not self.names:
            return False
        age = time.monotonic() - self.resolved_at
        if age > RESOLVE_SECONDS or (address not in self.resolved and age > RETRY_SECONDS):
            self._lookup()
        return address in self.resolved


_proxies: tuple[tuple[str, ...], TrustedProxies] | None = None
_hinted: set[str] = set()


def trusted_proxies() -> TrustedProxies:
    """The proxies of the current settings (kept while the setting stays the same)."""
    global _proxies
    entries = tuple(getattr(settings, "TRUSTED_PROXIES", ()) or ())
    if _proxies is None or _proxies[0] != entries:
        _proxies = (entries, TrustedProxies.of(entries))
    return _proxies[1]


def forwarded_client(hops: Sequence[str], proxies: TrustedProxies) -> Address | None:
    """The client in an X-Forwarded-For list written by trusted proxies: the right-most address
    that is not a trusted proxy. None if an address on the way is unreadable (then no address
    in the header can be believed)."""
    last: Address | None = None
    for hop in reversed(hops):
        address = parse_address(hop)
        if address is None:
            return last
        if not proxies.trusts(address):
            return address
        last = address
    return last


def _hint(peer: Address) -> None:
    """Once per address and process: a proxy on a private network forwards, but is not named."""
    key = str(peer)
    if key in _hinted or not (peer.is_private or peer.is_loopback):
        return
    _hinted.add(key)
    logger.warning(
        "A request from %s carries X-Forwarded-For, but DJANGO_TRUSTED_PROXIES does not name "
        "%s: sign-in lockouts and rate limits count that address for everyone behind it. If "
        "it is your proxy, name it in DJANGO_TRUSTED_PROXIES.",
        key,
        key,
    )


def client_address(request: HttpRequest) -> str:
    """The client's address: forwarded by a trusted proxy, or the connecting address."""
    known = getattr(request, ATTRIBUTE, None)
    if known is not None:
        return str(known)
    connecting = str(request.META.get("REMOTE_ADDR") or "")
    answer = connecting
    peer = parse_address(connecting)
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR") or "")
    if peer is not None:
        answer = str(peer)
        if forwarded.strip():
            proxies = trusted_proxies()
            if proxies and proxies.trusts(peer):
                client = forwarded_client(forwarded.split(","), proxies)
                if client is not None:
                    answer = str(client)
            else:
                _hint(peer)
    setattr(request, ATTRIBUTE, answer)
    return answer


@checks.register(checks.Tags.security)
def check_trusted_proxies(**kwargs: object) -> list[checks.CheckMessage]:
    """Every entry of DJANGO_TRUSTED_PROXIES is an address, a network or a host name."""
    problems: list[checks.CheckMessage] = []
    for entry in getattr(settings, "TRUSTED_PROXIES", ()) or ():
        problem = entry_problem(str(entry).strip())
        if problem:
            problems.append(checks.Error(problem, id="kaiser_club.E001"))
    return problems
