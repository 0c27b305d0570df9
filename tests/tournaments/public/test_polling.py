"""An open page refreshes its live part every 3 seconds: the part carries an ETag from the
event's version, an unchanged part answers 304 for one query, and a confirmed hand (not a
pending one) changes it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext

from kaiser_club.models import Player
from scoring.rules import Seat, Side
from scoring.services.verification import hand_confirm
from tournaments import services
from tournaments.models import Pairing
from tournaments.public import stored_pages, views

from ..helpers import win_game
from .world import hall, live_game, north_enters_a_hand, results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


@pytest.fixture
def open_game():
    made = hall("ABCD", format="swiss", verification=True)
    results(made, [("A", "B", 52, 30), ("C", "D", 52, 40)], round=1)
    now = live_game(made, "A", "C", round=2, table_number=1)
    return made, now


PARTS = ["", "standings/", "live/", "rounds/2/", "projector/", "bracket/", "game", "team", "player"]


def part_url(made, now, page: str) -> str:
    team = made["A"].team
    assert team is not None
    Player.objects.filter(id=team.player_one_id).update(is_public=True)
    page = {
        "game": f"games/{now.id}/",
        "team": f"teams/{made['A'].id}/",
        "player": f"players/{team.player_one_id}/",
    }.get(page, page)
    return f"/e/{made.event.id}/{page}?part=1"


def test_the_full_page_polls_its_part_every_three_seconds(client, open_game):
    made, _ = open_game
    html = client.get(f"/e/{made.event.id}/standings/").content.decode()
    assert f'hx-get="/e/{made.event.id}/standings/?part=1"' in html
    assert 'hx-trigger="every 3s"' in html
    sorted_page = client.get(f"/e/{made.event.id}/standings/?sort=name").content.decode()
    assert f'hx-get="/e/{made.event.id}/standings/?sort=name&amp;part=1"' in sorted_page


@pytest.mark.parametrize("page", PARTS)
def test_an_unchanged_part_answers_304_for_one_query(client, open_game, page):
    made, now = open_game
    url = part_url(made, now, page)
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert "<html" not in first.content.decode()  # the part alone
    with CaptureQueriesContext(connection) as ctx:
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert len(ctx.captured_queries) == 1


def test_the_part_keeps_no_part_in_its_sort_links(client, open_game):
    made, _ = open_game
    html = client.get(f"/e/{made.event.id}/standings/?part=1").content.decode()
    assert "part=1" not in html
    assert "?sort=" in html


def test_the_etag_depends_on_the_language(client, open_game):
    made, _ = open_game
    url = f"/e/{made.event.id}/live/?part=1"
    english = client.get(url)["ETag"]
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr")["ETag"]
    assert english != french


def test_a_confirmed_hand_changes_the_part_and_a_pending_one_does_not_show(client, open_game):
    made, now = open_game
    assert now.game_id is not None
    url = f"/e/{made.event.id}/live/?part=1"
    first = client.get(url)
    assert '<span class="home-score">0</span>' in first.content.decode()
    with TestCase.captureOnCommitCallbacks(execute=True):
        north_enters_a_hand(now.game_id)
    pending = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    if pending.status_code == 200:  # the game row moved; the score did not
        assert '<span class="home-score">0</span>' in pending.content.decode()
    etag = pending["ETag"] if pending.status_code == 200 else first["ETag"]
    with TestCase.captureOnCommitCallbacks(execute=True):
        hand_confirm(game_id=now.game_id, number=1, seat=Seat.EAST)
    confirmed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert confirmed.status_code == 200
    assert '<span class="home-score">9</span>–<span class="away-score">1</span>' in (
        confirmed.content.decode()
    )


@pytest.mark.parametrize("page", ["", "live/", "rounds/2/", "game"])
def test_a_hand_waiting_for_confirmation_leaves_each_part_as_the_phone_has_it(
    client, open_game, page
):
    """A pending hand writes its game's row (the event's counter moves) but shows nowhere:
    the part rendered again is the same, keeps its ETag, and the phone gets 304."""
    made, now = open_game
    assert now.game_id is not None
    url = part_url(made, now, page)
    first = client.get(url)
    with TestCase.captureOnCommitCallbacks(execute=True):
        north_enters_a_hand(now.game_id)
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    with TestCase.captureOnCommitCallbacks(execute=True):
        hand_confirm(game_id=now.game_id, number=1, seat=Seat.EAST)
    confirmed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert confirmed.status_code == 200 and confirmed["ETag"] != first["ETag"]


def test_an_organisers_forfeit_changes_the_standings_part(client, open_game):
    made, now = open_game
    url = f"/e/{made.event.id}/standings/?part=1"
    first = client.get(url)
    services.pairing_forfeit_unchecked(pairing=Pairing.objects.get(id=now.id), forfeiting="away")
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    # A won round 1 and now C's forfeit: played 2, won 2.
    assert re.search(
        r'>A</a></td>\s*<td class="num">2</td>\s*<td class="num">2</td>', (second.content.decode())
    )
    assert second["ETag"] != first["ETag"]


def test_a_finished_game_moves_the_standings(client, open_game):
    made, now = open_game
    assert now.game_id is not None
    url = f"/e/{made.event.id}/standings/?part=1"
    first = client.get(url)
    win_game(now.game_id, Side.EW)  # C, East-West, wins
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    html = second.content.decode()
    # C won both games now: first; A one win.
    assert html.index(">C</a>") < html.index(">A</a>")


def test_a_rendered_part_is_served_to_the_next_viewer_for_one_query(client, open_game):
    made, _ = open_game
    url = f"/e/{made.event.id}/standings/?part=1"
    first = client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        second = client.get(url)  # another phone: no copy of its own yet
    assert second.status_code == 200 and len(ctx.captured_queries) == 1
    assert second.content == first.content and second["ETag"] == first["ETag"]


def test_the_full_page_wraps_the_kept_part_and_moves_with_a_confirmed_hand(client, open_game):
    made, now = open_game
    assert now.game_id is not None
    page, part = f"/e/{made.event.id}/live/", f"/e/{made.event.id}/live/?part=1"
    first = client.get(page).content.decode()
    assert '<span class="home-score">0</span>' in first
    kept = client.get(part).content.decode()
    assert kept.strip() and kept.strip() in first  # one rendering, in the page and alone
    with CaptureQueriesContext(connection) as ctx:
        again = client.get(page)  # another phone opens the page
    assert again.status_code == 200 and len(ctx.captured_queries) == 1
    with TestCase.captureOnCommitCallbacks(execute=True):
        north_enters_a_hand(now.game_id)
        hand_confirm(game_id=now.game_id, number=1, seat=Seat.EAST)
    moved = client.get(page).content.decode()
    assert '<span class="home-score">9</span>–<span class="away-score">1</span>' in moved


def test_the_page_and_its_part_share_one_rendering_whatever_the_query_order(client, open_game):
    made, _ = open_game
    base = f"/e/{made.event.id}/standings/"
    client.get(f"{base}?sort=-points_for")
    with CaptureQueriesContext(connection) as ctx:
        part = client.get(f"{base}?part=1&sort=-points_for")
    # Another address, so nothing stored for it: the counter (1) and the event (1); the part
    # itself is the page's, not rendered again.
    assert part.status_code == 200 and len(ctx.captured_queries) == 2
    assert "part=1" not in part.content.decode()  # its sort links open the page, not the part


def test_while_another_request_renders_a_new_version_the_latest_rendering_is_served(
    client, open_game
):
    """A hall of phones polling when a hand is confirmed: one request renders the new
    version, the others get the latest rendering (one hand behind, for one poll), answered
    before the stack, instead of all building the same page at once."""
    made, now = open_game
    assert now.game_id is not None
    url = f"/e/{made.event.id}/live/?part=1"
    before = client.get(url)
    with TestCase.captureOnCommitCallbacks(execute=True):
        win_game(now.game_id, Side.NS)
    lock = stored_pages.rendering_key(stored_pages.key_of(made.event.id, "en", url))
    assert cache.add(lock, 1, 30)  # another request is rendering the new version
    with CaptureQueriesContext(connection) as ctx:
        meanwhile = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert meanwhile.status_code == 304 and len(ctx.captured_queries) == 1  # the counter
    assert client.get(url)["ETag"] == before["ETag"]  # a phone without it: the latest
    cache.delete(lock)  # that rendering is done, or died
    after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    assert after.content != before.content


def test_a_page_opened_while_its_first_rendering_is_made_waits_for_that_one(
    client, open_game, monkeypatch
):
    """A hall opening the same page at once: the first request renders it, the others wait
    for that rendering rather than each making their own."""
    made, _ = open_game
    url = f"/e/{made.event.id}/standings/?part=1"
    lock = stored_pages.rendering_key(stored_pages.key_of(made.event.id, "en", url))
    assert cache.add(lock, 1, 30)  # the first request is rendering it
    rendered: list[str] = []
    render = views.render_to_string

    def counted(template: str, *args: Any, **kwargs: Any) -> str:
        rendered.append(template)
        return render(template, *args, **kwargs)

    monkeypatch.setattr(views, "render_to_string", counted)
    first: list[Any] = []

    def meanwhile(seconds: float) -> None:
        if not first:  # the first request's rendering is stored while this one waits
            cache.delete(lock)
            first.append(Client().get(url))

    monkeypatch.setattr(stored_pages.time, "sleep", meanwhile)
    waited = client.get(url)
    assert waited.status_code == 200 and waited["ETag"] == first[0]["ETag"]
    assert waited.content == first[0].content and len(rendered) == 1


def test_a_page_whose_first_rendering_ended_unstored_is_rendered_at_once(
    client, open_game, monkeypatch
):
    """The first request ended without storing its rendering (it was answered with an older
    one): a request waiting for it stops waiting at once and renders the page itself."""
    made, _ = open_game
    url = f"/e/{made.event.id}/standings/?part=1"
    lock = stored_pages.rendering_key(stored_pages.key_of(made.event.id, "en", url))
    assert cache.add(lock, 1, 30)
    waits: list[float] = []

    def ended(seconds: float) -> None:
        waits.append(seconds)
        cache.delete(lock)  # the first request is done, and stored nothing

    monkeypatch.setattr(stored_pages.time, "sleep", ended)
    answer = client.get(url)
    assert answer.status_code == 200 and len(waits) == 1
    assert client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304  # stored


class Clock:
    """``time`` as tournaments.public.stored_pages reads it, moved by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now


def test_a_page_is_rendered_at_most_once_a_second_and_shows_a_hand_after_it(
    client, open_game, settings, monkeypatch
):
    """With a hand somewhere in the hall every second, each page is rendered about once a
    second: a rendering shows every change committed before it began, so it is served for
    PUBLIC_VERSION_SECONDS whatever the counter says (here: a counter read after the hand);
    after that the confirmed hand shows."""
    settings.PUBLIC_VERSION_SECONDS = 1
    clock = Clock()
    monkeypatch.setattr(stored_pages, "time", clock)
    monkeypatch.setattr(stored_pages, "_seen", {})
    made, now = open_game
    assert now.game_id is not None
    url = f"/e/{made.event.id}/live/?part=1"
    client.get(f"/e/{made.event.id}/standings/?part=1")  # the counter, read at 0 s
    clock.now += 0.9
    first = client.get(url)  # rendered at 0.9 s
    with TestCase.captureOnCommitCallbacks(execute=True):
        north_enters_a_hand(now.game_id)
        hand_confirm(game_id=now.game_id, number=1, seat=Seat.EAST)
    clock.now += 0.3
    with CaptureQueriesContext(connection) as ctx:
        within = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert within.status_code == 304 and len(ctx.captured_queries) == 1  # the new counter
    clock.now += 0.8
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert '<span class="home-score">9</span>–<span class="away-score">1</span>' in (
        after.content.decode()
    )


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the rows' versions are PostgreSQL's (CI runs it)"
)
def test_a_hand_at_another_table_leaves_a_game_sheet_as_the_phone_has_it(client, open_game):
    """A game's score sheet shows its own game: a hand at another table moves the event's
    counter, the sheet's rows are looked up again (one query) and the phone keeps its copy
    (304, no rendering); a hand at its own table brings the new sheet."""
    made, now = open_game
    other = live_game(made, "B", "D", round=2, table_number=2)
    assert now.game_id is not None and other.game_id is not None
    url = f"/e/{made.event.id}/games/{now.id}/?part=1"
    first = client.get(url)
    assert first.status_code == 200
    with TestCase.captureOnCommitCallbacks(execute=True):
        north_enters_a_hand(other.game_id)
        hand_confirm(game_id=other.game_id, number=1, seat=Seat.EAST)
    with CaptureQueriesContext(connection) as ctx:
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert len(ctx.captured_queries) == 2  # the event's counter, the sheet's rows
    with TestCase.captureOnCommitCallbacks(execute=True):
        north_enters_a_hand(now.game_id)
        hand_confirm(game_id=now.game_id, number=1, seat=Seat.EAST)
    moved = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert '<strong id="ns-score">9</strong>' in moved.content.decode()
