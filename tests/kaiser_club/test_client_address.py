"""The client's address behind a proxy: forwarded only by a trusted proxy, the connecting
address otherwise; sign-in lockouts and the table-code limit count it per client."""

from __future__ import annotations

from typing import Any

import pytest
from axes.utils import reset
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client, RequestFactory

from kaiser_club import client_address as module
from kaiser_club.client_address import client_address, trusted_proxies
from tests.factories import UserFactory
from tests.table.helpers import make_table

PROXY = "172.18.0.7"  # compose's proxy container, say


@pytest.fixture(autouse=True)
def fresh_lookups(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(module, "_proxies", None)


def address(remote: str, forwarded: str | None = None) -> str:
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return client_address(RequestFactory().get("/", **extra))  # type: ignore[arg-type]


def test_without_trusted_proxies_the_header_is_ignored(settings: Any) -> None:
    settings.TRUSTED_PROXIES = []
    assert address("203.0.113.9") == "203.0.113.9"
    assert address("203.0.113.9", "198.51.100.1") == "203.0.113.9"


def test_a_trusted_proxy_forwards_its_client(settings: Any) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    assert address(PROXY, "198.51.100.1") == "198.51.100.1"
    assert address(PROXY) == PROXY  # its own request (a health check)
    # What the client wrote itself is left of what the proxy saw: the right-most one counts.
    assert address(PROXY, "10.1.2.3, 198.51.100.1") == "198.51.100.1"


def test_anyone_else_writing_the_header_is_counted_by_their_own_address(settings: Any) -> None:
    settings.TRUSTED_PROXIES = [PROXY]
    assert address("203.0.113.9", "198.51.100.1") == "203.0.113.9"
    assert address("172.18.0.8", "198.51.100.1") == "172.18.0.8"


def test_networks_chains_of_proxies_and_unreadable_hops(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["172.16.0.0/12", "2001:db8::/32"]
    assert address("172.18.0.7", "198.51.100.1, 172.20.0.3") == "198.51.100.1"
    assert address("2001:db8::5", "2001:db8:1::9, 198.51.100.1") == "198.51.100.1"
    assert address("172.18.0.7", "172.20.0.3, 172.19.0.2") == "172.20.0.3"  # all trusted
    assert address("172.18.0.7", "198.51.100.1, not-an-address") == "172.18.0.7"
    assert address("172.18.0.7", "[2001:db8:2::1]:443") == "2001:db8:2::1"
    assert address("::ffff:172.18.0.7", "198.51.100.1") == "198.51.100.1"


def test_a_host_name_is_looked_up(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["localhost"]
    assert address("127.0.0.1", "198.51.100.1") == "198.51.100.1"
    assert address("203.0.113.9", "198.51.100.1") == "203.0.113.9"


def test_a_name_that_does_not_resolve_trusts_nobody(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unknown(*args: Any, **kwargs: Any) -> Any:
        raise module.socket.gaierror(-2, "Name or service not known")

    monkeypatch.setattr(module.socket, "getaddrinfo", unknown)  # no resolver asked
    settings.TRUSTED_PROXIES = ["proxy"]
    assert address("127.0.0.1", "198.51.100.1") == "127.0.0.1"
    assert trusted_proxies().resolved == frozenset()


def test_a_name_is_looked_up_again_when_its_address_changes(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.TRUSTED_PROXIES = ["proxy"]
    now = [1000.0]
    answers = {"proxy": "172.18.0.7"}
    monkeypatch.setattr(module.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(
        module.socket,
        "getaddrinfo",
        lambda name, *a, **k: [(2, 1, 6, "", (answers[name], 0))],
    )
    assert address("172.18.0.7", "198.51.100.1") == "198.51.100.1"
    answers["proxy"] = "172.18.0.9"  # the proxy container was recreated
    now[0] += 1  # too soon to ask again
    assert address("172.18.0.9", "198.51.100.1") == "172.18.0.9"
    now[0] += module.RETRY_SECONDS
    assert address("172.18.0.9", "198.51.100.1") == "198.51.100.1"
    assert address("172.18.0.7", "198.51.100.1") == "172.18.0.7"  # the old one is not trusted


def test_an_entry_that_is_no_address_network_or_name_fails_the_checks(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["proxy", "10.0.0.0/8", "http://proxy:80"]
    with pytest.raises(SystemCheckError, match="DJANGO_TRUSTED_PROXIES names 'http://proxy:80'"):
        call_command("check")


@pytest.fixture
def behind_proxy(settings: Any) -> Any:
    settings.TRUSTED_PROXIES = [PROXY]
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3
    reset()
    yield settings
    reset()


def through_proxy(client_ip: str) -> Client:
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_ip)


def sign_in(client: Client, password: str) -> int:
    answer = client.post("/accounts/login/", {"username": "olga", "password": password})
    return answer.status_code


@pytest.mark.django_db
def test_one_clients_wrong_passwords_do_not_lock_out_another(behind_proxy: Any) -> None:
    UserFactory(username="olga")
    guesser, olga = through_proxy("198.51.100.1"), through_proxy("198.51.100.2")
    assert [sign_in(guesser, "wrong") for _ in range(3)] == [200, 200, 429]
    assert sign_in(guesser, "pw-for-tests") == 429  # locked out: the guesser
    assert sign_in(olga, "pw-for-tests") == 302  # not Olga, behind the same proxy


@pytest.mark.django_db
def test_a_forged_header_does_not_escape_the_lockout(behind_proxy: Any) -> None:
    UserFactory(username="olga")
    direct = "203.0.113.9"
    answers = [
        sign_in(Client(REMOTE_ADDR=direct, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}"), "wrong")
        for n in range(3)
    ]
    assert answers == [200, 200, 429]  # each forged address changed nothing


@pytest.mark.django_db
def test_one_clients_wrong_codes_do_not_stop_another_from_opening_a_table(
    behind_proxy: Any,
) -> None:
    behind_proxy.TABLE_CODE_RATE = "3/m"
    setup = make_table()
    guesser, tablet = through_proxy("198.51.100.1"), through_proxy("198.51.100.2")
    assert [guesser.get("/t/NOTACODE00000000000/").status_code for _ in range(3)] == [404] * 3
    assert guesser.get("/t/NOTACODE00000000000/").status_code == 429
    assert guesser.get(f"/t/{setup.code}/").status_code == 429  # the guesser waits
    assert tablet.get(f"/t/{setup.code}/").status_code == 302  # the hall does not
