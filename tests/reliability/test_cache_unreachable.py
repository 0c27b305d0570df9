"""The cache is a convenience: with Redis unreachable every page and API answer is computed
directly. Here the cache is Redis at a port nobody listens on (no private Redis needed; the
real outage, Redis stopped under a running event, is in test_redis_down_pages.py)."""

from __future__ import annotations

import logging
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.test.utils import override_settings

from kaiser_club import outages
from tournaments.standings import event_tables
from tournaments.standings.cache import compute_event_tables

from .event_pages import assert_right, build, sweep

pytestmark = pytest.mark.django_db

NOBODY = "redis://127.0.0.1:1/0"  # a closed port: every connection refused at once


def unreachable(**params: Any) -> dict[str, Any]:
    return {
        "default": {
            "BACKEND": "kaiser_club.cache.RedisCache",
            "LOCATION": NOBODY,
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
            **params,
        }
    }


@pytest.fixture
def down() -> Iterator[None]:
    outages.forget()
    with override_settings(CACHES=unreachable()):
        yield
    outages.forget()


def test_every_page_of_an_event_answers_with_the_cache_unreachable(
    down: None, client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    world = build()
    client.force_login(world.organiser)
    with caplog.at_level(logging.WARNING, logger="kaiser_club.outages"):
        swept = sweep(client, Client(), world)
        again = sweep(client, Client(), world)  # and the polls after it
    assert_right(swept, world)
    assert_right(again, world)
    warnings = [r for r in caplog.records if r.name == "kaiser_club.outages"]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]  # once per outage
    assert "127.0.0.1:1" in warnings[0].getMessage()
    url, slowest = again.slowest
    assert slowest < 1.0, f"{url} took {slowest:.2f} s"


def test_the_standings_are_computed_when_the_cache_cannot_be_read() -> None:
    world_event = build().event
    expected = compute_event_tables(world_event)
    outages.forget()
    with override_settings(CACHES=unreachable()):
        found = event_tables(event=world_event)
    assert [(r.id, r.place, r.wins) for r in found.placings] == [
        (r.id, r.place, r.wins) for r in expected.placings
    ]


@pytest.mark.parametrize("pause", [0, 5], ids=["each-call-refused", "within-the-pause"])
def test_an_unreachable_cache_answers_as_an_empty_one_that_keeps_nothing(pause: int) -> None:
    outages.forget()
    with override_settings(CACHES=unreachable(OUTAGE_SECONDS=pause)):
        answers_as_empty()
    outages.forget()


def answers_as_empty() -> None:
    assert cache.get("k") is None
    assert cache.get("k", "default") == "default"
    assert cache.get_many(["a", "b"]) == {}
    cache.set("k", 1)
    assert cache.set_many({"a": 1, "b": 2}) == ["a", "b"]  # the keys not stored
    assert cache.add("lock", 1) is True  # stored, and forgotten at once: no one holds it
    assert cache.get("lock") is None
    assert cache.has_key("k") is False
    assert cache.touch("k") is False
    assert cache.delete("k") is False
    cache.delete_many(["a", "b"])
    with pytest.raises(ValueError):  # as for any key the cache does not hold
        cache.incr("k")
    assert cache.get_or_set("k", 5) == 5
    cache.clear()  # nothing to clear, and no error
    assert cache.get_many([]) == {} and cache.set_many({}) == []


@pytest.fixture
def hung() -> Iterator[str]:
    """A Redis that accepts connections and never answers (stopped with SIGSTOP, swapping, a
    dead peer): a socket listening, never read. Its address."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen(64)
        yield f"redis://127.0.0.1:{listening.getsockname()[1]}/0"


def timed(call: Any) -> float:
    started = time.monotonic()
    call()
    return time.monotonic() - started


def test_a_hung_redis_costs_one_timeout_then_is_left_alone_for_a_few_seconds(hung: str) -> None:
    """Without the pause every cache call waited for the socket timeout (a page makes up to
    five): after the first, calls are answered without Redis until ``OUTAGE_SECONDS`` have
    passed, then one call asks again."""
    outages.forget()
    options = {"socket_connect_timeout": 0.3, "socket_timeout": 0.3}
    with override_settings(CACHES=unreachable(LOCATION=hung, OPTIONS=options, OUTAGE_SECONDS=1)):
        first = timed(lambda: cache.get("k"))
        during = [timed(lambda: cache.get("k")) for _ in range(20)]
        during.append(timed(lambda: cache.set("k", 1)))
        time.sleep(1.1)
        again = timed(lambda: cache.get("k"))
        after = timed(lambda: cache.get("k"))
    outages.forget()
    assert 0.25 < first < 1.0, first
    assert max(during) < 0.05, during
    assert 0.25 < again < 1.0, again  # asked once more, still hung
    assert after < 0.05, after


def test_every_request_with_the_cache_unreachable_costs_no_more_than_a_millisecond_or_so(
    down: None, client: Client
) -> None:
    world = build()
    url = f"/api/events/{world.event.id}/standings/"
    client.force_login(world.organiser)
    assert client.get(url).status_code == 200
    started = time.monotonic()
    for _ in range(10):
        assert client.get(url).status_code == 200
    assert (time.monotonic() - started) / 10 < 0.5


@pytest.fixture
def broker_refuses(monkeypatch: pytest.MonkeyPatch, settings: Any) -> list[str]:
    """Not eager, and every send fails as kombu does when Redis refuses the connection; the
    sends tried, by task name."""
    from kombu.exceptions import OperationalError

    from tournaments.reports.tasks import render_report_task
    from tournaments.standings.tasks import refresh_standings
    from tournaments.tasks import generate_task

    settings.CELERY_TASK_ALWAYS_EAGER = False
    tried: list[str] = []

    for task in (generate_task, refresh_standings, render_report_task):

        def refuse(*args: Any, name: str = task.name, **kwargs: Any) -> None:
            tried.append(name)
            raise OperationalError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

        monkeypatch.setattr(task, "apply_async", refuse)
    return tried


def test_with_the_broker_away_a_round_is_generated_in_the_request(
    broker_refuses: list[str], client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    """A job queued on commit with the broker away was a 500 after the commit (the job then
    stayed queued for ever, and every later request was refused as "already queued")."""
    from kaiser_club.roles import Role
    from tests.factories import member
    from tests.tournaments.helpers import make_event, new_club
    from tournaments.choices import JobStatus
    from tournaments.models import GenerationJob, Round

    club = new_club()
    event = make_event(teams=4, format="swiss", club=club)
    client.force_login(member(club, Role.ORGANISER))
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/events/{event.id}/generate/")
    assert answer.status_code == 302
    job = GenerationJob.objects.get(event=event)
    assert job.status == JobStatus.DONE, job.error
    assert Round.objects.filter(event=event, number=1).exists()
    assert broker_refuses == ["tournaments.generate"]
    page = client.get(f"/events/{event.id}/rounds/1/")
    assert page.status_code == 200 and "Team 1" in page.content.decode()


def test_an_outage_of_the_broker_is_noticed_once(
    broker_refuses: list[str],
    api_client: Any,
    client: Client,
    caplog: pytest.LogCaptureFixture,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """After a send failed, the next ones within the pause do without the broker at once
    (standings computed here, a PDF left for the sweep, a round generated here): one warning."""
    from kaiser_club.roles import Role
    from tests.factories import member
    from tests.tournaments.helpers import make_event, new_club, win_for
    from tournaments import services
    from tournaments.choices import JobStatus
    from tournaments.models import GenerationJob, Pairing, ReportJob, Round

    club = new_club()
    event = make_event(teams=4, format="swiss", club=club, verification=False)
    organiser = member(club, Role.ORGANISER)
    api_client.force_authenticate(organiser)
    client.force_login(organiser)
    with caplog.at_level(logging.INFO, logger="kaiser_club.outages"):
        with django_capture_on_commit_callbacks(execute=True):
            answer = api_client.post(f"/api/events/{event.id}/generate/")
        assert answer.status_code == 202
        assert GenerationJob.objects.get(event=event).status == JobStatus.DONE
        services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
        pairing = Pairing.objects.filter(event=event, game__isnull=False).first()
        assert pairing is not None and pairing.home is not None
        win_for(pairing, pairing.home)  # ends a game: the standings' refresh is not sent
        with django_capture_on_commit_callbacks(execute=True):
            answer = client.post(f"/events/{event.id}/reports/", {"kind": "standings"})
        assert answer.status_code == 302
    assert broker_refuses == ["tournaments.generate"], "asked once, then left alone"
    job = ReportJob.objects.get(event=event)
    assert job.status == JobStatus.QUEUED and "Connection refused" in job.send_error
    standings = api_client.get(f"/api/events/{event.id}/standings/").json()
    assert standings[0]["name"] == pairing.home.name and standings[0]["wins"] == 1
    warnings = [r for r in caplog.records if r.name == "kaiser_club.outages"]
    assert len(warnings) == 1 and "job broker" in warnings[0].getMessage(), warnings


def test_the_sweep_reads_every_public_page() -> None:
    """Every public address of the URLconf is in the sweep (a page added later must be too)."""
    from django.urls import resolve

    from tournaments.public.urls import urlpatterns

    world = build()
    urls = [*world.public_pages(), *(url for url, _ in world.public_redirects())]
    swept = {resolve(url.partition("?")[0]).url_name for url in urls}
    # A registrant's buttons answer POST only; tests/test_cross_club.py drives them.
    posts_only = {"own-withdraw", "own-stop", "own-push"}
    assert swept == {pattern.name for pattern in urlpatterns} - posts_only
