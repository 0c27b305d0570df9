"""The results flow: forfeits, adjusted results, byes, games played late, corrections refused
once the winner played on, and the roll back that allows them."""

from __future__ import annotations

import uuid

import pytest
from django.test import TestCase

from kaiser_club.actors import Actor
from kaiser_club.errors import Conflict, InvalidInput
from kaiser_club.roles import Role
from scoring import services as scoring
from scoring.models import Game
from scoring.rules import Side
from tests.factories import member
from tournaments import services
from tournaments.models import Pairing, Rollback, Round
from tournaments.services.results import refresh_bye_points

from .helpers import game_of, generate, gid, make_event, win_for, win_game, winning_hand

pytestmark = pytest.mark.django_db


def code(event, name):
    return Pairing.objects.select_related("home", "away", "game").get(event=event, code=name)


def test_forfeit_gives_the_other_team_the_events_forfeit_score_and_advances_it():
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    first = code(event, "W1-1")
    services.pairing_forfeit_unchecked(pairing=first, forfeiting="home", reason="Did not arrive")
    first = code(event, "W1-1")
    assert (first.result, first.winner_side, first.home_points, first.away_points) == (
        "forfeit",
        "away",
        0,
        52,
    )
    assert first.game is not None
    assert (first.game.status, first.game.end_reason, first.game.winner) == (
        "finished",
        "forfeit",
        "ew",
    )
    assert code(event, "W2-1").home_id == first.away_id


def test_forfeit_score_is_the_events_own():
    event = make_event(teams=2, format="swiss", forfeit_winner_score=40, forfeit_loser_score=-10)
    generate(event)
    pairing = Pairing.objects.get(event=event, result="pending")
    services.pairing_forfeit_unchecked(pairing=pairing, forfeiting="away")
    pairing.refresh_from_db()
    assert (pairing.winner_side, pairing.home_points, pairing.away_points) == ("home", 40, -10)


def test_a_decided_game_cannot_be_forfeited():
    event = make_event(teams=2, format="swiss")
    generate(event)
    pairing = Pairing.objects.get(event=event)
    win_game(pairing.game_id)
    with pytest.raises(InvalidInput, match="already has a result"):
        services.pairing_forfeit_unchecked(pairing=pairing, forfeiting="away")


def test_adjusted_result_needs_a_reason_and_stands_over_the_game():
    event = make_event(teams=2, format="swiss")
    generate(event)
    pairing = Pairing.objects.get(event=event)
    win_game(pairing.game_id, Side.NS)
    with pytest.raises(InvalidInput, match="reason"):
        services.pairing_adjust_unchecked(
            pairing=pairing, winner="away", home_points=40, away_points=52, reason=" "
        )
    services.pairing_adjust_unchecked(
        pairing=pairing,
        winner="away",
        home_points=40,
        away_points=52,
        reason="Scorekeeper swapped the teams' scores on hand 3",
    )
    pairing.refresh_from_db()
    assert (pairing.result, pairing.winner_side, pairing.reason) == (
        "adjusted",
        "away",
        "Scorekeeper swapped the teams' scores on hand 3",
    )
    services.game_result_sync(game_id=gid(pairing))  # the game's own result is ignored now
    pairing.refresh_from_db()
    assert pairing.result == "adjusted"


def test_adjusted_winner_needs_the_higher_score():
    event = make_event(teams=2, format="swiss")
    generate(event)
    pairing = Pairing.objects.get(event=event)
    with pytest.raises(InvalidInput, match="higher score"):
        services.pairing_adjust_unchecked(
            pairing=pairing, winner="home", home_points=10, away_points=52, reason="x"
        )


def test_a_bye_scores_the_rounds_average_winning_and_losing_scores_until_changed():
    event = make_event(teams=5, format="swiss")
    generate(event)
    bye = Pairing.objects.get(event=event, result="bye")
    assert (bye.home_points, bye.away_points) == (None, None)  # no game finished yet
    games = list(Pairing.objects.filter(event=event, result="pending").order_by("table__number"))
    win_game(games[0].game_id, Side.NS)  # 60-0
    scoring.hand_record(game_id=gid(games[1]), entry=winning_hand(Side.EW), client_id=uuid.uuid4())
    scoring.game_forfeit(game_id=gid(games[1]), forfeited_by=Side.NS)
    services.game_result_sync(game_id=gid(games[1]))  # a forfeit does not count in averages
    bye.refresh_from_db()
    assert (bye.result, bye.winner_side, bye.home_points, bye.away_points) == ("bye", "home", 60, 0)
    services.pairing_set_bye_points_unchecked(pairing=bye, points_for=52, points_against=30)
    bye.refresh_from_db()
    assert (bye.home_points, bye.away_points, bye.points_set_by_organiser) == (52, 30, True)


def test_a_byes_averages_go_to_the_nearest_point_a_half_to_the_even_one():
    event = make_event(teams=5, format="swiss")
    generate(event)
    bye = Pairing.objects.get(event=event, result="bye")
    first, second = Pairing.objects.filter(event=event, result="pending").order_by("id")
    Pairing.objects.filter(id=first.id).update(result="played", home_points=25, away_points=3)
    Pairing.objects.filter(id=second.id).update(result="played", home_points=4, away_points=28)
    refresh_bye_points(round_id=bye.round_id)  # winning 26.5, losing 3.5 (docs/rules.md)
    bye.refresh_from_db()
    assert (bye.home_points, bye.away_points) == (26, 4)


def test_a_game_played_late_lets_the_next_round_be_generated():
    event = make_event(teams=4, format="swiss")
    generate(event)
    first, second = Pairing.objects.filter(event=event).order_by("table__number")
    services.pairing_mark_late_unchecked(pairing=second)
    services.round_start_unchecked(round_=first.round)
    assert game_of(second).started_at is None  # its clock waits
    assert game_of(first).started_at is not None
    win_for(first, first.home)
    job = generate(event)
    assert job.status == "done", job.error
    assert job.summary.startswith("Round 2: 2 games")
    win_for(Pairing.objects.get(id=second.id), second.away)  # counts when it ends
    second.refresh_from_db()
    assert second.result == "played"


def test_the_next_round_waits_for_results():
    event = make_event(teams=4, format="swiss")
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    job = generate(event)
    assert job.status == "failed"
    assert job.error == (
        "Round 1 is still being played (tables 1, 2). Record those results, or mark the games "
        "as played late, then generate again."
    )


def _bracket_with_next_game_started():
    event = make_event(teams=4, format="double_elimination")
    generate(event)
    w11 = code(event, "W1-1")
    win_for(w11, w11.home)
    w12 = code(event, "W1-2")
    win_for(w12, w12.home)
    w21 = code(event, "W2-1")
    scoring.hand_record(game_id=w21.game_id, entry=winning_hand(Side.NS), client_id=uuid.uuid4())
    return event, w11


def test_correcting_a_game_whose_winner_played_on_is_refused_naming_the_later_games():
    _event, w11 = _bracket_with_next_game_started()
    losing = winning_hand(Side.EW)
    with pytest.raises(Conflict) as refused:  # 40-20 after the correction: no winner yet
        scoring.hand_correct(game_id=w11.game_id, number=1, entry=losing)
    assert str(refused.value) == (
        "Game W1-1 cannot change its winner: the teams have already played on in W2-1 at "
        "table 1 (in progress, 20–0 after 1 hand). Roll that game back first, after "
        "checking what it undoes, then change the result."
    )
    assert [g["code"] for g in refused.value.extra["later_games"]] == ["W2-1"]


def test_a_correction_that_keeps_the_winner_is_allowed():
    _event, w11 = _bracket_with_next_game_started()
    entry = winning_hand(Side.NS)
    game = scoring.hand_correct(game_id=w11.game_id, number=1, entry=entry, reason="time typo")
    assert (game.status, game.winner) == ("finished", "ns")
    corrected = game.changes.get(action="correct")
    assert (corrected.hand_number, corrected.reason) == (1, "time typo")


def test_undo_of_a_finished_game_whose_winner_played_on_is_refused():
    _event, w11 = _bracket_with_next_game_started()
    with pytest.raises(Conflict, match="W2-1"):
        scoring.hand_undo(game_id=w11.game_id)


def test_undo_before_the_next_game_started_takes_the_next_game_back():
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    for name in ("W1-1", "W1-2"):
        p = code(event, name)
        win_for(p, p.home)
    final = code(event, "W2-1")
    assert final.game_id is not None

    with TestCase.captureOnCommitCallbacks(execute=True):
        scoring.hand_undo(game_id=code(event, "W1-1").game_id)
    final = code(event, "W2-1")
    assert (final.home_id, final.game_id) == (None, None)
    assert not Game.objects.filter(id=code(event, "W1-1").game_id, status="finished").exists()


def test_roll_back_shows_what_it_undoes_then_lets_the_correction_through():
    event, w11 = _bracket_with_next_game_started()
    preview = services.rollback_preview(pairing=w11)
    assert [(p["code"], p["hands"]) for p in preview] == [("L1-1", 0), ("W2-1", 1)]
    old_w21_game = code(event, "W2-1").game_id
    organiser = Actor.of(member(event.club, Role.ORGANISER))
    for number in (1, 2, 3):
        with TestCase.captureOnCommitCallbacks(execute=True):
            scoring.hand_correct_by(
                actor=organiser,
                game=game_of(w11),
                number=number,
                entry=winning_hand(Side.EW),
                reason="The scorekeeper entered the teams the wrong way round",
                roll_back=True,
            )
    w11 = code(event, "W1-1")
    assert (w11.winner_side, w11.home_points, w11.away_points) == ("away", 0, 60)
    w21, l11 = code(event, "W2-1"), code(event, "L1-1")
    assert w21.home_id == w11.away_id and w21.game_id not in (None, old_w21_game)
    assert l11.home_id == w11.home_id or l11.away_id == w11.home_id
    assert Game.objects.filter(id=old_w21_game).exists()  # kept in scoring's history
    rollback = Rollback.objects.get(event=event)
    assert [g["code"] for g in rollback.undone] == ["L1-1", "W2-1"]


def test_standalone_roll_back_recreates_the_next_games_with_the_same_teams():
    event, w11 = _bracket_with_next_game_started()
    before = code(event, "W2-1")
    undone = services.pairing_rollback_unchecked(pairing=w11, reason="checking")
    assert [u["code"] for u in undone] == ["L1-1", "W2-1"]
    after = code(event, "W2-1")
    assert (after.home_id, after.away_id) == (before.home_id, before.away_id)
    assert after.game_id != before.game_id and after.game is not None
    assert after.game.hand_count == 0
