"""Standings of each kind of event: elimination placings (through real brackets), pools,
individual standings of a progressive event, a season's leaderboard; and games as they are
really played: a win on time, a game in progress, a hand waiting for confirmation."""

from __future__ import annotations

import dataclasses
import datetime as dt
import uuid
from typing import cast

import pytest
from django.test import TestCase
from django.utils import timezone

from kaiser_club.models import Player
from scoring import services as scoring
from scoring.models import Team
from scoring.rules import Seat, Side
from scoring.services.hands import hand_record
from tests.factories import PlayerFactory
from tournaments import services
from tournaments.models import Entry, Event, Pairing, Round
from tournaments.standings import (
    event_placings,
    event_player_standings,
    event_standings,
    pool_standings,
    season_leaderboard,
)
from tournaments.standings.placings import BracketMatch, placings

from .helpers import generate, make_event, win_for
from .public.world import hall, hand, record, result

pytestmark = pytest.mark.django_db


def play_out(event: Event) -> None:
    """Plays every game that can be played, the better seed winning each, until none is left."""
    while True:
        ready = list(
            Pairing.objects.filter(
                event=event, game__isnull=False, result="pending", cancelled=False
            ).select_related("home", "away")
        )
        if not ready:
            return
        for pairing in ready:
            assert pairing.home is not None and pairing.away is not None
            better = min(pairing.home, pairing.away, key=lambda e: e.seed or 0)
            win_for(pairing, better)


def placed(event: Event) -> list[tuple[str, tuple[int, int] | None]]:
    return [(row.name, row.placing) for row in event_placings(event=event)]


def test_single_elimination_of_eight_gives_1st_2nd_3rd_4th_and_5th_8th():
    event = make_event(teams=8, format="single_elimination")
    generate(event)
    play_out(event)
    # Seeds win every game: quarter-finals 1-8, 4-5, 2-7, 3-6 eliminate 8, 5, 7, 6 (5th-8th);
    # the semi-finals 1-4 and 2-3 eliminate 4 and 3 (3rd-4th); seed 1 beats seed 2 in the final.
    assert placed(event) == [
        ("Team 1", (1, 1)),
        ("Team 2", (2, 2)),
        ("Team 3", (3, 4)),
        ("Team 4", (3, 4)),
        ("Team 5", (5, 8)),
        ("Team 6", (5, 8)),
        ("Team 7", (5, 8)),
        ("Team 8", (5, 8)),
    ]


def test_placings_while_the_bracket_is_still_being_played():
    event = make_event(teams=8, format="single_elimination")
    generate(event)
    first = Pairing.objects.select_related("home", "away").get(event=event, code="W1-1")
    assert first.away is not None
    win_for(first, first.away)  # seed 8 beats seed 1
    # Seed 1 is out, already 5th-8th; everyone else is still playing (no placing yet), listed
    # first, by seed, with seed 8's win.
    rows = event_placings(event=event)
    assert (rows[-1].name, rows[-1].placing) == ("Team 1", (5, 8))
    assert [r.name for r in rows[:7]] == ["Team 8", *(f"Team {n}" for n in range(2, 8))]
    assert all(r.placing is None for r in rows[:7])


def test_a_third_place_game_separates_3rd_from_4th():
    event = make_event(teams=4, format="single_elimination", third_place=True)
    generate(event)
    rows = {p.code: p for p in Pairing.objects.filter(event=event).select_related("home", "away")}
    win_for(rows["W1-1"], rows["W1-1"].home)  # 1 beats 4
    win_for(rows["W1-2"], rows["W1-2"].home)  # 2 beats 3
    third = Pairing.objects.select_related("home", "away").get(event=event, stage="third_place")
    final = Pairing.objects.select_related("home", "away").get(event=event, code="W2-1")
    loser_three = third.home if third.home and third.home.name == "Team 3" else third.away
    four = third.away if loser_three == third.home else third.home
    assert four is not None and final.away is not None
    win_for(third, four)  # seed 4 beats seed 3 for third place
    win_for(final, final.away)  # seed 2 beats seed 1 in the final
    assert placed(event) == [
        ("Team 2", (1, 1)),
        ("Team 1", (2, 2)),
        ("Team 4", (3, 3)),
        ("Team 3", (4, 4)),
    ]


def test_double_elimination_of_eight_places_by_the_losers_bracket():
    event = make_event(teams=8, format="double_elimination")
    generate(event)
    play_out(event)
    # Seeds win every game. Winners' bracket: 5-8 drop after round 1, 3 and 4 after round 2,
    # 2 after the final. Losers' round 1 (5 v 8, 6 v 7) eliminates 8 and 7: 7th-8th. Round 2
    # (the dropped 4 and 3 against 5 and 6) eliminates 5 and 6: 5th-6th. Round 3 (3 v 4)
    # eliminates 4: 4th. The losers' final (2 v 3) eliminates 3: 3rd. Seed 1 wins the grand
    # final, so the reset is not played: 1st seed 1, 2nd seed 2.
    assert placed(event) == [
        ("Team 1", (1, 1)),
        ("Team 2", (2, 2)),
        ("Team 3", (3, 3)),
        ("Team 4", (4, 4)),
        ("Team 5", (5, 6)),
        ("Team 6", (5, 6)),
        ("Team 7", (7, 8)),
        ("Team 8", (7, 8)),
    ]
    assert Pairing.objects.get(event=event, stage="grand_final_reset").cancelled


def test_placings_from_the_shape_alone():
    # Six teams, single elimination: two first-round games (seeds 1 and 2 have byes), two
    # semi-finals, the final. The first-round losers share 5th-6th.
    matches = [
        BracketMatch(1, "winners", 1, feeds_winner=True, winner=4, loser=5, winner_goes_on=True),
        BracketMatch(2, "winners", 1, feeds_winner=True, winner=3, loser=6, winner_goes_on=True),
        BracketMatch(3, "winners", 2, feeds_winner=True, winner=1, loser=4, winner_goes_on=True),
        BracketMatch(4, "winners", 2, feeds_winner=True, winner=3, loser=2, winner_goes_on=True),
        BracketMatch(5, "winners", 3, winner=3, loser=1),
    ]
    assert placings(matches) == {5: (5, 6), 6: (5, 6), 4: (3, 4), 2: (3, 4), 3: (1, 1), 1: (2, 2)}


def test_pool_standings_rank_each_pool_in_the_same_queries(django_assert_num_queries):
    made = hall("ABCDEF", format="pools", pool_count=2, pool_advance=1)
    for name in "ABC":
        Entry.objects.filter(id=made[name].id).update(pool=1)
    for name in "DEF":
        Entry.objects.filter(id=made[name].id).update(pool=2)
    for home, away, hp, ap, pool in [
        ("B", "A", 52, 40, 1),
        ("B", "C", 52, 50, 1),
        ("A", "C", 52, 10, 1),
        ("D", "E", 52, 51, 2),
        ("F", "D", 52, 20, 2),
        ("E", "F", 52, 49, 2),
    ]:
        result(made, home, away, hp, ap, pool=pool)
    with django_assert_num_queries(3):
        pools = pool_standings(event=made.event)
    # Pool 1: B 2 wins; A 1 (beat C); C 0. Pool 2: one win each (a circle); point difference
    # F +32 -3 = +29, D +1 -32 = -31, E -1 +3 = +2: F, E, D.
    assert {n: [r.name for r in rows] for n, rows in pools.items()} == {
        1: ["B", "A", "C"],
        2: ["F", "E", "D"],
    }


def _players(*names: str) -> dict[str, Player]:
    return {name: cast(Player, PlayerFactory(name=name)) for name in names}


def _team(club, one: Player, two: Player) -> Team:
    return Team.objects.create(club=club, player_one=one, player_two=two)


def _partnership_game(event, number, home, away, hp, ap):
    club = event.club
    round_, _ = Round.objects.get_or_create(event=event, number=number)
    return Pairing.objects.create(
        event=event,
        round=round_,
        home_team=_team(club, *home),
        away_team=_team(club, *away),
        result="played",
        winner_side="home" if hp > ap else "away",
        home_points=hp,
        away_points=ap,
    )


def test_individual_standings_of_a_progressive_event():
    made = hall([], format="progressive", rounds=3)
    p = _players("Pat", "Quinn", "Rae", "Sam")
    for seed, player in enumerate(p.values(), start=1):
        Entry.objects.create(event=made.event, player=player, name=player.name, seed=seed)
    ev = made.event
    _partnership_game(ev, 1, (p["Pat"], p["Quinn"]), (p["Rae"], p["Sam"]), 52, 40)
    _partnership_game(ev, 2, (p["Pat"], p["Rae"]), (p["Quinn"], p["Sam"]), 52, 30)
    _partnership_game(ev, 3, (p["Pat"], p["Sam"]), (p["Quinn"], p["Rae"]), 45, 52)
    rows = event_player_standings(event=ev)
    # Wins: Pat 2 (rounds 1, 2), Quinn 2 (1, 3), Rae 2 (2, 3), Sam 0.
    # Point difference: Pat +12 +22 -7 = +27; Quinn +12 -22 +7 = -3; Rae -12 +22 +7 = +17;
    # Sam -12 -22 -7 = -41. So Pat, Rae, Quinn, Sam.
    assert [(r.name, r.wins, r.point_difference) for r in rows] == [
        ("Pat", 2, 27),
        ("Rae", 2, 17),
        ("Quinn", 2, -3),
        ("Sam", 0, -41),
    ]


def test_season_leaderboard_counts_its_club_nights_only():
    made = hall([], format="progressive", rounds=1)
    club = made.event.club
    season = services.season_create_unchecked(club=club, name="2026–27")
    nights = [
        services.event_create(
            club=club,
            name=f"Night {n}",
            date=dt.date(2026, 10, n),
            kind="club_night",
            format="progressive",
            rounds=1,
            season=season,
        )
        for n in (1, 8)
    ]
    p = _players("Pat", "Quinn", "Rae", "Sam")
    _partnership_game(nights[0], 1, (p["Pat"], p["Quinn"]), (p["Rae"], p["Sam"]), 52, 40)
    _partnership_game(nights[1], 1, (p["Rae"], p["Sam"]), (p["Pat"], p["Quinn"]), 52, 20)
    # A tournament of the same club is not a club night: its game does not count.
    Event.objects.filter(id=made.event.id).update(season=season)
    _partnership_game(made.event, 1, (p["Pat"], p["Quinn"]), (p["Rae"], p["Sam"]), 52, 0)
    rows = season_leaderboard(season=season)
    # One win each; Rae and Sam -12 +32 = +20, Pat and Quinn +12 -32 = -20. Level pairs share
    # a place, listed by name.
    assert [(r.name, r.place) for r in rows] == [
        ("Rae", 1),
        ("Sam", 1),
        ("Pat", 3),
        ("Quinn", 3),
    ]


def test_a_win_on_time_counts_as_a_win():
    event = make_event(teams=2, format="swiss", rounds=1)
    generate(event)
    pairing = Pairing.objects.select_related("game").get(event=event)
    assert pairing.game is not None
    record(pairing.game, hand(Side.NS, bid=8, tricks=8))  # North-South 10, East-West 0
    with TestCase.captureOnCommitCallbacks(execute=True):
        scoring.game_call_time(game_id=pairing.game.id)
    in_play = dataclasses.replace(hand(Side.EW), completed_at=timezone.now())  # EW +9, NS +1
    game = record(pairing.game, in_play)  # the hand in play is completed after the call: over
    assert (game.status, game.end_reason, game.winner) == ("finished", "time", "ns")
    rows = event_standings(event=event)
    assert [(r.name, r.wins, r.wins_on_time, r.losses) for r in rows] == [
        ("Team 1", 1, 1, 0),
        ("Team 2", 0, 0, 1),
    ]


def test_a_game_in_progress_and_a_pending_hand_count_for_nothing():
    event = make_event(teams=2, format="swiss", rounds=1, verification=True)
    generate(event)
    pairing = Pairing.objects.select_related("game").get(event=event)
    assert pairing.game is not None
    record(pairing.game, hand(Side.NS), hand(Side.NS))
    with TestCase.captureOnCommitCallbacks(execute=True):
        hand_record(
            game_id=pairing.game.id,
            entry=hand(Side.NS, bid=12, tricks=8),
            client_id=uuid.uuid4(),
            entered_by_seat=Seat.NORTH,
            pending=True,
        )
    rows = event_standings(event=event)
    assert [(r.games, r.wins, r.points_for) for r in rows] == [(0, 0, 0), (0, 0, 0)]
