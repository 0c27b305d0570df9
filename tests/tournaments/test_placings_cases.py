"""Each placings case with its literal placings, on every surface: the API, the organiser's
event page, the public standings, event home, bracket and projector, the standings PDF and
the CSV. Each event is played through the services (hands recorded until a side wins)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache

from tournaments import services
from tournaments.models import Entry, Event, Pairing, Round

from .helpers import generate, make_event, win_for
from .placings_world import (
    Placings,
    api_placings,
    bracket_box,
    csv_placings,
    csv_tables,
    home_box,
    organiser_placings,
    pdf_has,
    pdf_standings_text,
    projector_placings,
    public_placings,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def seed(entry: Entry | None) -> int:
    assert entry is not None and entry.seed is not None
    return entry.seed


def play(event: Event, winner: Any = None) -> None:
    """Plays every open game until none is left: ``winner(pairing)`` names the entry that wins
    (by default the better seed)."""
    while True:
        ready = list(
            Pairing.objects.filter(
                event=event, game__isnull=False, result="pending", cancelled=False
            ).select_related("home", "away")
        )
        if not ready:
            return
        for pairing in ready:
            chosen = winner(pairing) if winner else None
            if chosen is None:
                chosen = min(pairing.home, pairing.away, key=seed)  # type: ignore[arg-type]
            win_for(pairing, chosen)


def play_rounds(event: Event) -> None:
    """Generates and plays round after round (better seed wins) until the event is finished."""
    for _ in range(20):
        event.refresh_from_db()
        if event.status == "finished":
            return
        job = generate(event)
        assert job.status == "done", job.error
        services.round_start_unchecked(
            round_=Round.objects.get(event=event, number=job.round_number)
        )
        play(event)
    raise AssertionError("the event never finished")


def unmarked(placings: Placings) -> Placings:
    """The names without the standings' marks after them ("(1 bye)", "(withdrawn)"), which
    tournaments/public/marks.py says the same way on every surface."""
    return [
        (place, re.sub(r" \((?:withdrawn|\d+ byes?)(?:, [^)]*)?\)$", "", name))
        for place, name in placings
    ]


def on_every_surface(event: Event, expected: Placings, *, by_bracket: bool = True) -> None:
    assert unmarked(api_placings(event)) == expected
    assert unmarked(organiser_placings(event)) == expected
    assert unmarked(public_placings(event)) == expected
    assert unmarked(projector_placings(event)) == expected
    assert unmarked(csv_placings(event)) == expected
    text = pdf_standings_text(event)
    assert pdf_has(text, expected, after="Final placings" if by_bracket else "")
    top_five = [f"{place} {name}" for place, name in expected if int(place.rstrip("=")) <= 5]
    box = home_box(event)
    assert [line[: len(want)] for line, want in zip(box, top_five, strict=True)] == top_five
    if by_bracket:
        top_four = [f"{place} {name}" for place, name in expected if int(place.rstrip("=")) <= 4]
        assert bracket_box(event) == top_four


def test_double_elimination_reset_won_by_the_winners_bracket_champion():
    """6 teams, the better seed wins every game but two: seed 3 wins the losers' final against
    seed 2, then the grand final against seed 1; seed 1 wins the reset. Seed 3 has 5 wins and
    2 losses, the champion 3 and 1: a sort by wins would put the runner-up first."""
    event = make_event(teams=6, format="double_elimination")
    Entry.objects.filter(event=event, seed=5).update(name="Legion Boys")
    generate(event)
    final = Pairing.objects.get(event=event, code="GF")

    def winner(p: Pairing) -> Entry | None:
        if p.code == "GF" or (p.winner_to_id == final.id and p.stage == "losers"):
            return max(p.home, p.away, key=seed)  # type: ignore[arg-type]
        return None

    play(event, winner)
    event.refresh_from_db()
    assert event.status == "finished"
    reset = Pairing.objects.select_related("home", "away").get(event=event, code="GF2")
    assert reset.decided and reset.winner is not None and reset.winner.name == "Team 1"
    expected = [
        ("1", "Team 1"),
        ("2", "Team 3"),
        ("3", "Team 2"),
        ("4", "Team 4"),
        ("5=", "Legion Boys"),
        ("5=", "Team 6"),
    ]
    on_every_surface(event, expected)
    rows = {row.name: row for row in services_rows(event)}
    assert (rows["Team 1"].wins, rows["Team 1"].losses) == (3, 1)
    assert (rows["Team 3"].wins, rows["Team 3"].losses) == (5, 2)


def services_rows(event: Event) -> list[Any]:
    from tournaments.standings import event_tables

    return event_tables(event=event).placings


def test_double_elimination_reset_won_by_the_losers_bracket_champion():
    event = make_event(teams=6, format="double_elimination")
    generate(event)
    # Seed 2 wins the grand final from the losers' bracket, then the reset (its home slot).
    play(event, lambda p: p.away if p.code == "GF" else p.home if p.code == "GF2" else None)
    expected = [
        ("1", "Team 2"),
        ("2", "Team 1"),
        ("3", "Team 3"),
        ("4", "Team 4"),
        ("5=", "Team 5"),
        ("5=", "Team 6"),
    ]
    on_every_surface(event, expected)


def test_single_elimination_of_six_with_a_third_place_game():
    """Seed 2 wins the final against seed 1; seed 4 wins the third-place game against seed 3.
    Seed 4 has two wins to the runner-up's one: the places still come from the bracket."""
    event = make_event(teams=6, format="single_elimination", third_place=True)
    generate(event)

    def winner(p: Pairing) -> Entry | None:
        if p.code == "3P" or (p.stage == "winners" and not p.winner_to_id):
            return max(p.home, p.away, key=seed)  # type: ignore[arg-type]
        return None

    play(event, winner)
    expected = [
        ("1", "Team 2"),
        ("2", "Team 1"),
        ("3", "Team 4"),
        ("4", "Team 3"),
        ("5=", "Team 5"),
        ("5=", "Team 6"),
    ]
    on_every_surface(event, expected)


def test_single_elimination_of_six_without_a_third_place_game():
    event = make_event(teams=6, format="single_elimination")
    generate(event)
    play(event)
    expected = [
        ("1", "Team 1"),
        ("2", "Team 2"),
        ("3=", "Team 3"),
        ("3=", "Team 4"),
        ("5=", "Team 5"),
        ("5=", "Team 6"),
    ]
    on_every_surface(event, expected)


def test_pools_then_knockout_of_eight():
    """2 pools of 4, 2 go on; seeds win every game. The knockout's four take 1st to 3rd=, then
    each pool's third share 5th and each pool's fourth 7th."""
    event = make_event(teams=8, format="pools", pool_count=2, pool_advance=2)
    play_rounds(event)
    pools = {
        pool: sorted(seed(entry) for entry in Entry.objects.filter(event=event, pool=pool))
        for pool in (1, 2)
    }
    assert pools == {1: [1, 4, 5, 8], 2: [2, 3, 6, 7]}
    expected = [
        ("1", "Team 1"),
        ("2", "Team 2"),
        ("3=", "Team 3"),
        ("3=", "Team 4"),
        ("5=", "Team 5"),
        ("5=", "Team 6"),
        ("7=", "Team 7"),
        ("7=", "Team 8"),
    ]
    on_every_surface(event, expected)
    # The PDF has the pool tables, then the final placings.
    text = pdf_standings_text(event)
    assert text.index("Pool 1") < text.index("Pool 2") < text.index("Final placings")
    # The CSV: each pool's table, then the placings, each under its own header.
    tables = csv_tables(event)
    assert len(tables) == 3
    pool_header, placings_header = tables[0][0], tables[2][0]
    assert tables[1][0] == pool_header and "Won on time" in pool_header
    assert placings_header[:4] == ["Table", "#", "Place", "Team"]
    assert "Won on time" not in placings_header
    winner = tables[2][1]
    assert winner[:4] == ["Final placings", "1", "1st", "Team 1"]
    assert winner[placings_header.index("Won")] == "5"  # 3 pool games and 2 knockout games


def test_round_robin_with_rounds_left_blank_finishes_with_its_last_game():
    event = make_event(teams=5, format="round_robin")
    assert event.rounds is None
    play_rounds(event)
    event.refresh_from_db()
    assert event.status == "finished"
    assert Round.objects.filter(event=event).count() == 5
    expected = [("1", "Team 1"), ("2", "Team 2"), ("3", "Team 3"), ("4", "Team 4")]
    expected.append(("5", "Team 5"))
    on_every_surface(event, expected, by_bracket=False)


def test_setting_the_rounds_after_the_last_one_finishes_a_swiss_event():
    event = make_event(teams=4, format="swiss", rounds=3)
    for _ in range(2):
        job = generate(event)
        services.round_start_unchecked(
            round_=Round.objects.get(event=event, number=job.round_number)
        )
        play(event)
    event.refresh_from_db()
    assert event.status == "running"
    services.event_update_unchecked(event=event, rounds=2)
    event.refresh_from_db()
    assert event.status == "finished"
    services.event_update_unchecked(event=event, rounds=3)
    event.refresh_from_db()
    assert event.status == "running"


def test_a_joint_fifth_is_in_the_event_home_box():
    """The public event home's box lists every team sharing 5th, printed "5="."""
    event = make_event(teams=8, format="double_elimination")
    Entry.objects.filter(event=event, seed=5).update(name="Legion Boys")
    generate(event)
    play(event)
    box = home_box(event)
    assert [line.split(" ")[0] for line in box] == ["1", "2", "3", "4", "5=", "5="]
    assert box[4].startswith("5= Legion Boys ") and box[5].startswith("5= Team 6 ")
