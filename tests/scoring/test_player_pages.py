"""Player pages: who may see them, what they show, and what they cost."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from kaiser_club.models import Membership, Player
from kaiser_club.roles import Role
from scoring.ratings import forget_ratings
from scoring.rules import Suit
from tests.factories import UserFactory, member
from tests.kaiser_club.club_helpers import join, new_club
from tests.queries import FIRST_SESSION_AND_USER, SESSION_AND_USER
from tests.scoring.season import EW, NS, N, Season, build_season, hand, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    forget_ratings()
    return build_season(new_club(name="Regina Kaiser Club", slug="regina"))


def page_of(player: Player) -> str:
    return reverse("players:detail", kwargs={"player_id": player.id})


def test_a_member_of_the_players_club_sees_the_page(client: Any, season: Season) -> None:
    s = season
    join(s.club, s.a)
    client.force_login(member(s.club, Role.PLAYER))
    page = client.get(page_of(s.a))
    assert page.status_code == 200
    body = page.content.decode()
    assert "<h1>Ann</h1>" in body
    # The rating (1515.27, from tests/scoring/test_ratings_season.py) and its plot: a line
    # from 1500 through the three rated games, each a dot.
    assert '<span class="rating-value">1515</span>' in body
    svg = body[body.index("<svg") : body.index("</svg>")]
    assert svg.count("<circle") == 3
    assert "Rating of Ann after each of 3 rated games" in svg
    # The statistics of tests/scoring/test_stats_season.py: 3 games, 2 wins, 51 / 7 points.
    assert re.search(r"<th>Games</th><td class=\"num\">3</td>", body)
    assert "7.29" in body  # points per hand, 51 / 7
    assert "Best partner:" in body and ">Cy</a>" in body
    # Four games listed (G4 in progress too), each with its score sheet.
    for game in s.games[:4]:
        assert reverse("scoring:game-detail", kwargs={"game_id": game.id}) in body
    assert "in progress" in body


def test_who_may_see_a_private_page(client: Any, season: Season) -> None:
    s = season
    join(s.club, s.a)
    url = page_of(s.a)
    answer = client.get(url)  # signed out: the sign-in page
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    outsider = member(new_club(), Role.CLUB_ADMIN)
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    staff = UserFactory(is_staff=True)
    client.force_login(staff)
    assert client.get(url).status_code == 200
    own = UserFactory()
    Player.objects.filter(id=s.e.id).update(user=own)  # E belongs to no club: still sees self
    client.force_login(own)
    assert client.get(page_of(s.e)).status_code == 200


def test_a_public_page_shows_no_score_sheet_the_viewer_may_not_open(
    client: Any, season: Season
) -> None:
    s = season
    Player.objects.filter(id=s.a.id).update(is_public=True)
    body = client.get(page_of(s.a)).content.decode()  # signed out
    assert "<h1>Ann</h1>" in body
    assert "score sheet" not in body


def test_the_player_chooses_whether_their_page_is_public(client: Any, season: Season) -> None:
    s = season
    user = UserFactory()
    Player.objects.filter(id=s.a.id).update(user=user)
    join(s.club, s.a)
    client.force_login(user)
    assert "Let anyone see this page" in client.get(page_of(s.a)).content.decode()
    answer = client.post(
        reverse("player-privacy"), {"is_public": "on", "next": page_of(s.a)}, follow=True
    )
    assert "Your page is now public." in answer.content.decode()
    assert Player.objects.get(id=s.a.id).is_public
    client.post(reverse("player-privacy"), {"next": "https://elsewhere.example/"})
    assert not Player.objects.get(id=s.a.id).is_public
    # Someone else's page has no such form.
    assert "Let anyone see this page" not in client.get(page_of(s.b)).content.decode()


def test_partnership_page(client: Any, season: Season) -> None:
    s = season
    client.force_login(UserFactory(is_staff=True))
    url = reverse("players:partnership", kwargs={"player_id": s.a.id, "partner_id": s.b.id})
    body = client.get(url).content.decode()
    # A & B: 2 games, 1 win, 3 bids all made (tests/scoring/test_stats_season.py).
    assert re.search(r"<th>Games</th><td class=\"num\">2</td>", body)
    assert re.search(r"<th>Bids made</th><td class=\"num\">3 <small>\(100%\)</small>", body)


@pytest.mark.parametrize("extra_games", [0, 12])
def test_player_page_query_count_is_flat(
    client: Any, season: Season, extra_games: int, django_assert_num_queries: Any
) -> None:
    s = season
    for i in range(extra_games):  # more games for A, each with new partners and opponents
        partner, east, west = (Player.objects.create(name=f"P{i}-{n}") for n in range(3))
        club = s.club if i % 2 else new_club()
        play(club, (s.a, partner), (east, west), [hand(N, 7, Suit.HEARTS, 6, NS, EW)] * 2)
    viewer = member(s.club, Role.PLAYER)
    join(s.club, s.a)
    client.force_login(viewer)
    forget_ratings()
    # session, user (tests/queries.py); the player, shares-a-club; statistics (3); ratings
    # fingerprint and games (2); games page count and rows (2); the viewer's clubs; the
    # player's clubs.
    with django_assert_num_queries(FIRST_SESSION_AND_USER + 11):
        answer = client.get(page_of(s.a))
    assert answer.status_code == 200
    assert answer.content.decode().count("<circle") == 3 + extra_games
    with django_assert_num_queries(SESSION_AND_USER + 10):  # ratings cached: the fingerprint
        client.get(page_of(s.a))
    assert Membership.objects.filter(player=s.a).count() == 1


def test_club_ratings_page(client: Any, season: Season) -> None:
    s = season
    for player in (s.a, s.b, s.c, s.d, s.e):
        join(s.club, player)
    join(s.club, Player.objects.create(name="Newcomer"))
    client.force_login(member(s.club, Role.PLAYER, username="viewer"))
    body = client.get(reverse("players:club-ratings", kwargs={"slug": "regina"})).content.decode()
    rows = re.findall(
        r'<a href="/players/\d+/">([^<]+)</a></td>\s*<td class="num">(\d+)</td>', body
    )
    # tests/scoring/test_ratings_season.py: Cy 1517.46, Ann 1515.27, Dot 1501.10, Ed 1483.63,
    # Bob 1482.54; members with no rated game (Newcomer, viewer) last, at 1500.
    assert rows == [
        ("Cy", "1517"),
        ("Ann", "1515"),
        ("Dot", "1501"),
        ("Ed", "1484"),
        ("Bob", "1483"),
        ("Newcomer", "1500"),
        ("viewer", "1500"),
    ]


@pytest.mark.parametrize("members", [3, 40])
def test_club_ratings_query_count_is_flat(
    client: Any, season: Season, members: int, django_assert_num_queries: Any
) -> None:
    for i in range(members):
        join(season.club, Player.objects.create(name=f"M{i}"))
    client.force_login(member(season.club, Role.PLAYER))
    forget_ratings()
    # session, user, club, role; ratings fingerprint and games; members
    with django_assert_num_queries(7):
        assert (
            client.get(reverse("players:club-ratings", kwargs={"slug": "regina"})).status_code
            == 200
        )
