"""A Swiss or round robin, then a knockout of its top N, in one event: who goes on, how they
are seeded, and the placings every surface shows (the knockout's places, then the others by
the first stage)."""

from __future__ import annotations

import datetime as dt
import uuid
from typing import Any

import pytest
from django.core.cache import cache
from django.test import TestCase

from kaiser_club.errors import InvalidInput
from scoring import services as scoring
from scoring.rules import Side
from tournaments import services
from tournaments.models import Entry, Event, Pairing, Round
from tournaments.standings import event_standings, event_tables
from tournaments.standings.placings import after_first_stage
from tournaments.standings.rows import StandingsRow

from .helpers import generate, make_event, new_club, win_for, win_game, winning_hand
from .test_placings_cases import on_every_surface, play, seed

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def play_first_stage(event: Event, winner: Any = None) -> None:
    """Generates and plays the first stage's rounds until the next step is the knockout."""
    while True:
        job = generate(event)
        assert job.status == "done", job.error
        if job.summary.startswith("Knockout"):
            return
        services.round_start_unchecked(
            round_=Round.objects.get(event=event, number=job.round_number)
        )
        play(event, winner)


def knockout_first_round(event: Event) -> list[tuple[str, str]]:
    rows = Pairing.objects.filter(event=event, code__startswith="W1-").select_related(
        "home", "away"
    )
    return [(str(row.home), str(row.away)) for row in rows.order_by("match_number")]


def start_knockout(event: Event) -> None:
    """Starts the knockout's first round (its later games open as results come in)."""
    first = Pairing.objects.filter(event=event, match_number__isnull=False).order_by(
        "round__number"
    )[0]
    services.round_start_unchecked(round_=first.round)


def test_round_robin_then_a_knockout_of_four_placed_on_every_surface():
    """Six teams, the better seed wins every game: the round robin ranks them 1 to 6; seeds 1
    to 4 go on (1 v 4, 2 v 3); 5 and 6 keep their round-robin places below the knockout's."""
    event = make_event(teams=6, format="round_robin_knockout", knockout_size=4)
    play_first_stage(event)
    assert Round.objects.filter(event=event).count() == 5 + 2  # five rounds, semis, final
    assert knockout_first_round(event) == [("Team 1", "Team 4"), ("Team 2", "Team 3")]
    start_knockout(event)
    play(event)
    event.refresh_from_db()
    assert event.status == "finished"
    expected = [
        ("1", "Team 1"),
        ("2", "Team 2"),
        ("3=", "Team 3"),
        ("3=", "Team 4"),
        ("5", "Team 5"),
        ("6", "Team 6"),
    ]
    on_every_surface(event, expected)
    tables = event_tables(event=event)
    assert tables.kind == "staged" and tables.knockout
    # The round robin's own table counts its games alone: Team 1 won its five there.
    assert [(row.name, row.wins) for row in tables.first_stage][:2] == [
        ("Team 1", 5),
        ("Team 2", 4),
    ]


def test_swiss_then_a_double_elimination_of_the_swiss_top_four():
    event = make_event(
        teams=8,
        format="swiss_knockout",
        rounds=3,
        knockout_size=4,
        knockout_kind="double_elimination",
    )
    # Before a game is played every team is placed by the Swiss alone.
    assert event_tables(event=event).kind == "staged"
    play_first_stage(event)
    swiss = [row.name for row in event_standings(event=event, first_stage=True)]
    assert knockout_first_round(event) == [(swiss[0], swiss[3]), (swiss[1], swiss[2])]
    assert Pairing.objects.filter(event=event, stage="grand_final").count() == 1
    start_knockout(event)
    play(event)
    event.refresh_from_db()
    assert event.status == "finished"
    placings = [(row.place_text, row.name) for row in event_tables(event=event).placings]
    assert {name for _, name in placings[:4]} == set(swiss[:4])
    assert [place for place, _ in placings[:4]] == ["1", "2", "3", "4"]
    # The four that did not go on, in the Swiss's order, placed 5th to 8th.
    assert [name for _, name in placings[4:]] == swiss[4:]
    assert all(int(place.rstrip("=")) >= 5 for place, _ in placings[4:])


def win_by(pairing: Pairing, winner: Entry, conceded: int) -> None:
    """``winner`` wins the pairing's game after the loser scored ``conceded`` hands of 20."""
    assert pairing.game_id is not None
    side = Side.NS if pairing.home_id == winner.id else Side.EW
    other = Side.EW if side is Side.NS else Side.NS
    with TestCase.captureOnCommitCallbacks(execute=True):
        for _ in range(conceded):
            scoring.hand_record(
                game_id=pairing.game_id, entry=winning_hand(other), client_id=uuid.uuid4()
            )
    win_game(pairing.game_id, side)


def test_a_tie_at_the_cut_is_decided_by_the_tiebreaks_not_the_seeds():
    """Four teams, two go on. Team 1 wins all three; Teams 2, 3 and 4 win one each (2 beat 3,
    3 beat 4, 4 beat 2), level on wins. Point difference then puts Team 4 (-20) ahead of
    Team 3 (-60) and Team 2 (-100): Team 4 goes on, though seeded below Team 2."""
    event = make_event(teams=4, format="round_robin_knockout", knockout_size=2)
    margins = {  # (winner, loser): hands of 20 the loser scored before losing
        ("Team 2", "Team 3"): 2,
        ("Team 3", "Team 4"): 2,
        ("Team 4", "Team 2"): 0,
    }

    def result(pairing: Pairing) -> None:
        assert pairing.home is not None and pairing.away is not None
        names = {pairing.home.name: pairing.home, pairing.away.name: pairing.away}
        for (winner, loser), conceded in margins.items():
            if {winner, loser} == set(names):
                win_by(pairing, names[winner], conceded)
                return
        win_for(pairing, min(pairing.home, pairing.away, key=seed))

    while True:
        job = generate(event)
        assert job.status == "done", job.error
        if job.summary.startswith("Knockout"):
            break
        services.round_start_unchecked(
            round_=Round.objects.get(event=event, number=job.round_number)
        )
        for pairing in Pairing.objects.filter(
            event=event, round__number=job.round_number, result="pending"
        ).select_related("home", "away"):
            result(pairing)
    stage = event_standings(event=event, first_stage=True)
    assert [(row.name, row.wins, row.point_difference) for row in stage] == [
        ("Team 1", 3, 180),
        ("Team 4", 1, -20),
        ("Team 3", 1, -60),
        ("Team 2", 1, -100),
    ]
    assert [row.decided_by for row in stage[1:]] == ["wins", "point_difference", "point_difference"]
    assert knockout_first_round(event) == [("Team 1", "Team 4")]
    start_knockout(event)
    play(event, lambda p: p.away)  # Team 4 wins the final
    placings = [(row.place_text, row.name) for row in event_tables(event=event).placings]
    assert placings == [("1", "Team 4"), ("2", "Team 1"), ("3", "Team 3"), ("4", "Team 2")]


def test_a_knockout_larger_than_the_field_is_refused_before_the_first_round():
    event = make_event(teams=6, format="swiss_knockout", rounds=3, knockout_size=8)
    job = generate(event)
    assert job.status == "failed"
    assert job.error == (
        "The knockout takes 8 teams, but only 6 would play the first stage. Lower the "
        "knockout's size in the event's settings, or enter more teams."
    )
    assert not Round.objects.filter(event=event).exists()


def test_a_withdrawn_team_does_not_go_on_and_the_next_one_does():
    event = make_event(teams=5, format="round_robin_knockout", knockout_size=2)
    play_first_stage(event)
    assert knockout_first_round(event) == [("Team 1", "Team 2")]
    # The round robin's second withdraws before the final starts: the final is drawn again.
    Entry.objects.filter(event=event, name="Team 2").update(status="withdrawn")
    job = generate(event)
    assert job.status == "done", job.error
    assert knockout_first_round(event) == [("Team 1", "Team 3")]


def test_the_settings_say_what_a_staged_event_needs():
    club = new_club()

    def create(**settings: Any) -> Event:
        return services.event_create(club=club, name="Open", date=dt.date(2026, 12, 12), **settings)

    with pytest.raises(InvalidInput) as refused:
        create(format="swiss_knockout", rounds=3)
    assert refused.value.message == "Say how many teams go on from the first stage to the knockout."
    assert "knockout_size" in refused.value.field_errors
    with pytest.raises(InvalidInput) as refused:
        create(format="swiss_knockout", knockout_size=4)
    assert refused.value.message == "Say how many Swiss rounds are played before the knockout."
    with pytest.raises(InvalidInput) as refused:
        create(format="round_robin_knockout", knockout_size=1)
    assert refused.value.message == "Between 2 and 256 teams go on to the knockout."
    with pytest.raises(InvalidInput) as refused:
        create(format="round_robin_knockout", knockout_size=8, capacity=6)
    assert refused.value.message == ("The knockout takes 8 teams, more than the event's 6 places.")
    event = create(format="round_robin_knockout", knockout_size=6)  # not a power of two
    assert (event.knockout_size, event.knockout_kind) == (6, "single_elimination")


def test_the_knockout_size_is_fixed_once_the_first_round_exists():
    event = make_event(teams=4, format="round_robin_knockout", knockout_size=2)
    generate(event)
    with pytest.raises(InvalidInput) as refused:
        services.event_update_unchecked(event=event, knockout_size=4)
    assert "knockout size" in refused.value.message


def row(name: str, place: int, placing: tuple[int, int]) -> StandingsRow:
    tied = placing[0] != placing[1]
    return StandingsRow(id=ord(name), name=name, place=place, placing=placing, tied=tied)


def test_placings_after_the_first_stage_keep_its_shared_places():
    """The knockout's two, then the Swiss's others: two that shared 3rd in the Swiss share a
    band, the rest one place each."""
    knockout = [row("A", 1, (1, 1)), row("C", 2, (2, 2))]
    stage = [
        row("A", 1, (1, 1)),
        row("B", 2, (2, 2)),
        row("C", 3, (3, 4)),
        row("D", 3, (3, 4)),
        row("E", 5, (5, 5)),
    ]
    placed = after_first_stage(knockout, stage)
    assert [(r.name, r.place_text) for r in placed] == [
        ("A", "1"),
        ("C", "2"),
        ("B", "3"),
        ("D", "4"),
        ("E", "5"),
    ]
    tied = [row("X", 1, (1, 2)), row("Y", 1, (1, 2)), row("Z", 3, (3, 3))]
    assert [(r.name, r.place_text) for r in after_first_stage([], tied)] == [
        ("X", "1="),
        ("Y", "1="),
        ("Z", "3"),
    ]
