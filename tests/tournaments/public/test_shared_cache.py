"""What a shared cache in front (nginx's micro-cache, a CDN) may keep of the public pages, and
what each page's ETag follows: a page and its live part are public for two seconds when read by
someone not signed in, a signed-in page and a table's page never are; HEAD is answered as GET; a
hand at one table leaves another table's score sheet and the standings as the phones have them,
until a game ends."""

from __future__ import annotations

from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext

from kaiser_club.http_cache import SHARED_SECONDS, STALE_SECONDS, SharedCacheGuardMiddleware
from scoring.rules import Seat, Side
from scoring.services.verification import hand_confirm
from tests.factories import UserFactory

from ..helpers import win_game
from .world import hall, live_game, north_enters_a_hand, results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


@pytest.fixture
def two_tables() -> Any:
    made = hall("ABCDEF", format="swiss", verification=True)
    results(made, [("A", "B", 52, 30), ("C", "D", 52, 40), ("E", "F", 52, 20)], round=1)
    three = live_game(made, "A", "C", round=2, table_number=3)
    five = live_game(made, "B", "E", round=2, table_number=5)
    return made, three, five


# What a shared cache may keep: for 2 s, 2 more while it asks again; a browser asks every time.
SHARED = {
    "public",
    "max-age=0",
    f"s-maxage={SHARED_SECONDS}",
    f"stale-while-revalidate={STALE_SECONDS}",
}


def words(answer: Any) -> set[str]:
    return {word.strip() for word in answer["Cache-Control"].split(",")}


def confirmed_hand(game_id: int) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        north_enters_a_hand(game_id)
        hand_confirm(game_id=game_id, number=1, seat=Seat.EAST)


def test_a_live_part_is_public_for_a_moment_with_a_strong_etag(client: Client, two_tables):
    made, three, _ = two_tables
    for page in ("", "standings/", "live/", "rounds/2/", f"games/{three.id}/"):
        answer = client.get(f"/e/{made.event.id}/{page}?part=1")
        assert answer.status_code == 200, page
        assert words(answer) == SHARED, page
        assert answer["Vary"] == "Accept-Language", page  # not the cookie
        assert answer["ETag"].startswith('"'), page  # strong: not W/"…"
        assert not answer.cookies, page
        again = client.get(f"/e/{made.event.id}/{page}?part=1", HTTP_IF_NONE_MATCH=answer["ETag"])
        assert again.status_code == 304, page
        assert "public" in words(again) and again["ETag"] == answer["ETag"], page


PAGES = ("", "standings/", "live/", "rounds/2/", "bracket/", "projector/")


def test_a_full_page_read_by_nobody_in_particular_is_public_with_a_strong_etag(
    client: Client, two_tables
):
    made, three, _ = two_tables
    for path in (
        *(f"/e/{made.event.id}/{page}" for page in PAGES),
        f"/e/{made.event.id}/games/{three.id}/",
        "/e/",
    ):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert words(answer) == SHARED, path
        assert answer["Vary"] == "Accept-Language", path  # the session was not read
        assert answer["ETag"].startswith('"'), path
        assert not answer.cookies, path
        html = answer.content.decode()
        assert "csrfmiddlewaretoken" not in html and "X-CSRFToken" not in html, path
        # Nothing in it changes from one reader to the next: the same bytes, the same tag.
        again = client.get(path)
        assert again.content == answer.content and again["ETag"] == answer["ETag"], path
        held = client.get(path, HTTP_IF_NONE_MATCH=answer["ETag"])
        assert held.status_code == 304, path


def test_a_full_page_is_its_readers_own_when_signed_in_or_a_message_waits(
    client: Client, two_tables
):
    made, _, _ = two_tables
    path = f"/e/{made.event.id}/standings/"
    client.force_login(cast(User, UserFactory()))
    mine = client.get(path)
    assert mine.status_code == 200
    assert "private" in words(mine) and "public" not in words(mine)
    assert "Cookie" in mine["Vary"]
    assert "Sign out" in mine.content.decode()
    waiting = Client()
    waiting.cookies["messages"] = "anything"
    answer = waiting.get(path)
    assert "private" in words(answer) and "public" not in words(answer)
    assert "Sign out" not in Client().get(path).content.decode()


def test_a_part_whose_language_a_cookie_chose_is_not_shared(client: Client, two_tables):
    made, _, _ = two_tables
    client.cookies["django_language"] = "fr"
    answer = client.get(f"/e/{made.event.id}/live/?part=1")
    assert answer.status_code == 200 and "Pointages en direct" in answer.content.decode()
    assert "private" in words(answer) and "public" not in words(answer)


def test_head_is_answered_as_get_without_a_body(client: Client, two_tables):
    made, three, _ = two_tables
    for path in (
        f"/e/{made.event.id}/standings/",
        f"/e/{made.event.id}/games/{three.id}/?part=1",
        f"/e/{made.event.id}/standings.csv",
        "/e/",
    ):
        got = client.get(path)
        head = client.head(path)
        assert head.status_code == 200 == got.status_code, path
        assert head.content == b"", path
        assert head["Content-Type"] == got["Content-Type"], path
        assert head.get("ETag") == got.get("ETag"), path


def test_a_signed_in_page_and_a_table_page_are_never_shared(client: Client) -> None:
    user = cast(User, UserFactory())
    client.force_login(user)
    home = client.get("/")
    assert home.status_code == 200
    assert {"private", "no-store"} <= words(home)
    anonymous = Client()
    unknown_table = anonymous.get("/t/NOSUCHCODE0000000000/")
    assert "public" not in words(unknown_table)
    assert "private" in words(unknown_table)


def test_the_guard_never_lets_a_cookie_or_a_cookie_chosen_language_be_public() -> None:
    def public_with_cookie(request: HttpRequest) -> HttpResponse:
        response = HttpResponse("x")
        response["Cache-Control"] = "public, s-maxage=2"
        response.set_cookie("csrftoken", "abc")
        return response

    guard = SharedCacheGuardMiddleware(public_with_cookie)
    request = HttpRequest()
    request.method = "GET"
    assert guard(request)["Cache-Control"] == "private, no-store"

    def public(request: HttpRequest) -> HttpResponse:
        response = HttpResponse("x")
        response["Cache-Control"] = "public, s-maxage=2"
        return response

    chose = HttpRequest()
    chose.COOKIES["django_language"] = "fr"
    answer = SharedCacheGuardMiddleware(public)(chose)
    assert "public" not in answer["Cache-Control"] and "private" in answer["Cache-Control"]
    assert SharedCacheGuardMiddleware(public)(HttpRequest())["Cache-Control"] == (
        "public, s-maxage=2"
    )


def test_a_hand_at_table_3_leaves_table_5s_sheet_and_the_standings(client: Client, two_tables):
    made, three, five = two_tables
    assert three.game_id is not None and five.game_id is not None
    base = f"/e/{made.event.id}/"
    sheet_five = client.get(f"{base}games/{five.id}/?part=1")
    standings = client.get(f"{base}standings/?part=1")
    live = client.get(f"{base}live/?part=1")
    confirmed_hand(three.game_id)
    # Table 5's sheet and the standings show nothing of a hand at table 3.
    again = client.get(f"{base}games/{five.id}/?part=1", HTTP_IF_NONE_MATCH=sheet_five["ETag"])
    assert again.status_code == 304
    again = client.get(f"{base}standings/?part=1", HTTP_IF_NONE_MATCH=standings["ETag"])
    assert again.status_code == 304
    # The live scores do.
    moved = client.get(f"{base}live/?part=1", HTTP_IF_NONE_MATCH=live["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != live["ETag"]
    # Table 3's game ends: the standings change.
    win_game(three.game_id, Side.NS)
    ended = client.get(f"{base}standings/?part=1", HTTP_IF_NONE_MATCH=standings["ETag"])
    assert ended.status_code == 200 and ended["ETag"] != standings["ETag"]
    html = ended.content.decode()
    assert html.index(">A</a>") < html.index(">C</a>")  # A won both games


def test_the_standings_say_who_plays_whom_and_where_not_the_running_score(
    client: Client, two_tables
):
    made, three, _ = two_tables
    assert three.game_id is not None
    confirmed_hand(three.game_id)
    html = client.get(f"/e/{made.event.id}/standings/").content.decode()
    assert "v C, table 3" in html and "v A, table 3" in html
    assert "9–1 v C" not in html


def test_a_hand_in_round_2_leaves_round_1s_page_and_moves_its_own(client: Client, two_tables):
    """A finished round's page is kept as long as nothing it shows changes: a hand of the
    round being played costs it one look-up of its rows, not a rendering; that round's page
    is rendered anew."""
    if connection.vendor != "postgresql":
        pytest.skip("the rows' versions are PostgreSQL's (CI runs it)")
    made, three, _five = two_tables
    assert three.game_id is not None
    base = f"/e/{made.event.id}/rounds/"
    first = client.get(f"{base}1/?part=1")
    second = client.get(f"{base}2/?part=1")
    assert first.status_code == second.status_code == 200
    confirmed_hand(three.game_id)
    with CaptureQueriesContext(connection) as ctx:
        again = client.get(f"{base}1/?part=1", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert len(ctx.captured_queries) == 2  # the event's counter, the round's rows: no rendering
    moved = client.get(f"{base}2/?part=1", HTTP_IF_NONE_MATCH=second["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != second["ETag"]
