"""Redis stopped (then hung) under a running event: every page of the event still answers, and
right: the organiser's pages, the API, the public pages, the projector, the CSV, the season's
leaderboard, a table's pages. A game that ends and a round generated during the outage show
at once; when Redis is back the cache is used again and nothing stale is served.

A private redis-server on a free port (never the shared 6379) is the cache and the broker,
configured as production configures them (``kaiser_club/settings/base.py``). The pages are
read in this process with Django's test client, each timed: with Redis away a request must not
wait for it more than once an outage (``kaiser_club/outages.py``).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from django.test import Client
from rest_framework.test import APIClient

from kaiser_club import outages
from tests.tournaments.helpers import hand_json
from tournaments.choices import JobStatus
from tournaments.models import GenerationJob, Round

from .event_pages import TEAMS, Swept, World, assert_right, build, sweep
from .private_redis import private_redis, sending_to

pytestmark = [pytest.mark.fault, pytest.mark.django_db(transaction=True)]


def production_cache(settings: Any, url: str) -> None:
    settings.CACHES = {
        "default": {
            "BACKEND": "kaiser_club.cache.RedisCache",
            "LOCATION": url,
            "OPTIONS": settings.REDIS_CACHE_OPTIONS,
            "OUTAGE_SECONDS": settings.REDIS_CACHE_OUTAGE_SECONDS,
        }
    }


def read_all(world: World) -> Swept:
    organiser = Client(raise_request_exception=False)
    organiser.force_login(world.organiser)
    return sweep(organiser, Client(raise_request_exception=False), world)


def keys(url: str) -> int:
    return int(redis.Redis.from_url(url, socket_connect_timeout=1).dbsize())


def finish_the_other_game(world: World, api: APIClient) -> str:
    """Round 1's other game, won by its home team through the API (as a tablet would): its
    name."""
    game = world.playing.game
    assert game is not None and world.playing.home is not None
    for number in range(1, 4):
        answer = api.post(
            f"/api/games/{game.id}/hands/", {**hand_json("ns"), "number": number}, format="json"
        )
        assert answer.status_code == 201, answer.content
    return world.playing.home.name


def winners(swept: Swept, world: World) -> set[str]:
    rows = swept.answers[f"/api/events/{world.event.id}/standings/"].json()
    return {row["name"] for row in rows if row["wins"] == 1}


def test_every_page_answers_right_while_redis_is_down_and_after(
    tmp_path: Path, settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    world = build()  # with the test's own cache, before Redis matters
    first_winner = world.won.home.name if world.won.home else ""
    api = APIClient()
    api.force_authenticate(world.organiser)
    outages.forget()
    with private_redis(tmp_path) as server:
        production_cache(settings, server.url)
        with sending_to(server.url, settings), caplog.at_level(logging.WARNING):
            up = read_all(world)
            assert_right(up, world)
            assert keys(server.url) > 0, "the pages should have used the cache"

            server.stop()
            down = read_all(world)
            again = read_all(world)  # the polls that follow
            assert_right(down, world)
            assert_right(again, world)

            # A game ends during the outage (the standings' refresh cannot be queued) and the
            # next round is generated (its job cannot be queued): both show at once.
            second_winner = finish_the_other_game(world, api)
            after_game = read_all(world)
            assert_right(after_game, world)
            assert winners(after_game, world) == {first_winner, second_winner}
            started = time.monotonic()
            generating = Client(raise_request_exception=False)
            generating.force_login(world.organiser)
            answer = generating.post(f"/events/{world.event.id}/generate/")
            generate_seconds = time.monotonic() - started
            assert answer.status_code == 302
            job = GenerationJob.objects.filter(event=world.event).latest("id")
            assert job.status == JobStatus.DONE, job.error
            assert Round.objects.filter(event=world.event, number=2).exists()
            round_two = read_all(world)
            assert_right(round_two, world)
            page = Client().get(f"/e/{world.event.id}/rounds/2/")
            assert page.status_code == 200 and all(t in page.content.decode() for t in TEAMS)

            # Redis is back: once the outage's pause is over it is used again, and the entries
            # written before the outage (one game, one round) are not served.
            server.start()
            time.sleep(settings.REDIS_CACHE_OUTAGE_SECONDS + 0.2)
            back = read_all(world)
            assert_right(back, world)
            assert winners(back, world) == {first_winner, second_winner}
            assert keys(server.url) > 0, "Redis back should be used again"
            back_again = read_all(world)
            assert_right(back_again, world)
    said = [r.getMessage() for r in caplog.records if r.name == "kaiser_club.outages"]
    cache_said = [m for m in said if m.startswith("The cache")]
    assert len(cache_said) == 2, said  # once when it went away, once when it came back
    assert "cannot be reached" in cache_said[0] and "answers again" in cache_said[1]
    report = {
        "Redis up": up,
        "Redis stopped, first sweep": down,
        "Redis stopped, second sweep": again,
        "Redis back": back,
    }
    for name, swept in report.items():
        url, slowest = swept.slowest
        print(
            f"\n{name}: {len(swept.seconds)} pages, mean {swept.mean * 1000:.0f} ms, "
            f"slowest {url} {slowest * 1000:.0f} ms"
        )
    print(f"round generated with the broker down in {generate_seconds:.2f} s")
    # Stopped: a refused connection costs nothing; no page waits for Redis.
    assert down.slowest[1] < 2.0 and again.mean < 0.5


def test_a_hung_redis_costs_one_request_its_timeout_not_every_request(
    tmp_path: Path, settings: Any
) -> None:
    """SIGSTOP: Redis accepts connections and never answers. Each cache call used to wait its
    socket timeout (a public page makes up to five, and waited up to 10 s); now the first
    request of the outage waits once, and the others do not ask Redis until the pause ends."""
    world = build()
    outages.forget()
    timeout = settings.REDIS_CACHE_OPTIONS["socket_timeout"]
    with private_redis(tmp_path) as server:
        production_cache(settings, server.url)
        with sending_to(server.url, settings):
            assert_right(read_all(world), world)
            server.pause()
            try:
                hung = read_all(world)
                hung_again = read_all(world)
            finally:
                server.resume()
    assert_right(hung, world)
    assert_right(hung_again, world)
    waited = sorted(hung.seconds.values(), reverse=True)
    print(
        f"\nhung Redis: {len(waited)} pages, slowest {waited[0] * 1000:.0f} ms, then "
        f"{waited[1] * 1000:.0f} ms; mean {hung.mean * 1000:.0f} ms, "
        f"next sweep {hung_again.mean * 1000:.0f} ms"
    )
    # One page waits the timeouts (connect and read, perhaps once more when the pause ends
    # during the sweep); the others no more than a page takes without any cache.
    assert waited[0] < 2 * timeout + 1.0
    assert sum(s > timeout for s in waited) <= 2, waited[:5]
    assert hung_again.mean < 0.5
