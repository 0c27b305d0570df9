"""Elimination brackets as rows: generation, advancing on results, byes, the reset."""

from __future__ import annotations

import pytest

from scoring.models import Game
from scoring.rules import Side
from tournaments.models import Pairing, Round

from .helpers import generate, make_event, win_for, win_game

pytestmark = pytest.mark.django_db


def rows(event):
    return {p.code: p for p in Pairing.objects.filter(event=event).select_related("home", "away")}


def test_single_elimination_of_eight_generates_its_bracket_and_first_games():
    event = make_event(teams=8, format="single_elimination")
    job = generate(event)
    assert job.status == "done", job.error
    assert job.summary == "Bracket of 8 teams: 7 games in 3 rounds."
    bracket = rows(event)
    assert sorted(bracket) == ["W1-1", "W1-2", "W1-3", "W1-4", "W2-1", "W2-2", "W3-1"]
    assert [str(bracket["W1-1"].home), str(bracket["W1-1"].away)] == ["Team 1", "Team 8"]
    firsts = [bracket[f"W1-{i}"] for i in range(1, 5)]
    assert all(p.game_id and p.table_id for p in firsts)
    assert sorted(p.table.number for p in firsts) == [1, 2, 3, 4]
    assert bracket["W2-1"].game_id is None
    assert list(Round.objects.filter(event=event).values_list("number", flat=True)) == [1, 2, 3]


def test_winners_advance_and_the_next_game_starts_when_both_are_known():
    event = make_event(teams=8, format="single_elimination")
    generate(event)
    b = rows(event)
    win_for(b["W1-1"], b["W1-1"].home)  # seed 1
    w21 = Pairing.objects.get(event=event, code="W2-1")
    assert w21.home_id == b["W1-1"].home_id and w21.away_id is None and w21.game_id is None
    win_for(b["W1-2"], b["W1-2"].away)  # seed 5 beats seed 4
    w21.refresh_from_db()
    assert str(w21.away) == "Team 5"
    assert w21.game is not None and w21.home is not None
    assert w21.game.ns_team_id == w21.home.team_id
    first = Pairing.objects.get(id=b["W1-1"].id)
    assert (first.result, first.winner_side, first.home_points, first.away_points) == (
        "played",
        "home",
        60,
        0,
    )


def test_byes_put_the_top_seeds_straight_into_round_two():
    event = make_event(teams=6, format="single_elimination")
    job = generate(event)
    assert job.summary == "Bracket of 6 teams: 5 games in 3 rounds, 2 byes."
    b = rows(event)
    assert sorted(b) == ["W1-1", "W1-2", "W2-1", "W2-2", "W3-1"]
    assert str(b["W2-1"].home) == "Team 1" and b["W2-1"].home_seeded


def test_double_elimination_loser_drops_and_reset_only_when_the_loser_bracket_wins():
    event = make_event(teams=4, format="double_elimination")
    generate(event)
    b = rows(event)
    assert sorted(b) == ["GF", "GF2", "L1-1", "L2-1", "W1-1", "W1-2", "W2-1"]
    win_for(b["W1-1"], b["W1-1"].home)
    win_for(b["W1-2"], b["W1-2"].home)
    b = rows(event)
    assert {str(b["L1-1"].home), str(b["L1-1"].away)} == {"Team 4", "Team 3"}
    win_for(b["W2-1"], b["W2-1"].home)  # Team 1 wins the winners' final
    win_for(rows(event)["L1-1"], rows(event)["L1-1"].home)
    b = rows(event)
    win_for(b["L2-1"], b["L2-1"].home)
    b = rows(event)
    gf = b["GF"]
    assert str(gf.home) == "Team 1"
    win_game(gf.game_id, Side.EW)  # the losers' bracket champion wins: a reset
    b = rows(event)
    assert b["GF2"].game_id is not None and not b["GF2"].cancelled
    win_game(b["GF2"].game_id, Side.NS)
    event.refresh_from_db()
    assert event.status == "finished"


def test_reset_is_cancelled_when_the_winners_champion_takes_the_grand_final():
    event = make_event(teams=2, format="double_elimination")
    generate(event)
    b = rows(event)
    win_for(b["W1-1"], b["W1-1"].home)
    gf = rows(event)["GF"]
    win_game(gf.game_id, Side.NS)
    b = rows(event)
    assert b["GF2"].cancelled and b["GF2"].game_id is None
    event.refresh_from_db()
    assert event.status == "finished"


def test_a_result_that_fills_both_slots_of_the_next_match_opens_one_game():
    """The only result of a two-team bracket sends its winner and its loser to the grand
    final, and the grand final sends both on to the reset: each opens one game, and no game is
    left behind without a pairing."""
    event = make_event(teams=2, format="double_elimination")
    generate(event)
    w1 = rows(event)["W1-1"]
    win_for(w1, w1.away)  # the loser comes back in the grand final
    gf = rows(event)["GF"]
    assert gf.game_id is not None and {gf.home_id, gf.away_id} == {w1.home_id, w1.away_id}
    win_game(gf.game_id, Side.EW)  # the losers' bracket champion wins: the reset is played
    gf2 = rows(event)["GF2"]
    assert gf2.game_id is not None and (gf2.home_id, gf2.away_id) == (gf.away_id, gf.home_id)
    assert not Game.objects.filter(pairing__isnull=True).exists()
    assert Game.objects.count() == Pairing.objects.filter(game__isnull=False).count() == 3
    assert gf2.table is not None and gf2.table.number == 1
