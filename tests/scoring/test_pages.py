"""The HTML pages about games: what they show, who may see them, and flat query budgets."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from kaiser_club.models import Club
from kaiser_club.roles import Role
from scoring import services
from tests.factories import member, start_game
from tests.queries import SESSION_AND_USER
from tests.scoring.hands import NS, N, make_club, make_user, played, record, record_fillers

pytestmark = pytest.mark.django_db

# The session and its user (tests/queries.py), then: the clubs I may see, the games with
# teams and seats; or the game with teams, seats and my role in its club, and its hands.
GAME_LIST = SESSION_AND_USER + 2
GAME_DETAIL = SESSION_AND_USER + 2

Counter = Callable[..., Any]


def signed_in(club: Club, role: Role = Role.PLAYER) -> Client:
    client = Client()
    client.force_login(member(club, role))
    return client


def test_the_games_page_lists_my_clubs_games() -> None:
    club = make_club()
    game = start_game(club=club)
    record(game, played(N, 7, 6, NS, NS.other))  # NS 11, EW -1
    start_game(club=make_club())
    page = signed_in(club).get("/games/")
    assert page.status_code == 200
    assert [g.id for g in page.context["games"]] == [game.id]
    html = page.content.decode()
    assert str(game.ns_team) in html and f"/games/{game.id}/" in html


def test_the_game_page_shows_the_score_sheet() -> None:
    club = make_club()
    game = start_game(club=club)
    record(game, played(N, 7, 6, NS, NS.other))
    services.game_forfeit(game_id=game.id, forfeited_by=NS.other)
    page = signed_in(club).get(f"/games/{game.id}/")
    assert page.status_code == 200
    html = page.content.decode()
    # The result: the forfeit's 52–0 (scoring.results), whatever the sheet said; the sheet's
    # rows keep each hand's running scores.
    assert f"{game.ns_team} won by forfeit." in html
    assert "<strong>52</strong>" in html and "<strong>0</strong>" in html
    assert "11 <small>(+11)</small>" in html
    assert "\u22121 <small>(\u22121)</small>" in html


def test_pages_need_sign_in_and_a_visible_game() -> None:
    club = make_club()
    game = start_game(club=club)
    anonymous = Client()
    assert anonymous.get("/games/").status_code == 302
    assert anonymous.get(f"/games/{game.id}/")["Location"].startswith("/accounts/login/")
    outsider = Client()
    outsider.force_login(make_user())
    assert outsider.get(f"/games/{game.id}/").status_code == 404
    assert outsider.get("/games/").context["games"].count() == 0
    assert signed_in(club).get("/games/999999/").status_code == 404


def test_the_games_page_costs_the_same_with_3_and_30_games(
    django_assert_num_queries: Counter,
) -> None:
    club = make_club()
    client = signed_in(club)
    client.get("/games/")  # the session's first request: its user read apart (tests/queries.py)
    for size in (3, 30):
        while club.games.count() < size:
            start_game(club=club)
        with django_assert_num_queries(GAME_LIST):
            page = client.get("/games/")
        assert page.status_code == 200
        assert len(page.context["games"]) == size


def test_the_game_page_costs_the_same_with_3_and_30_hands(
    django_assert_num_queries: Counter,
) -> None:
    club = make_club()
    client = signed_in(club)
    client.get("/games/")  # the session's first request: its user read apart (tests/queries.py)
    for size in (3, 30):
        game = start_game(club=club)
        record_fillers(game, size)
        with django_assert_num_queries(GAME_DETAIL):
            page = client.get(f"/games/{game.id}/")
        assert page.status_code == 200
        assert len(page.context["hands"]) == size


def test_organisers_read_the_history_of_changes_players_do_not() -> None:
    club = make_club()
    game = start_game(club=club)
    record(game, played(N, 7, 6, NS, NS.other))
    services.hand_correct(
        game_id=game.id, number=1, entry=played(N, 8, 6, NS, NS.other), reason="bid was 8"
    )
    organiser = signed_in(club, Role.ORGANISER).get(f"/games/{game.id}/")
    actions = [change.action for change in organiser.context["history"]]
    assert actions == ["record", "correct"]
    html = organiser.content.decode()
    assert "History of changes" in html and "bid was 8" in html
    player = signed_in(club).get(f"/games/{game.id}/")
    assert player.context["history"] is None
    assert "History of changes" not in player.content.decode()
