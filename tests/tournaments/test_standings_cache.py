"""Standings cost a fixed number of queries at any size, are cached, and the cache entry is
replaced when a hand that changes a result commits (never by a timeout)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring import services as scoring
from scoring.rules import Side
from tournaments import services
from tournaments.models import Pairing
from tournaments.standings import (
    event_placings,
    event_standings,
    event_tables,
    event_versions,
    refresh_event,
)
from tournaments.standings.cache import event_key

from .helpers import generate, make_event, win_game
from .public.world import hand, record, sized

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def count(call) -> int:
    with CaptureQueriesContext(connection) as ctx:
        call()
    return len(ctx.captured_queries)


def test_standings_queries_do_not_grow_with_teams_or_games():
    small = sized(8, rounds=3)
    large = sized(64, rounds=7)
    # entries, home totals, away totals, the decided games (for head-to-head and Buchholz)
    assert count(lambda: event_standings(event=small.event)) == 4
    assert count(lambda: event_standings(event=large.event)) == 4


def test_cached_standings_cost_one_query_cold_or_warm_the_same_at_any_size():
    small = sized(8, rounds=3)
    large = sized(64, rounds=7)
    for made in (small, large):
        # cold: the version (1) and the standings (4); warm: the version only
        assert count(lambda made=made: event_tables(event=made.event)) == 5
        assert count(lambda made=made: event_tables(event=made.event)) == 1


def test_placings_queries_do_not_grow(django_assert_num_queries):
    for teams in (4, 16):
        event = make_event(teams=teams, format="single_elimination")
        generate(event)
        with django_assert_num_queries(4):  # entries, home, away, the bracket
            event_placings(event=event)


def test_version_is_one_query_and_moves_with_a_result_but_not_a_pending_hand():
    made = sized(8, rounds=2)
    with CaptureQueriesContext(connection) as ctx:
        before = event_versions(made.event)
    assert len(ctx.captured_queries) == 1
    pairing = Pairing.objects.filter(event=made.event).first()
    assert pairing is not None
    pairing.home_points = 60
    pairing.save()
    after = event_versions(made.event)
    assert after.results != before.results and after.live != before.live


def _two_team_event():
    event = make_event(teams=2, format="swiss", rounds=1)
    generate(event)
    pairing = Pairing.objects.select_related("game").get(event=event)
    assert pairing.game is not None
    return event, pairing


def test_the_entry_is_replaced_when_a_finishing_hand_commits():
    event, pairing = _two_team_event()
    tables = event_tables(event=event)
    assert [r.wins for r in tables.rows] == [0, 0]
    win_game(pairing.game_id, Side.EW)  # three hands; the last finishes the game, on commit
    version, stored = cache.get(event_key(event.id))
    # Replaced by the receiver, before anyone read the standings again:
    assert version == event_versions(event).results
    assert [(r.name, r.wins) for r in stored.rows] == [("Team 2", 1), ("Team 1", 0)]


def test_a_hand_in_a_game_in_progress_leaves_the_entry_alone():
    event, pairing = _two_team_event()
    event_tables(event=event)
    first = cache.get(event_key(event.id))
    with mock.patch("tournaments.standings.cache.compute_event_tables") as compute:
        record(pairing.game_id, hand(Side.NS))
    compute.assert_not_called()
    assert cache.get(event_key(event.id))[0] == first[0]


def test_a_correction_that_changes_the_winner_replaces_the_entry():
    event, pairing = _two_team_event()
    game = win_game(pairing.game_id, Side.NS, hands=3)
    assert [r.name for r in event_tables(event=event).rows] == ["Team 1", "Team 2"]
    scores = (game.ns_score, game.ew_score)
    # The organiser corrects hand 3: East-West made it, not North-South. NS 40, EW 20:
    # the game is no longer over, the pairing has no result, nobody has a win.
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        scoring.hand_correct(game_id=game.id, number=3, entry=hand(Side.EW, bid=10, tricks=8))
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) != scores
    _, stored = cache.get(event_key(event.id))
    assert [r.wins for r in stored.rows] == [0, 0]


def test_an_organisers_adjusted_result_is_seen_on_the_next_read():
    event, pairing = _two_team_event()
    win_game(pairing.game_id, Side.NS)
    assert [r.name for r in event_tables(event=event).rows] == ["Team 1", "Team 2"]
    services.pairing_adjust_unchecked(
        pairing=Pairing.objects.get(id=pairing.id),
        winner="away",
        home_points=40,
        away_points=52,
        reason="Scores swapped on the sheet",
    )
    rows = event_tables(event=event).rows
    assert [(r.name, r.wins, r.point_difference) for r in rows] == [
        ("Team 2", 1, 12),
        ("Team 1", 0, -12),
    ]


def test_entries_are_stored_without_a_timeout():
    event, pairing = _two_team_event()
    with mock.patch.object(cache, "set", wraps=cache.set) as spy:
        event_tables(event=event)
        win_game(pairing.game_id, Side.NS)
    assert spy.call_count == 2
    assert all(call.kwargs.get("timeout", "missing") is None for call in spy.call_args_list)


def test_refresh_of_an_unknown_event_is_harmless():
    assert refresh_event(999_999) is False


def test_the_counters_move_with_a_result_an_entry_and_a_rename_in_the_same_transaction():
    """The database moves them (migration 0007's triggers), whatever writes the row."""
    from kaiser_club.models import Player
    from tournaments.models import Entry

    made = sized(8, rounds=2)
    before = event_versions(made.event)
    Pairing.objects.filter(event=made.event).update(winner_side="away")  # a bulk update too
    moved = event_versions(made.event)
    assert moved.results != before.results and moved.live != before.live
    Entry.objects.filter(event=made.event).update(name="Renamed")
    renamed = event_versions(made.event)
    assert renamed.results != moved.results
    team = made.entries["T0"].team
    assert team is not None
    Player.objects.filter(id=team.player_one_id).update(name="Someone else")
    assert event_versions(made.event).results != renamed.results


def test_the_version_is_one_primary_key_look_up_at_any_size():
    from tournaments.standings.versions import live_versions

    for teams in (16, 512):
        made = sized(teams, rounds=1)
        with CaptureQueriesContext(connection) as ctx:
            live_versions(made.event.id)
        assert len(ctx.captured_queries) == 1
        assert "tournaments_pairing" not in ctx.captured_queries[0]["sql"]


def test_an_undo_of_the_winning_hand_takes_the_win_back_in_the_cache():
    event, pairing = _two_team_event()
    win_game(pairing.game_id, Side.NS)
    assert [r.wins for r in event_tables(event=event).rows] == [1, 0]
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        scoring.hand_undo(game_id=pairing.game_id)
    _, stored = cache.get(event_key(event.id))
    assert [r.wins for r in stored.rows] == [0, 0]


def test_the_refresh_is_queued_as_a_celery_task_when_a_result_changes():
    event, pairing = _two_team_event()
    with mock.patch("tournaments.standings.tasks.refresh_standings.apply_async") as queue:
        record(pairing.game_id, hand(Side.NS))  # a hand in a game being played: not queued
        queue.assert_not_called()
        win_game(pairing.game_id, Side.NS)
    queue.assert_called_with(args=(event.id,), retry=False)


def test_without_a_broker_the_refresh_runs_in_the_request():
    event, pairing = _two_team_event()
    event_tables(event=event)
    with mock.patch(
        "tournaments.standings.tasks.refresh_standings.apply_async",
        side_effect=OSError("no broker"),
    ):
        win_game(pairing.game_id, Side.NS)
    _, stored = cache.get(event_key(event.id))
    assert [r.wins for r in stored.rows] == [1, 0]
