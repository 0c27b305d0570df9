"""Generation jobs: each format through the services, new draws before a round starts, and
refusals as sentences in the job."""

from __future__ import annotations

from itertools import combinations

import pytest

from kaiser_club.errors import Conflict, InvalidInput
from scoring.rules import Side
from tournaments import services
from tournaments.models import Entry, GenerationJob, Pairing, Round

from .helpers import generate, make_event, win_for, win_game

pytestmark = pytest.mark.django_db


def games(event, number):
    return list(
        Pairing.objects.filter(event=event, round__number=number, result="pending").order_by(
            "table__number"
        )
    )


def play_round(event, number, *, home_wins=True):
    for p in games(event, number):
        win_game(p.game_id, Side.NS if home_wins else Side.EW)


def test_swiss_pairs_each_round_without_rematch_and_by_score():
    event = make_event(teams=8, format="swiss", rounds=3)
    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        job = generate(event)
        assert (job.status, job.round_number) == ("done", number), job.error
        assert job.summary == f"Round {number}: 4 games."
        for p in games(event, number):
            pair = frozenset((p.home_id, p.away_id))
            assert pair not in met
            met.add(pair)
        services.round_start_unchecked(round_=Round.objects.get(event=event, number=number))
        play_round(event, number)
    # After three rounds where home always won, exactly one team has three wins.
    from tournaments.standings import event_standings

    table = event_standings(event=event)
    assert [row.wins for row in table] == [3, 2, 2, 2, 1, 1, 1, 0]
    event.refresh_from_db()
    assert event.status == "finished"
    with pytest.raises(InvalidInput, match="This event is finished"):
        services.generation_request(event=event)


def test_swiss_odd_field_gives_a_bye_that_scores_as_a_win():
    event = make_event(teams=5, format="swiss", rounds=2)
    generate(event)
    bye = Pairing.objects.get(event=event, result="bye")
    assert str(bye.home) == "Team 5"  # the lowest-ranked team without a bye
    services.round_start_unchecked(round_=bye.round)
    play_round(event, 1)
    generate(event)
    second_bye = Pairing.objects.get(event=event, round__number=2, result="bye")
    assert second_bye.home_id != bye.home_id


def test_no_valid_swiss_pairing_fails_the_job_with_a_sentence():
    event = make_event(teams=2, format="swiss", rounds=2)
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    play_round(event, 1)
    job = generate(event)
    assert (job.status, job.error) == (
        "failed",
        "No pairing for round 2 avoids a rematch: teams Team 1 and Team 2 have played "
        "everyone left.",
    )


def test_round_robin_meets_everyone_once_with_one_bye_each_in_an_odd_field():
    event = make_event(teams=5, format="round_robin")
    met: list[frozenset[int]] = []
    byes: list[int] = []
    for number in range(1, 6):
        job = generate(event)
        assert job.status == "done", job.error
        services.round_start_unchecked(round_=Round.objects.get(event=event, number=number))
        for p in Pairing.objects.filter(event=event, round__number=number):
            if p.result == "bye":
                byes.append(p.home_id or 0)
            else:
                met.append(frozenset((p.home_id or 0, p.away_id or 0)))
        play_round(event, number)
    ids = list(Entry.objects.filter(event=event).values_list("id", flat=True))
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in combinations(ids, 2)), key=sorted
    )
    assert sorted(byes) == sorted(ids)
    # "Rounds" was left blank: the event ends with its schedule's last game all the same.
    event.refresh_from_db()
    assert event.rounds is None and event.status == "finished"
    with pytest.raises(InvalidInput, match="This event is finished"):
        generate(event)


def test_a_round_can_be_drawn_again_until_it_starts():
    event = make_event(teams=4, format="swiss", seeding="random")
    generate(event)
    first_games = set(Pairing.objects.filter(event=event).values_list("game_id", flat=True))
    seeds = dict(Entry.objects.filter(event=event).values_list("id", "seed"))
    job = generate(event)
    assert (job.status, job.round_number) == ("done", 1)
    assert Round.objects.filter(event=event).count() == 1
    again = set(Pairing.objects.filter(event=event).values_list("game_id", flat=True))
    assert not first_games & again  # new games; the old ones are gone
    assert dict(Entry.objects.filter(event=event).values_list("id", "seed")) == seeds
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    job = generate(event)
    assert job.status == "failed" and "still being played" in job.error


def test_a_started_bracket_cannot_be_drawn_again():
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    job = generate(event)
    assert job.error == (
        "The bracket is under way: it advances by itself as games end. It can only be drawn "
        "again before its first round starts."
    )


def test_only_checked_in_teams_are_paired_when_the_event_asks():
    event = make_event(teams=4, format="swiss", check_in=True)
    job = generate(event)
    assert job.error == "Pairing needs at least two checked-in entries; this event has 0."
    for entry in Entry.objects.filter(event=event)[:3]:
        services.entry_check_in_unchecked(entry=entry)
    job = generate(event)
    assert job.summary == "Round 1: 1 game and 1 bye."


def test_one_generation_at_a_time():
    event = make_event(teams=4, format="swiss")
    services.generation_request(event=event)  # queued; its task waits for the commit
    with pytest.raises(Conflict, match="already queued"):
        services.generation_request(event=event)
    assert GenerationJob.objects.filter(event=event).count() == 1


def test_a_repeated_task_delivery_runs_the_job_once():
    event = make_event(teams=4, format="swiss")
    job = generate(event)
    services.generation_run(job_id=job.id)
    assert Round.objects.filter(event=event).count() == 1


def test_pools_then_a_knockout_of_the_top_two():
    event = make_event(teams=8, format="pools", pool_count=2, pool_advance=2)
    job = generate(event)
    assert job.summary == "Round 1 of 2 pools: 4 games.", job.error
    pools = dict(Entry.objects.filter(event=event).values_list("name", "pool"))
    assert sorted(v or 0 for v in pools.values()) == [1, 1, 1, 1, 2, 2, 2, 2]
    for number in (1, 2, 3):
        if number > 1:
            assert generate(event).status == "done"
        services.round_start_unchecked(round_=Round.objects.get(event=event, number=number))
        for p in games(event, number):
            assert pools[str(p.home)] == pools[str(p.away)]
            better = p.home if p.home.seed < p.away.seed else p.away
            win_for(p, better)
    job = generate(event)
    assert job.summary == "Knockout of 4 teams: 3 games in 2 rounds.", job.error
    semis = Pairing.objects.filter(event=event, code__startswith="W1").select_related(
        "home", "away"
    )
    for semi in semis:  # a pool winner meets the other pool's runner-up
        assert pools[str(semi.home)] != pools[str(semi.away)]
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=4))
    for semi in semis:
        win_for(semi, semi.home)
    final = Pairing.objects.get(event=event, code="W2-1")
    win_for(final, final.home)
    event.refresh_from_db()
    assert event.status == "finished"


def test_progressive_changes_partners_every_round():
    event = make_event(teams=9, format="progressive", rounds=3)
    partners: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        job = generate(event)
        assert job.summary == f"Round {number}: 2 tables; 1 sitting out.", job.error
        services.round_start_unchecked(round_=Round.objects.get(event=event, number=number))
        for p in games(event, number):
            for team in (p.home_team, p.away_team):
                pair = frozenset((team.player_one_id, team.player_two_id))
                assert pair not in partners
                partners.add(pair)
        play_round(event, number)
    from tournaments.standings import event_player_standings

    rows = event_player_standings(event=event)
    assert len(rows) == 9 and sum(r.games for r in rows) == 24
