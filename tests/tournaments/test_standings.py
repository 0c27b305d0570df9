"""Standings of hand-made tournaments, one per tie-break, with literal expected orders.

Each tournament's results are written as pairings with their scores (what standings read); the
comment above each expectation works the order out by hand. Teams are named A, B, C… and
seeded in that order (A is seed 1), so an order that is not alphabetical was decided by
something other than the seed.
"""

from __future__ import annotations

import pytest

from tournaments.standings import event_standings

from .public.world import bye, hall, result, results

pytestmark = pytest.mark.django_db

# A four-team round robin used by two tests.
ROUND_ROBIN_4 = [
    ("A", "B", 52, 30),
    ("A", "C", 52, 40),
    ("D", "A", 52, 45),
    ("B", "C", 52, 20),
    ("B", "D", 52, 50),
    ("C", "D", 52, 51),
]


def names(rows):
    return [row.name for row in rows]


def test_wins_then_point_difference_the_default_order():
    made = hall("ABCD")
    results(made, ROUND_ROBIN_4)
    rows = event_standings(event=made.event)
    # Wins: A 2 (B, C), B 2 (C, D), C 1 (D), D 1 (A).
    # Point difference: A +22 +12 -7 = +27; B -22 +32 +2 = +12; C -12 -32 +1 = -43;
    # D +7 -2 -1 = +4. So A, B on two wins; D (+4) above C (-43) on one, against their seeds.
    assert names(rows) == ["A", "B", "D", "C"]
    assert [r.place for r in rows] == [1, 2, 3, 4]
    assert [(r.wins, r.losses, r.point_difference) for r in rows] == [
        (2, 1, 27),
        (2, 1, 12),
        (1, 2, 4),
        (1, 2, -43),
    ]
    assert [r.decided_by for r in rows] == ["", "point_difference", "wins", "point_difference"]


def test_head_to_head_between_two_tied_teams():
    made = hall("ABCD", tiebreaks=["wins", "head_to_head", "point_difference"])
    results(made, ROUND_ROBIN_4)
    rows = event_standings(event=made.event)
    # Same games. A and B have two wins each: A beat B 52-30, so A first. C and D have one:
    # C beat D 52-51, so C above D, though D's point difference (+4) is better than C's (-43).
    assert names(rows) == ["A", "B", "C", "D"]
    assert [r.decided_by for r in rows] == ["", "head_to_head", "wins", "head_to_head"]
    assert [r.head_to_head for r in rows] == [1, 0, 1, 0]


# Six teams, a round robin of 15 games, with A, B and C level on two wins.
SIX_TEAMS = [
    *[("F", other, 52, 10) for other in "ABCDE"],  # F beats everyone
    ("A", "B", 52, 40),  # among A, B, C: A beat B and C, B beat C
    ("A", "C", 52, 48),
    ("B", "C", 52, 50),
    ("D", "A", 52, 30),  # outside: A lost to D and E,
    ("E", "A", 52, 20),
    ("B", "D", 52, 51),  # B beat D and lost to E,
    ("E", "B", 52, 45),
    ("C", "D", 52, 0),  # C beat D and E,
    ("C", "E", 52, 10),
    ("E", "D", 52, 40),  # and E beat D.
]


def test_three_way_tie_broken_by_the_mini_table_among_the_three():
    made = hall("ABCDEF", tiebreaks=["wins", "head_to_head", "point_difference"])
    results(made, SIX_TEAMS)
    rows = event_standings(event=made.event)
    # Wins: F 5; E 3 (A, B, D); A 2 (B, C); B 2 (C, D); C 2 (D, E); D 1 (A).
    # A, B and C all met: the mini-table among them is A 2, B 1, C 0.
    assert names(rows) == ["F", "E", "A", "B", "C", "D"]
    assert [r.wins for r in rows] == [5, 3, 2, 2, 2, 1]
    assert [r.head_to_head for r in rows[2:5]] == [2, 1, 0]
    assert [r.decided_by for r in rows[2:5]] == ["wins", "head_to_head", "head_to_head"]


def test_the_same_three_way_tie_by_point_difference_comes_out_reversed():
    made = hall("ABCDEF", tiebreaks=["wins", "point_difference", "head_to_head"])
    results(made, SIX_TEAMS)
    rows = event_standings(event=made.event)
    # Point differences: A -42 +12 +4 -22 -32 = -80; B -42 -12 +2 +1 -7 = -58;
    # C -42 -4 -2 +52 +42 = +46. By point difference first: C, B, A.
    assert names(rows) == ["F", "E", "C", "B", "A", "D"]
    assert [r.point_difference for r in rows] == [210, -33, 46, -58, -80, -85]


def test_a_circular_three_way_tie_goes_to_the_next_metric():
    made = hall("ABC", tiebreaks=["wins", "head_to_head", "point_difference"])
    results(made, [("A", "B", 52, 40), ("B", "C", 52, 30), ("C", "A", 52, 45)])
    rows = event_standings(event=made.event)
    # A beat B, B beat C, C beat A: one win each, and one each in the mini-table too.
    # Point difference: A +12 -7 = +5; B -12 +22 = +10; C -22 +7 = -15: B, A, C.
    assert names(rows) == ["B", "A", "C"]
    assert [r.head_to_head for r in rows] == [1, 1, 1]
    assert [r.decided_by for r in rows] == ["", "point_difference", "point_difference"]


def test_head_to_head_is_applied_again_within_a_smaller_tied_group():
    made = hall("ABCD", tiebreaks=["head_to_head", "seed"])
    results(
        made,
        [
            ("B", "A", 52, 40),
            ("A", "C", 52, 40),
            ("A", "D", 52, 40),
            ("B", "C", 52, 40),
            ("D", "B", 52, 40),
            ("C", "D", 52, 40),
        ],
    )
    rows = event_standings(event=made.event)
    # The mini-table among all four (everyone met): A 2 (C, D), B 2 (A, C), C 1 (D), D 1 (B).
    # Applied again among A and B alone: B beat A. Among C and D alone: C beat D.
    # (Straight to the seed instead, A would be above B.)
    assert names(rows) == ["B", "A", "C", "D"]
    assert [r.decided_by for r in rows] == ["", "head_to_head", "head_to_head", "head_to_head"]


def test_head_to_head_does_not_separate_teams_that_have_not_all_met():
    made = hall("ABCD", format="swiss", tiebreaks=["wins", "head_to_head", "point_difference"])
    results(made, [("A", "B", 52, 50), ("C", "D", 52, 20)])
    rows = event_standings(event=made.event)
    # A and C have a win each and never met: head-to-head says nothing (None), and the point
    # difference decides: C +32 above A +2; then B -2 above D -32.
    assert names(rows) == ["C", "A", "B", "D"]
    assert [r.head_to_head for r in rows] == [None, None, None, None]
    assert rows[1].decided_by == "point_difference"


# An eight-team Swiss after two rounds.
SWISS_8 = [
    (1, [("A", "B", 52, 30), ("C", "D", 52, 30), ("E", "F", 52, 30), ("G", "H", 52, 30)]),
    (2, [("A", "C", 52, 30), ("E", "G", 52, 30), ("D", "B", 52, 30), ("F", "H", 52, 30)]),
]


def test_opponents_wins_buchholz_in_a_swiss():
    made = hall("ABCDEFGH", format="swiss", tiebreaks=["wins", "buchholz"])
    for number, games in SWISS_8:
        results(made, games, round=number)
    rows = event_standings(event=made.event)
    # Wins: A 2, E 2; C, D, F, G 1; B, H 0. (Every game 52-30: point difference follows wins.)
    # Opponents' wins: A = B 0 + C 1 = 1; E = F 1 + G 1 = 2; C = D 1 + A 2 = 3;
    # G = H 0 + E 2 = 2; F = E 2 + H 0 = 2; D = C 1 + B 0 = 1; B = A 2 + D 1 = 3; H = G 1 + F 1 = 2.
    # So E above A; C, then F and G level (listed by seed, sharing 4th), then D; B above H.
    assert names(rows) == ["E", "A", "C", "F", "G", "D", "B", "H"]
    assert [r.buchholz for r in rows] == [2, 1, 3, 2, 2, 1, 3, 2]
    assert [r.place for r in rows] == [1, 2, 3, 4, 4, 6, 7, 8]
    assert [r.tied for r in rows] == [False, False, False, True, True, False, False, False]


def test_without_buchholz_the_same_swiss_falls_to_the_seeds():
    made = hall("ABCDEFGH", format="swiss", tiebreaks=["wins", "seed"])
    for number, games in SWISS_8:
        results(made, games, round=number)
    # Two wins: A, E; one: C, D, F, G; none: B, H; each group by seed.
    assert names(event_standings(event=made.event)) == ["A", "E", "C", "D", "F", "G", "B", "H"]


# Five teams, L entered late and played two games.
LATE_ENTRY = [
    (1, [("A", "B", 52, 30), ("C", "D", 52, 30)]),
    (2, [("A", "C", 52, 30), ("B", "D", 52, 30)]),
    (3, [("A", "D", 52, 30), ("L", "C", 52, 30)]),
    (4, [("L", "A", 52, 30), ("B", "C", 52, 30)]),
]


def test_win_percentage_ranks_a_late_entry_by_its_games():
    made = hall("ABCDL", tiebreaks=["win_pct", "wins"])
    for number, games in LATE_ENTRY:
        results(made, games, round=number)
    rows = event_standings(event=made.event)
    # L 2 of 2 (100%), A 3 of 4 (75%), B 2 of 3 (67%), C 1 of 4 (25%), D 0 of 3.
    assert names(rows) == ["L", "A", "B", "C", "D"]
    assert [(r.wins, r.games) for r in rows] == [(2, 2), (3, 4), (2, 3), (1, 4), (0, 3)]
    assert rows[0].win_pct == 1.0 and rows[1].win_pct == 0.75


def test_wins_first_puts_the_late_entry_below_a_team_with_more_wins():
    made = hall("ABCDL", tiebreaks=["wins", "win_pct"])
    for number, games in LATE_ENTRY:
        results(made, games, round=number)
    # A 3 wins; L and B 2 each, L's 100% above B's 67%; C 1; D 0.
    assert names(event_standings(event=made.event)) == ["A", "L", "B", "C", "D"]


def test_points_for_after_an_equal_point_difference():
    made = hall("ABCD", tiebreaks=["wins", "point_difference", "points_for"])
    results(made, [("A", "C", 52, 40), ("B", "D", 60, 48)])
    rows = event_standings(event=made.event)
    # A and B one win and +12 each: B scored 60, A 52. C and D -12 each: D scored 48, C 40.
    assert names(rows) == ["B", "A", "D", "C"]
    assert [r.points_for for r in rows] == [60, 52, 48, 40]


def test_without_points_for_equal_records_share_a_place_listed_by_seed():
    made = hall("ABCD", tiebreaks=["wins", "point_difference"])
    results(made, [("A", "C", 52, 40), ("B", "D", 60, 48)])
    rows = event_standings(event=made.event)
    assert names(rows) == ["A", "B", "C", "D"]
    assert [r.place for r in rows] == [1, 1, 3, 3]


def test_seed_as_a_tie_break_gives_every_team_its_own_place():
    made = hall("ABC", tiebreaks=["wins", "seed"])
    results(made, [("C", "A", 52, 40), ("A", "B", 52, 40), ("B", "C", 52, 40)])
    rows = event_standings(event=made.event)
    # One win each; the seeds A 1, B 2, C 3 decide, and the places are not shared.
    assert names(rows) == ["A", "B", "C"]
    assert [r.place for r in rows] == [1, 2, 3]
    assert rows[1].decided_by == "seed"


def test_byes_and_forfeits_count_as_wins_with_their_points():
    made = hall("ABC", format="swiss")
    result(made, "A", "B", 52, 0, kind="forfeit", round=1)
    bye(made, "C", 52, 38, round=1)
    rows = event_standings(event=made.event)
    # A won by forfeit 52-0 (+52); C had the bye, scored as 52-38 (+14); B lost 0-52.
    assert names(rows) == ["A", "C", "B"]
    assert [(r.wins, r.byes, r.points_for, r.points_against) for r in rows] == [
        (1, 0, 52, 0),
        (1, 1, 52, 38),
        (0, 0, 0, 52),
    ]


def test_a_withdrawn_team_keeps_its_games_and_is_marked():
    made = hall("ABC")
    results(made, [("B", "A", 52, 40), ("C", "B", 52, 50)])
    made["B"].status = "withdrawn"
    made["B"].save()
    rows = event_standings(event=made.event)
    # Wins: B 1, C 1, A 0; B's +12 -2 = +10 above C's +2.
    assert names(rows) == ["B", "C", "A"]
    assert [r.withdrawn for r in rows] == [True, False, False]


def test_a_pending_pairing_counts_for_nothing():
    made = hall("AB")
    result(made, "B", "A", 52, 40)
    pending = result(made, "A", "B", 52, 10, round=2)
    pending.result, pending.winner_side = "pending", ""
    pending.home_points = pending.away_points = None
    pending.save()
    rows = event_standings(event=made.event)
    assert [(r.name, r.games, r.wins) for r in rows] == [("B", 1, 1), ("A", 1, 0)]


def test_standings_before_a_round_leave_later_rounds_out():
    made = hall("AB")
    result(made, "A", "B", 52, 40, round=1)
    result(made, "B", "A", 52, 0, round=2)
    before_two = event_standings(event=made.event, before_round=2)
    assert [(r.name, r.wins) for r in before_two] == [("A", 1), ("B", 0)]
    # With round 2: one win each; B's -12 +52 = +40 above A's -40.
    assert names(event_standings(event=made.event)) == ["B", "A"]


@pytest.mark.django_db(databases=[])
def test_every_tie_break_an_organiser_can_choose_is_a_registered_metric():
    from tournaments.choices import Tiebreak
    from tournaments.standings import METRICS

    assert set(Tiebreak.values) == set(METRICS)


@pytest.mark.django_db(databases=[])
def test_an_unknown_metric_name_is_skipped_not_a_crash():
    from tournaments.standings import StandingsRow, rank

    rows = [
        StandingsRow(id=1, name="A", seed=2, wins=1),
        StandingsRow(id=2, name="B", seed=1, wins=1),
    ]
    # "retired" is no metric: the order falls to wins (level), then the listing by seed.
    assert [r.name for r in rank(rows, ["retired", "wins"])] == ["B", "A"]
