"""A player's statistics and rating through the API."""

from __future__ import annotations

from typing import Any

import pytest

from kaiser_club.models import Player
from kaiser_club.roles import Role
from scoring.ratings import forget_ratings
from tests.factories import member
from tests.kaiser_club.club_helpers import join, new_club
from tests.scoring.season import Season, build_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    forget_ratings()
    return build_season()


def test_stats_of_a_player(api_client: Any, season: Season) -> None:
    s = season
    join(s.club, s.a)
    api_client.force_authenticate(member(s.club, Role.PLAYER))
    body = api_client.get(f"/api/players/{s.a.id}/stats/").json()
    # The literals of tests/scoring/test_stats_season.py and test_ratings_season.py.
    assert body["record"]["games"] == 3 and body["record"]["wins"] == 2
    assert body["record"]["points_per_hand"] == pytest.approx(51 / 7)
    assert body["best_partner_id"] == s.c.id
    assert body["rating"] == pytest.approx(1515.2733, abs=1e-3)
    assert [step["game_id"] for step in body["rating_history"]] == [g.id for g in s.games[:3]]
    assert [(p["partner_name"], p["record"]["games"]) for p in body["partnerships"]] == [
        ("Bob", 2),
        ("Cy", 1),
    ]


def test_who_may_read_them(api_client: Any, season: Season) -> None:
    s = season
    join(s.club, s.a)
    url = f"/api/players/{s.a.id}/stats/"
    assert api_client.get(url).status_code == 403  # signed out, not public
    api_client.force_authenticate(member(new_club(), Role.CLUB_ADMIN))
    assert api_client.get(url).status_code == 404
    Player.objects.filter(id=s.a.id).update(is_public=True)
    api_client.force_authenticate(None)
    assert api_client.get(url).status_code == 200
