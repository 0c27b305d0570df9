"""Statistics on the hand-made season of tests/scoring/season.py, with literal answers worked
out by hand from the hands written there, then again after a correction of game 3.

Shorthand in the comments: G1 H2 is game 1, hand 2. A side's "points" are its card points in a
hand; its "net" is what the hand added to its score."""

from __future__ import annotations

from typing import Any

import pytest

from kaiser_club.models import Player
from scoring.rules import Suit
from scoring.stats import Record, partnership_stats, player_stats
from tests.scoring.season import EW, NS, N, Season, build_season, hand, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def season() -> Season:
    return build_season()


def numbers(record: Record) -> dict[str, Any]:
    return {
        "games": record.games,
        "wins": record.wins,
        "minus": record.minus_line_losses,
        "hands": record.hands,
        "points": record.points,
        "net": record.net,
        "bids": record.bids,
        "made": record.bids_made,
        "nt": record.no_trump_bids,
        "nt_made": record.no_trump_made,
    }


def test_player_records(season: Season) -> None:
    s = season
    # A: G1 (NS with B, won), G2 (NS with C, won), G3 (EW with B, lost); G4 is in progress.
    #   hands 2 + 2 + 3 = 7; points G1 11+10, G2 9+10, G3 0+12-1 = 21+19+11 = 51;
    #   net G1 11+20, G2 9+10, G3 0+12-1 = 31+19+11 = 61; bids G1 H1 and G3 H2, both made.
    assert numbers(player_stats(player=s.a).record) == {
        "games": 3, "wins": 2, "minus": 0, "hands": 7, "points": 51, "net": 61,
        "bids": 2, "made": 2, "nt": 0, "nt_made": 0,
    }  # fmt: skip
    # B: G1 (won), G2 (EW with E, lost at the minus line), G3 (lost), G5 (won by forfeit).
    #   points G1 21, G2 EW 1+0, G3 EW 11 = 33; net 31 + (-7-18) + 11 = 17;
    #   bids G1 H2 8 no-trump made, G2 H2 9 no-trump failed.
    assert numbers(player_stats(player=s.b).record) == {
        "games": 4, "wins": 2, "minus": 1, "hands": 7, "points": 33, "net": 17,
        "bids": 2, "made": 1, "nt": 2, "nt_made": 1,
    }  # fmt: skip
    # C: G1 (EW, lost), G2 (NS, won), G3 (NS, won), G5 (EW, lost by forfeit).
    #   points G1 -1+0, G2 9+10, G3 10-2+11 = -1+19+19 = 37; net -1 + 19 + (10-2+22) = 48.
    assert numbers(player_stats(player=s.c).record) == {
        "games": 4, "wins": 2, "minus": 0, "hands": 7, "points": 37, "net": 48,
        "bids": 1, "made": 1, "nt": 0, "nt_made": 0,
    }  # fmt: skip
    # D: G1 (EW, lost), G3 (NS, won), G5 (NS with B, won). points -1 + 19 = 18; net -1 + 30.
    assert numbers(player_stats(player=s.d).record) == {
        "games": 3, "wins": 2, "minus": 0, "hands": 5, "points": 18, "net": 29,
        "bids": 1, "made": 1, "nt": 1, "nt_made": 1,
    }  # fmt: skip
    # E: G2 (EW with B, lost at the minus line), G5 (EW with C, lost). G2 EW points 1+0, net
    #   -7-18; E's one bid (G2 H1, 7 spades) failed.
    assert numbers(player_stats(player=s.e).record) == {
        "games": 2, "wins": 0, "minus": 1, "hands": 2, "points": 1, "net": -25,
        "bids": 1, "made": 0, "nt": 0, "nt_made": 0,
    }  # fmt: skip


def test_percentages_and_averages(season: Season) -> None:
    a = player_stats(player=season.a).record
    assert a.win_pct == pytest.approx(66.666667)  # 2 of 3
    assert a.bids_made_pct == 100.0  # 2 of 2
    assert a.points_per_hand == pytest.approx(7.285714)  # 51 / 7
    assert a.net_per_hand == pytest.approx(8.714286)  # 61 / 7
    b = player_stats(player=season.b).record
    assert b.bids_made_pct == 50.0  # 1 of 2
    assert b.points_per_hand == pytest.approx(4.714286)  # 33 / 7
    e = player_stats(player=season.e).record
    assert (e.win_pct, e.bids_made_pct, e.points_per_hand) == (0.0, 0.0, 0.5)  # 0/2, 0/1, 1/2


def test_partnerships_and_best_partner(season: Season) -> None:
    s = season
    a = player_stats(player=s.a)
    # A's partners: B in G1 and G3 (1 win), C in G2 (1 win); most games first.
    assert [(p.partner.name, p.record.games, p.record.wins) for p in a.partnerships] == [
        ("Bob", 2, 1),
        ("Cy", 1, 1),
    ]
    # One win each; C's is 1 of 1 (100%) against B's 1 of 2: C.
    assert a.best_partner is not None and a.best_partner.partner == s.c
    b = player_stats(player=s.b)
    # B won once with A (1 of 2) and once with D (G5, 1 of 1), never with E: D.
    assert b.best_partner is not None and b.best_partner.partner == s.d
    assert player_stats(player=s.e).best_partner is None  # E never won


def test_partnership_records_count_either_partners_bids(season: Season) -> None:
    s = season
    # A & B: G1 (won) and G3 (lost). Hands 2 + 3; points 21 + 11; net 31 + 11. Their bids:
    #   G1 H1 (A), G1 H2 (B, no-trump), G3 H2 (A): three, all made.
    assert numbers(partnership_stats(player=s.a, partner=s.b).record) == {
        "games": 2, "wins": 1, "minus": 0, "hands": 5, "points": 32, "net": 42,
        "bids": 3, "made": 3, "nt": 1, "nt_made": 1,
    }  # fmt: skip
    # B & E: G2 only, lost at the minus line; bids G2 H1 (E) and H2 (B, no-trump), both failed.
    assert numbers(partnership_stats(player=s.e, partner=s.b).record) == {
        "games": 1, "wins": 0, "minus": 1, "hands": 2, "points": 1, "net": -25,
        "bids": 2, "made": 0, "nt": 1, "nt_made": 0,
    }  # fmt: skip
    # C & D: G1 (lost; the bids were A's and B's) and G3 (won; C's 7 clubs and D's 8 no-trump).
    assert numbers(partnership_stats(player=s.c, partner=s.d).record) == {
        "games": 2, "wins": 1, "minus": 0, "hands": 5, "points": 18, "net": 29,
        "bids": 2, "made": 2, "nt": 1, "nt_made": 1,
    }  # fmt: skip
    # A and E only ever partnered in G4, still in progress: nothing counts.
    assert partnership_stats(player=s.a, partner=s.e).record == Record()


def test_after_correcting_game_3(season: Season) -> None:
    s = season
    s.correct_game_3()
    # G3 H3 now: NS points -1, net -16; EW points 11, net +11; EW (A, B) win G3.
    # A: wins 3; points 21 + 19 + (0+12+11) = 63; net 31 + 19 + 23 = 73.
    assert numbers(player_stats(player=s.a).record) == {
        "games": 3, "wins": 3, "minus": 0, "hands": 7, "points": 63, "net": 73,
        "bids": 2, "made": 2, "nt": 0, "nt_made": 0,
    }  # fmt: skip
    # B: wins G1, G3, G5; points 21 + 1 + 23 = 45; net 31 - 25 + 23 = 29.
    assert numbers(player_stats(player=s.b).record) == {
        "games": 4, "wins": 3, "minus": 1, "hands": 7, "points": 45, "net": 29,
        "bids": 2, "made": 1, "nt": 2, "nt_made": 1,
    }  # fmt: skip
    # D: only the forfeit win is left; points -1 + (10-2-1) = 6; net -1 + (10-2-16) = -9;
    #   D's 8 no-trump failed.
    assert numbers(player_stats(player=s.d).record) == {
        "games": 3, "wins": 1, "minus": 0, "hands": 5, "points": 6, "net": -9,
        "bids": 1, "made": 0, "nt": 1, "nt_made": 0,
    }  # fmt: skip
    # A's best partner is now B: two wins together against C's one.
    best = player_stats(player=s.a).best_partner
    assert best is not None and best.partner == s.b
    assert numbers(partnership_stats(player=s.c, partner=s.d).record) == {
        "games": 2, "wins": 0, "minus": 0, "hands": 5, "points": 6, "net": -9,
        "bids": 2, "made": 1, "nt": 1, "nt_made": 0,
    }  # fmt: skip


def test_an_undo_that_reopens_a_game_takes_it_out(season: Season) -> None:
    from scoring import services

    s = season
    services.hand_undo(game_id=s.games[1].id)  # G2 is in progress again
    # E played only G2 and G5: G5 is left (no hands).
    assert numbers(player_stats(player=s.e).record) == {
        "games": 1, "wins": 0, "minus": 0, "hands": 0, "points": 0, "net": 0,
        "bids": 0, "made": 0, "nt": 0, "nt_made": 0,
    }  # fmt: skip


def test_player_statistics_cost_three_queries_whatever_the_season(
    season: Season, django_assert_num_queries: Any
) -> None:
    s = season
    with django_assert_num_queries(3):
        small = player_stats(player=s.a)
    for _ in range(4):  # four more finished games for A, with four new partners
        partner, east, west = (Player.objects.create(name=f"P{i}") for i in range(3))
        play(s.club, (s.a, partner), (east, west), [hand(N, 7, Suit.HEARTS, 6, NS, EW)] * 2)
    with django_assert_num_queries(3):
        big = player_stats(player=s.a)
    assert (small.record.games, big.record.games) == (3, 7)
    assert (len(small.partnerships), len(big.partnerships)) == (2, 6)
    with django_assert_num_queries(2):
        partnership_stats(player=s.a, partner=s.b)
