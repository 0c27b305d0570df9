"""Ratings on the hand-made season of tests/scoring/season.py, with literals worked out by hand
(K = 32, start 1500, E = 1 / (1 + 10^((other - own) / 400)), each partner moves by
K × (result - E)), then again after a correction and after an undo.

Rated, in the order they ended: G1, G2, G3. G4 is in progress; G5 ended by forfeit (not rated).

G1: (A, B) v (C, D), all at 1500: E = 0.5, A and B win: +16.
    A 1516, B 1516, C 1484, D 1484.
G2: (A, C) v (B, E). Averages (1516 + 1484) / 2 = 1500 and (1516 + 1500) / 2 = 1508.
    E(A, C) = 1 / (1 + 10^(8/400)) = 1 / (1 + 1.047129) = 0.488489; they win:
    32 × (1 - 0.488489) = 16.368349.
    A 1532.368349, C 1500.368349, B 1499.631651, E 1483.631651.
G3: (C, D) v (A, B). Averages (1500.368349 + 1484) / 2 = 1492.184174 and
    (1532.368349 + 1499.631651) / 2 = 1516.
    E(C, D) = 1 / (1 + 10^(23.815826/400)) = 1 / (1 + 1.146937) = 0.465780; they win:
    32 × (1 - 0.465780) = 17.095045.
    A 1515.273304, B 1482.536607, C 1517.463393, D 1501.095045; E stays 1483.631651.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring import services
from scoring.ratings import current_ratings, forget_ratings
from tests.scoring.season import Season, build_season

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    forget_ratings()
    return build_season()


def table(season: Season) -> dict[str, float]:
    ratings = current_ratings()
    s = season
    return {p.name: round(ratings.of(p.id), 4) for p in (s.a, s.b, s.c, s.d, s.e)}


def test_season_ratings(season: Season) -> None:
    assert table(season) == {
        "Ann": pytest.approx(1515.2733, abs=1e-3),
        "Bob": pytest.approx(1482.5366, abs=1e-3),
        "Cy": pytest.approx(1517.4634, abs=1e-3),
        "Dot": pytest.approx(1501.0950, abs=1e-3),
        "Ed": pytest.approx(1483.6317, abs=1e-3),
    }
    ratings = current_ratings()
    s = season
    # A's history: G1, G2, G3 (not G4, in progress); E's: G2 only (G5 was a forfeit).
    assert [(step.game_id, round(step.after, 2)) for step in ratings.steps_of(s.a.id)] == [
        (s.games[0].id, 1516.0),
        (s.games[1].id, 1532.37),
        (s.games[2].id, 1515.27),
    ]
    assert [step.game_id for step in ratings.steps_of(s.e.id)] == [s.games[1].id]


def test_after_correcting_game_3(season: Season) -> None:
    table(season)  # cached before the correction
    season.correct_game_3()
    # G3 is now won by (A, B), rated 1516 against (C, D)'s 1492.184174:
    #   E(A, B) = 1 / (1 + 10^(-23.815826/400)) = 1 - 0.465780 = 0.534220;
    #   32 × (1 - 0.534220) = 14.904955.
    #   A 1532.368349 + 14.904955 = 1547.273304; B 1499.631651 + 14.904955 = 1514.536606;
    #   C 1500.368349 - 14.904955 = 1485.463394; D 1484 - 14.904955 = 1469.095045.
    assert table(season) == {
        "Ann": pytest.approx(1547.2733, abs=1e-3),
        "Bob": pytest.approx(1514.5366, abs=1e-3),
        "Cy": pytest.approx(1485.4634, abs=1e-3),
        "Dot": pytest.approx(1469.0950, abs=1e-3),
        "Ed": pytest.approx(1483.6317, abs=1e-3),
    }


def test_after_an_undo_reopens_game_2(season: Season) -> None:
    table(season)
    services.hand_undo(game_id=season.games[1].id)
    # Only G1 and G3 are rated. After G1: A, B 1516; C, D 1484. G3: (C, D) at 1484 beat
    # (A, B) at 1516: E = 1 / (1 + 10^(32/400)) = 0.454078; 32 × 0.545922 = 17.469504.
    assert table(season) == {
        "Ann": pytest.approx(1498.5305, abs=1e-3),
        "Bob": pytest.approx(1498.5305, abs=1e-3),
        "Cy": pytest.approx(1501.4695, abs=1e-3),
        "Dot": pytest.approx(1501.4695, abs=1e-3),
        "Ed": 1500.0,
    }


def test_ratings_are_cached_until_a_game_changes(
    season: Season, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(2):  # the fingerprint, then the finished games
        first = current_ratings()
    with django_assert_num_queries(1):  # the fingerprint only
        assert current_ratings() == first
    season.correct_game_3()
    with django_assert_num_queries(2):
        assert current_ratings() != first


def test_merging_two_records_of_one_person(season: Season) -> None:
    """Ed was entered a second time ("Ed again") and played G6 under that record: (Ed again,
    A) beat (C, D). Merged into Ed, G6 becomes Ed's game and is rated with Ed's rating."""
    from kaiser_club.members.merge import merge_records
    from kaiser_club.models import Player
    from scoring.rules import Suit
    from scoring.stats import player_stats
    from tests.scoring.season import EW, NS, N, hand, play

    s = season
    again = Player.objects.create(name="Ed again")
    play(s.club, (again, s.a), (s.c, s.d), [hand(N, 7, Suit.HEARTS, 6, NS, EW)] * 2)
    # Before the merge, G6 is rated for a newcomer at 1500 with A (1515.273304): their average
    # 1507.636652 against (C, D)'s (1517.463393 + 1501.095045) / 2 = 1509.279219;
    # E = 1 / (1 + 10^(1.642567/400)) = 0.497636; they win 32 × 0.502364 = 16.075642.
    assert current_ratings().of(again.id) == pytest.approx(1516.0756, abs=1e-3)
    merge_records(keep_id=s.e.id, duplicate_id=again.id)
    # After: Ed (1483.631651) with A: average 1499.452478; E = 1 / (1 + 10^(9.826741/400))
    # = 0.485862; they win 32 × 0.514138 = 16.452418.
    assert table(season) == {
        "Ann": pytest.approx(1531.7257, abs=1e-3),
        "Bob": pytest.approx(1482.5366, abs=1e-3),
        "Cy": pytest.approx(1501.0110, abs=1e-3),
        "Dot": pytest.approx(1484.6426, abs=1e-3),
        "Ed": pytest.approx(1500.0841, abs=1e-3),
    }
    # Ed's statistics now hold G6 too: G2 and G5 lost, G6 won.
    record = player_stats(player=s.e).record
    assert (record.games, record.wins, record.hands) == (3, 1, 4)
