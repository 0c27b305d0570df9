"""The clock: calling time, the clock rule (docs/rules.md, "The clock": the hand in play is
finished, then the higher score wins; a tie plays one more hand at a time), the sweep that calls
time on every game past its deadline, pause and added minutes, and the paper game that has no
clock.

Times are moved by setting ``started_at`` in the past, by passing ``now`` to the sweep, or by
patching ``django.utils.timezone.now``."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from kaiser_club.errors import InvalidInput
from scoring import services
from scoring.errors import HandNotAccepted
from scoring.models import Game, GameChange, Hand
from scoring.rules import MisdealReason, Suit
from tests.factories import start_game
from tests.scoring.hands import (
    EW,
    NS,
    E,
    N,
    S,
    make_club,
    make_team,
    make_user,
    misdeal,
    played,
    record,
)

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)


def started(minutes_ago: float, **kwargs: object) -> Game:
    """A tournament game (60 minutes) whose clock started ``minutes_ago``."""
    game = start_game(preset_name="tournament", **kwargs)  # type: ignore[arg-type]
    Game.objects.filter(id=game.id).update(
        started_at=timezone.now() - timedelta(minutes=minutes_ago)
    )
    game.refresh_from_db()
    return game


def codes(exc: pytest.ExceptionInfo[HandNotAccepted]) -> list[str]:
    return [r["code"] for r in exc.value.extra["refusals"]]


def clock_rows(game: Game) -> list[tuple[str, str]]:
    return list(
        GameChange.objects.filter(game=game, action="call_time")
        .order_by("id")
        .values_list("action", "by_label")
    )


# --- Calling time and the clock rule -----------------------------------------------------------


def test_before_the_call_counts_the_hand_in_play_counts_then_the_higher_score_wins() -> None:
    game = started(30)
    now = timezone.now()
    services.game_call_time(game_id=game.id, at=now - 10 * MINUTE)
    # Completed before the call, though entered after it: an ordinary hand.
    # N bids 7 ♣, NS 5 tricks + 5♥ = 10; EW 3 tricks + 3♠ = 0.
    first = record(game, played(N, 7, 5, NS, EW, completed_at=now - 15 * MINUTE))
    assert first.hand.after_time is False
    assert (first.game.status, first.game.ns_score, first.game.ew_score) == ("in_progress", 10, 0)
    # The hand in play when time was called: E bids 7 ♠, EW 6 tricks + 5♥ = 11; NS -1.
    second = record(game, played(E, 7, 6, EW, NS, trump=Suit.SPADES, completed_at=now - 5 * MINUTE))
    assert second.hand.after_time is True
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == (9, 11)
    assert (game.status, game.winner, game.end_reason) == ("finished", "ew", "time")
    with pytest.raises(HandNotAccepted) as exc:
        record(game, played(S, 7, 6, NS, EW))
    assert codes(exc) == ["time_over"]
    assert exc.value.message == (
        "Time is up and the hand in play is finished: East–West won on time, "
        "so no more hands are played."
    )
    assert Hand.objects.filter(game=game).count() == 2


def test_a_tie_after_the_hand_in_play_plays_one_more_hand() -> None:
    game = started(10)
    record(game, played(N, 7, 5, NS, EW))  # NS 10, EW 0
    services.game_call_time(game_id=game.id)
    # The hand in play: E bids 7 ♠, EW 5 tricks + 5♥ = 10; NS 3 tricks + 3♠ = 0 → 10-10.
    tied = record(game, played(E, 7, 5, EW, NS, trump=Suit.SPADES))
    assert tied.hand.after_time is True
    assert (tied.game.status, tied.game.ns_score, tied.game.ew_score) == ("in_progress", 10, 10)
    # One more hand: S bids 7 ♥, NS 6 tricks + 5♥ = 11; EW -1 → 21-9.
    last = record(game, played(S, 7, 6, NS, EW, trump=Suit.HEARTS))
    assert last.hand.after_time is True
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score) == (21, 9)
    assert (game.status, game.winner, game.end_reason) == ("finished", "ns", "time")
    with pytest.raises(HandNotAccepted) as exc:
        record(game, played(E, 7, 6, EW, NS))
    assert codes(exc) == ["time_over"]


def test_a_misdeal_after_the_call_is_not_the_hand_in_play() -> None:
    game = start_game(preset_name="club", changes={"time_limit_minutes": 60})
    record(game, played(N, 5, 5, NS, EW))  # NS 10, EW 0
    services.game_call_time(game_id=game.id)
    thrown_in = record(game, misdeal(MisdealReason.NO_FACE_CARD))
    assert thrown_in.game.status == "in_progress"
    # S bids 5 ♣, NS 4 tricks + 3♠ = 1, fails: -5 → 5; EW 4 tricks + 5♥ = 9 → 9.
    last = record(game, played(S, 5, 4, EW, NS))
    assert (last.game.ns_score, last.game.ew_score) == (5, 9)
    assert (last.game.status, last.game.winner, last.game.end_reason) == (
        "finished",
        "ew",
        "time",
    )


def test_a_hand_that_ends_the_game_by_the_rules_after_the_call_keeps_its_reason() -> None:
    game = started(10)
    for _ in range(4):  # N bids 8 ♣ and takes all: +10 each → 40
        record(game, played(N, 8, 8, NS, NS))
    services.game_call_time(game_id=game.id)
    # S bids 7 ♣, NS 7 tricks + 5♥ = 12 → 52: NS reach the target.
    last = record(game, played(S, 7, 7, NS, EW))
    assert (last.game.ns_score, last.game.winner, last.game.end_reason) == (52, "ns", "target")


def test_calling_time_twice_changes_nothing() -> None:
    game = started(10)
    user = make_user()
    first = services.game_call_time(game_id=game.id, by=user)
    called_at, version = first.time_called_at, first.version
    again = services.game_call_time(game_id=game.id, by=user)
    assert (again.time_called_at, again.version) == (called_at, version)
    assert list(
        GameChange.objects.filter(game=game, action="call_time").values_list("by", "by_label")
    ) == [(user.id, "")]


def test_time_called_in_the_future_is_called_now() -> None:
    game = started(10)
    before = timezone.now()
    called = services.game_call_time(game_id=game.id, at=before + timedelta(hours=1))
    assert called.time_called_at is not None
    assert before <= called.time_called_at <= timezone.now()


def test_calling_time_late_places_hands_already_recorded_after_the_call() -> None:
    game = started(30)
    now = timezone.now()
    record(game, played(N, 7, 5, NS, EW, completed_at=now - 20 * MINUTE))  # 10, 0
    second = record(game, played(E, 7, 6, EW, NS, completed_at=now - 5 * MINUTE))  # 9, 11
    assert second.hand.after_time is False
    # The organiser enters the call made at the table 10 minutes ago: hand 2 was in play.
    services.game_call_time(game_id=game.id, at=now - 10 * MINUTE)
    game.refresh_from_db()
    assert (game.status, game.winner, game.end_reason) == ("finished", "ew", "time")
    assert list(Hand.objects.filter(game=game).values_list("after_time", flat=True)) == [
        False,
        True,
    ]


def test_calling_time_late_is_refused_when_a_recorded_hand_would_be_one_too_many() -> None:
    game = started(30)
    now = timezone.now()
    record(game, played(N, 7, 5, NS, EW, completed_at=now - 20 * MINUTE))  # 10, 0
    record(game, played(E, 7, 6, EW, NS, completed_at=now - 5 * MINUTE))  # 9, 11
    record(game, played(S, 7, 6, NS, EW, completed_at=now - 2 * MINUTE))  # 20, 10
    game.refresh_from_db()
    hands_before = list(Hand.objects.filter(game=game).values())
    version = game.version
    # Called 10 minutes ago, hand 2 would have ended the game on time: hand 3 cannot be.
    with pytest.raises(HandNotAccepted) as exc:
        services.game_call_time(game_id=game.id, at=now - 10 * MINUTE)
    assert exc.value.message == (
        "With time called then, hand 3 would no longer be possible: Time is up and the hand "
        "in play is finished: East–West won on time, so no more hands are played."
    )
    game.refresh_from_db()
    assert (game.time_called_at, game.version, game.status) == (None, version, "in_progress")
    assert list(Hand.objects.filter(game=game).values()) == hands_before
    assert not GameChange.objects.filter(game=game, action="call_time").exists()


def test_taking_minutes_off_never_makes_a_recorded_hand_one_too_many() -> None:
    game = started(50)
    record(game, played(N, 7, 5, NS, EW))  # 10, 0
    second = record(game, played(E, 7, 6, EW, NS))  # 9, 11
    # The organiser takes 20 minutes off: the deadline is now 10 minutes ago, before both hands.
    services.clock_add_minutes(game_id=game.id, minutes=-20)
    assert services.clock_sweep() == [game.id]
    game.refresh_from_db()
    # Time is called when the last recorded hand was completed: both hands stand before it.
    assert game.time_called_at == second.hand.completed_at
    assert game.status == "in_progress"
    assert list(Hand.objects.filter(game=game).values_list("after_time", flat=True)) == [
        False,
        False,
    ]
    # The next hand is the hand in play: S bids 7 ♣, NS 6 tricks + 5♥ = 11 → 20; EW -1 → 10.
    last = record(game, played(S, 7, 6, NS, EW))
    assert last.hand.after_time is True
    assert (last.game.winner, last.game.end_reason) == ("ns", "time")


def test_a_hand_completed_in_the_future_is_read_as_completed_now() -> None:
    game = started(10)
    before = timezone.now()
    recorded = record(game, played(N, 7, 5, NS, EW, completed_at=before + timedelta(hours=2)))
    assert recorded.hand.completed_at is not None
    assert before <= recorded.hand.completed_at <= timezone.now()


def test_recording_past_the_deadline_calls_time_at_the_deadline() -> None:
    game = started(61)
    assert game.started_at is not None
    recorded = record(game, played(N, 7, 5, NS, EW))  # NS 10, EW 0: the hand in play
    game.refresh_from_db()
    assert game.time_called_at == game.started_at + timedelta(minutes=60)
    assert recorded.hand.after_time is True
    assert (game.status, game.winner, game.end_reason) == ("finished", "ns", "time")
    assert clock_rows(game) == [("call_time", "clock")]


def test_a_refused_hand_past_the_deadline_does_not_call_time() -> None:
    game = started(61)
    with pytest.raises(HandNotAccepted):
        record(game, played(N, 4, 5, NS, EW))
    game.refresh_from_db()
    assert game.time_called_at is None
    assert clock_rows(game) == []


# --- The sweep ---------------------------------------------------------------------------------


def test_the_sweep_calls_time_at_the_deadline_once() -> None:
    game = started(61)
    waiting = started(59)
    assert game.started_at is not None
    assert services.clock_sweep() == [game.id]
    game.refresh_from_db()
    assert game.time_called_at == game.started_at + timedelta(minutes=60)
    assert game.status == "in_progress"  # the hand in play is still to come
    assert clock_rows(game) == [("call_time", "clock")]
    version = game.version

    assert services.clock_sweep() == []
    game.refresh_from_db()
    assert game.version == version
    assert clock_rows(game) == [("call_time", "clock")]
    waiting.refresh_from_db()
    assert waiting.time_called_at is None


def test_the_sweep_with_the_time_moved_forward(monkeypatch: pytest.MonkeyPatch) -> None:
    game = start_game(preset_name="tournament")
    assert game.started_at is not None
    assert services.clock_sweep() == []
    later = game.started_at + timedelta(minutes=60, seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert services.clock_sweep() == [game.id]
    assert services.clock_sweep() == []
    game.refresh_from_db()
    assert game.time_called_at == game.started_at + timedelta(minutes=60)


def test_the_sweep_takes_now_as_an_argument() -> None:
    game = start_game(preset_name="tournament")
    assert game.started_at is not None
    assert services.clock_sweep(now=game.started_at + timedelta(minutes=59)) == []
    assert services.clock_sweep(now=game.started_at + timedelta(minutes=60)) == [game.id]


def test_the_sweep_leaves_finished_and_untimed_games_alone() -> None:
    finished = started(61)
    services.game_forfeit(game_id=finished.id, forfeited_by=NS)
    untimed = start_game(preset_name="club")
    far = timezone.now() + timedelta(days=2)
    assert services.clock_sweep(now=far) == []
    for game in (finished, untimed):
        game.refresh_from_db()
        assert game.time_called_at is None


def test_a_paused_clock_is_not_swept_and_resuming_moves_the_deadline() -> None:
    game = started(50)
    services.clock_pause(game_id=game.id)
    assert services.clock_sweep(now=timezone.now() + 30 * MINUTE) == []
    # Pausing twice keeps the first pause.
    paused_at = Game.objects.get(id=game.id).paused_at
    services.clock_pause(game_id=game.id)
    assert Game.objects.get(id=game.id).paused_at == paused_at
    # Paused for 20 minutes.
    Game.objects.filter(id=game.id).update(paused_at=timezone.now() - 20 * MINUTE)
    resumed = services.clock_resume(game_id=game.id)
    assert resumed.paused_at is None
    assert 20 * 60 <= resumed.paused_seconds <= 20 * 60 + 2
    assert resumed.deadline is not None and resumed.started_at is not None
    assert resumed.deadline == resumed.started_at + timedelta(
        minutes=60, seconds=resumed.paused_seconds
    )
    # 50 minutes played, 20 paused: 10 minutes to go, not 30.
    assert services.clock_sweep(now=timezone.now() + 9 * MINUTE) == []
    assert services.clock_sweep(now=timezone.now() + 31 * MINUTE) == [game.id]


def test_added_minutes_move_the_deadline() -> None:
    game = started(61)
    added = services.clock_add_minutes(game_id=game.id, minutes=5)
    assert added.added_minutes == 5
    assert added.started_at is not None
    assert added.deadline == added.started_at + timedelta(minutes=65)
    assert services.clock_sweep() == []
    assert services.clock_sweep(now=timezone.now() + 5 * MINUTE) == [game.id]
    game.refresh_from_db()
    assert game.time_called_at == added.started_at + timedelta(minutes=65)
    with pytest.raises(InvalidInput, match="minutes can no longer be added"):
        services.clock_add_minutes(game_id=game.id, minutes=5)


def test_the_sweep_rereads_the_deadline_under_the_lock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Minutes added between the sweep's candidate query and its lock are respected."""
    game = started(61)
    real_lock = services.clock.lock_game

    def add_minutes_then_lock(game_id: int) -> Game:
        Game.objects.filter(id=game_id).update(added_minutes=10)
        return real_lock(game_id)

    monkeypatch.setattr("scoring.services.clock.lock_game", add_minutes_then_lock)
    assert services.clock_sweep() == []
    game.refresh_from_db()
    assert (game.time_called_at, game.added_minutes) == (None, 10)
    assert clock_rows(game) == []


def test_a_game_started_without_its_clock_starts_it_later() -> None:
    club = make_club()
    game = services.game_start(
        club=club,
        ns_team=make_team(club=club),
        ew_team=make_team(club=club),
        first_dealer=N,
        rules=services.rules_from(preset_name="tournament"),
        preset_name="tournament",
        start_clock=False,
    )
    assert (game.started_at, game.deadline) == (None, None)
    assert services.clock_sweep(now=timezone.now() + timedelta(days=1)) == []
    at = timezone.now() - 5 * MINUTE
    started_game = services.clock_start(game_id=game.id, at=at)
    assert started_game.started_at == at
    assert services.clock_start(game_id=game.id).started_at == at  # once only


def test_the_clock_of_a_finished_game_cannot_change() -> None:
    game = started(10)
    services.game_forfeit(game_id=game.id, forfeited_by=EW)
    for change in (
        lambda: services.clock_pause(game_id=game.id),
        lambda: services.clock_resume(game_id=game.id),
        lambda: services.clock_add_minutes(game_id=game.id, minutes=5),
    ):
        with pytest.raises(InvalidInput, match="This game is over; its clock cannot change"):
            change()


def test_no_pause_after_time_is_called() -> None:
    game = started(10)
    services.game_call_time(game_id=game.id)
    with pytest.raises(InvalidInput, match="Time has already been called in this game"):
        services.clock_pause(game_id=game.id)


# --- A paper game ------------------------------------------------------------------------------


def test_a_paper_game_has_no_clock() -> None:
    game = start_game(preset_name="tournament", from_paper=True)
    assert game.from_paper is True
    assert (game.time_limit_minutes, game.started_at, game.deadline) == (None, None, None)
    assert game.rules["time_limit_minutes"] == 60  # the rule set is kept as it was
    assert services.clock_sweep(now=timezone.now() + timedelta(days=1)) == []
    with pytest.raises(InvalidInput, match="paper score sheet; it has no clock"):
        services.game_call_time(game_id=game.id)
    for change in (
        lambda: services.clock_pause(game_id=game.id),
        lambda: services.clock_add_minutes(game_id=game.id, minutes=5),
        lambda: services.clock_start(game_id=game.id),
    ):
        with pytest.raises(InvalidInput, match="This game has no time limit"):
            change()
    # Hands from a sheet filled in days ago are ordinary hands.
    long_ago = timezone.now() - timedelta(days=3)
    recorded = record(game, played(N, 7, 5, NS, EW, completed_at=long_ago))
    assert recorded.hand.after_time is False
    assert recorded.hand.completed_at == long_ago
    game.refresh_from_db()
    assert (game.time_called_at, game.status) == (None, "in_progress")


def _aware(value: datetime | None) -> bool:
    return value is not None and value.tzinfo is not None


def test_clock_times_are_timezone_aware() -> None:
    game = started(61)
    services.clock_sweep()
    game.refresh_from_db()
    assert _aware(game.started_at) and _aware(game.time_called_at)
