"""Rounds: every clock starts at once; pause, resume and add minutes for one game or the whole
round; swaps before the start; and the beat sweep calling time with no client connected."""

from __future__ import annotations

import uuid
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from kaiser_club.errors import InvalidInput
from scoring import services as scoring
from scoring.models import Game
from scoring.rules import Side
from scoring.tasks import clock_sweep_task
from tournaments import services
from tournaments.models import Entry, Pairing, Round

from .helpers import game_of, generate, make_event, winning_hand

pytestmark = pytest.mark.django_db


def round_games(event, number=1):
    return list(Game.objects.filter(pairing__round__event=event, pairing__round__number=number))


def at(moment):
    """Moves 'now' for the services (the sweep, the clock) to ``moment``."""
    return mock.patch("django.utils.timezone.now", return_value=moment)


def test_start_round_starts_every_clock_at_the_same_instant():
    event = make_event(teams=8, format="swiss")
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    assert all(g.started_at is None for g in round_games(event))
    services.round_start_unchecked(round_=round_)
    starts = {g.started_at for g in round_games(event)}
    assert len(starts) == 1 and None not in starts
    assert {g.time_limit_minutes for g in round_games(event)} == {60}
    round_.refresh_from_db()
    assert round_.status == "started"
    with pytest.raises(InvalidInput, match="already started"):
        services.round_start_unchecked(round_=round_)


def test_minutes_per_game_override_reaches_the_games():
    event = make_event(teams=2, format="swiss", minutes_per_game=45)
    generate(event)
    assert {g.time_limit_minutes for g in round_games(event)} == {45}


def test_the_sweep_calls_time_on_every_game_of_the_round_with_no_client_connected():
    event = make_event(teams=4, format="swiss")
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    start = timezone.now()
    with at(start):
        services.round_start_unchecked(round_=round_)
    first, second = round_games(event)
    with at(start + timedelta(minutes=20)):
        scoring.hand_record(game_id=first.id, entry=winning_hand(Side.NS), client_id=uuid.uuid4())
    with at(start + timedelta(minutes=59, seconds=59)):
        assert clock_sweep_task() == []
    with at(start + timedelta(minutes=60, seconds=1)):
        called = clock_sweep_task()
    assert sorted(called) == sorted([first.id, second.id])
    deadline = start + timedelta(minutes=60)
    for game in round_games(event):
        assert game.time_called_at == deadline
    with at(start + timedelta(minutes=61)):
        assert clock_sweep_task() == []  # idempotent
    # The hand in play is finished after the call; the higher score then wins on time.
    with at(start + timedelta(minutes=65)):
        scoring.hand_record(game_id=first.id, entry=winning_hand(Side.NS), client_id=uuid.uuid4())
    first.refresh_from_db()
    assert (first.status, first.winner, first.end_reason) == ("finished", "ns", "time")


def test_pausing_the_round_stops_the_sweep_and_resuming_moves_every_deadline():
    event = make_event(teams=4, format="swiss")
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    start = timezone.now()
    with at(start):
        services.round_start_unchecked(round_=round_)
    with at(start + timedelta(minutes=30)):
        assert services.round_pause_unchecked(round_=round_) == 2
    with at(start + timedelta(minutes=90)):
        assert clock_sweep_task() == []  # paused: nothing is called
        assert services.round_resume_unchecked(round_=round_) == 2
    deadlines = {g.deadline for g in round_games(event)}
    assert deadlines == {start + timedelta(minutes=120)}
    with at(start + timedelta(minutes=119)):
        assert clock_sweep_task() == []
    with at(start + timedelta(minutes=121)):
        assert len(clock_sweep_task()) == 2


def test_add_minutes_to_the_whole_round_or_one_game():
    event = make_event(teams=4, format="swiss")
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    start = timezone.now()
    with at(start):
        services.round_start_unchecked(round_=round_)
    assert services.round_add_minutes_unchecked(round_=round_, minutes=5) == 2
    one = Pairing.objects.filter(event=event).order_by("table__number").first()
    assert one is not None
    services.pairing_clock_unchecked(pairing=one, action="add", minutes=10)
    deadlines = sorted(g.deadline for g in round_games(event))
    assert deadlines == [start + timedelta(minutes=65), start + timedelta(minutes=75)]
    with at(start + timedelta(minutes=70)):
        assert clock_sweep_task() == [g.id for g in round_games(event) if g.id != one.game_id]


def test_a_worker_that_was_down_calls_time_at_the_deadline_not_when_it_wakes():
    event = make_event(teams=2, format="swiss")
    generate(event)
    start = timezone.now()
    with at(start):
        services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    with at(start + timedelta(hours=5)):
        clock_sweep_task()
    game = round_games(event)[0]
    assert game.time_called_at == start + timedelta(minutes=60)


def test_one_games_clock_pause_and_resume():
    event = make_event(teams=2, format="swiss")
    generate(event)
    pairing = Pairing.objects.get(event=event)
    services.pairing_clock_unchecked(pairing=pairing, action="start")
    services.pairing_clock_unchecked(pairing=pairing, action="pause")
    assert game_of(pairing).paused_at is not None
    services.pairing_clock_unchecked(pairing=pairing, action="resume")
    assert game_of(pairing).paused_at is None
    with pytest.raises(InvalidInput, match="Unknown clock action"):
        services.pairing_clock_unchecked(pairing=pairing, action="stop")


def test_swap_tables_and_teams_before_the_start_only():
    event = make_event(teams=4, format="swiss")
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    a, b = Pairing.objects.filter(event=event).select_related("table").order_by("table__number")
    services.round_swap_tables_unchecked(round_=round_, first=a, second=b)
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.table is not None and b.table is not None
    assert (a.table.number, b.table.number) == (2, 1)
    old_games = {a.game_id, b.game_id}
    first, second = a.home, b.home
    assert first is not None and second is not None
    services.round_swap_teams_unchecked(round_=round_, first=first, second=second)
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.home_id, b.home_id) == (second.id, first.id)
    assert not {a.game_id, b.game_id} & old_games
    assert game_of(a).ns_team_id == second.team_id
    services.round_start_unchecked(round_=round_)
    with pytest.raises(InvalidInput, match="has started"):
        services.round_swap_tables_unchecked(round_=round_, first=a, second=b)
    with pytest.raises(InvalidInput, match="has started"):
        services.round_swap_teams_unchecked(round_=round_, first=first, second=second)


def test_swapping_two_teams_of_one_game_swaps_their_seats():
    event = make_event(teams=2, format="swiss")
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    pairing = Pairing.objects.get(event=event)
    home, away = pairing.home, pairing.away
    assert home is not None and away is not None
    services.round_swap_teams_unchecked(round_=round_, first=home, second=away)
    pairing.refresh_from_db()
    assert (pairing.home_id, pairing.away_id) == (away.id, home.id)


def test_the_round_lists_the_tables_still_playing():
    from tournaments.selectors import still_playing

    from .helpers import win_for

    event = make_event(teams=6, format="swiss")
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    services.round_start_unchecked(round_=round_)
    first = Pairing.objects.filter(event=event).order_by("table__number").first()
    assert first is not None
    win_for(first, first.home)
    assert [p.table.number if p.table else 0 for p in still_playing(round_=round_)] == [2, 3]
    for p in still_playing(round_=round_):
        win_for(p, p.away)
    round_.refresh_from_db()
    assert round_.status == "finished"
    assert Entry.objects.filter(event=event).count() == 6


def test_a_match_waiting_for_its_teams_is_not_still_playing(client):
    """A bracket's later round holds pairings without teams or a game yet: the round's
    'still playing' part lists none of them and answers (it once compared an empty score)."""
    from kaiser_club.roles import Role
    from tests.factories import member
    from tournaments.selectors import still_playing

    event = make_event(teams=8, format="single_elimination")
    generate(event)
    later = Round.objects.get(event=event, number=2)
    assert Pairing.objects.filter(round=later, game__isnull=True, result="pending").exists()
    assert list(still_playing(round_=later)) == []
    client.force_login(member(event.club, Role.ORGANISER))
    answer = client.get(f"/events/{event.id}/rounds/2/playing/")
    assert answer.status_code == 200
    assert answer.context["playing"].count() == 0
