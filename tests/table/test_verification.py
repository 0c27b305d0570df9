"""Verification at the table (scoring.services.verification): a pending hand counts nowhere
until a player of the other partnership confirms it; the same partnership cannot confirm; a
pending hand holds up the next one; discard; the end-of-game acknowledgment.

Scores worked out by hand (tournament preset, docs/rules.md, "Scoring a hand"): East bids 7 in
clubs, East-West take 5 tricks and the 5♥ = 10 points, made, +10; North-South take 3 tricks and
the 3♠ = 0."""

from __future__ import annotations

import uuid

import pytest

from kaiser_club.errors import InvalidInput, NotFound
from scoring import services
from scoring.errors import HandAwaitingConfirmation, HandNotAccepted
from scoring.models import GameChange, Hand
from scoring.rules import Side
from scoring.selectors import game_with_hands
from scoring.services import verification
from tests.factories import start_game
from tests.scoring.hands import EW, NS, E, N, S, W, played, record

pytestmark = pytest.mark.django_db

EAST_MAKES_7 = played(E, 7, 5, EW, NS)


def enter(game_id: int, seat=N, entry=EAST_MAKES_7, **kwargs):  # type: ignore[no-untyped-def]
    kwargs.setdefault("client_id", uuid.uuid4())
    return services.hand_record(
        game_id=game_id, entry=entry, entered_by_seat=seat, pending=True, **kwargs
    )


def test_a_pending_hand_counts_nowhere_until_confirmed() -> None:
    game = start_game()
    recorded = enter(game.id)
    game.refresh_from_db()
    assert recorded.hand.status == "pending"
    assert recorded.hand.entered_by_seat == N
    assert (game.ns_score, game.ew_score, game.hand_count, game.dealer) == (0, 0, 0, N)
    assert list(game.hands.all()) == []
    assert Hand.objects.filter(game=game).count() == 0
    assert Hand.with_pending.filter(game=game).count() == 1
    shown = game_with_hands(game_id=game.id)
    assert shown is not None and list(shown.hands.all()) == []
    assert verification.pending_hand(game_id=game.id) == recorded.hand


def test_the_other_partnership_confirms_and_the_hand_counts() -> None:
    game = start_game()
    enter(game.id, seat=N)
    confirmed = verification.hand_confirm(game_id=game.id, number=1, seat=E, by_label="Table 1")
    game.refresh_from_db()
    hand = confirmed.hand
    assert (hand.status, hand.confirmed_by_seat, hand.entered_by_seat) == ("confirmed", E, N)
    assert hand.confirmed_at is not None
    assert (hand.ew_change, hand.ns_change, hand.ew_score, hand.ns_score) == (10, 0, 10, 0)
    assert (game.ns_score, game.ew_score, game.hand_count, game.dealer) == (0, 10, 1, E)
    actions = list(GameChange.objects.filter(game=game).values_list("action", flat=True))
    assert actions == ["record", "confirm"]


def test_the_same_partnership_cannot_confirm() -> None:
    game = start_game()
    enter(game.id, seat=N)
    with pytest.raises(InvalidInput) as refused:
        verification.hand_confirm(game_id=game.id, number=1, seat=S)
    assert refused.value.code == "same_partnership"
    assert "South is a partner of the player who entered this hand" in refused.value.message
    assert "East–West confirms it" in refused.value.message
    game.refresh_from_db()
    assert game.hand_count == 0
    assert Hand.with_pending.get(game=game).status == "pending"


def test_confirming_twice_answers_with_the_hand() -> None:
    game = start_game()
    enter(game.id, seat=W)
    first = verification.hand_confirm(game_id=game.id, number=1, seat=N)
    again = verification.hand_confirm(game_id=game.id, number=1, seat=N)
    assert (first.created, again.created) == (True, False)
    assert again.hand.id == first.hand.id
    game.refresh_from_db()
    assert game.hand_count == 1


def test_a_pending_hand_holds_up_the_next_one() -> None:
    game = start_game()
    enter(game.id)
    with pytest.raises(HandAwaitingConfirmation) as waiting:
        enter(game.id, entry=played(S, 7, 5, NS, EW))
    assert waiting.value.status == 409
    assert "Hand 1 is waiting for a player of the other partnership" in waiting.value.message
    with pytest.raises(HandAwaitingConfirmation):  # the plain path too, verification off
        record(game, played(S, 7, 5, NS, EW))


def test_a_retry_of_a_pending_entry_answers_with_it() -> None:
    game = start_game()
    client_id = uuid.uuid4()
    first = enter(game.id, client_id=client_id)
    again = enter(game.id, client_id=client_id)
    assert (first.created, again.created) == (True, False)
    assert Hand.with_pending.filter(game=game).count() == 1


def test_verification_needs_the_entering_seat() -> None:
    game = start_game()
    with pytest.raises(InvalidInput) as refused:
        services.hand_record(
            game_id=game.id, entry=EAST_MAKES_7, client_id=uuid.uuid4(), pending=True
        )
    assert "entered_by_seat" in refused.value.field_errors


def test_verification_off_records_at_once_and_keeps_the_seat() -> None:
    game = start_game()
    recorded = services.hand_record(
        game_id=game.id, entry=EAST_MAKES_7, client_id=uuid.uuid4(), entered_by_seat=S
    )
    game.refresh_from_db()
    assert (recorded.hand.status, recorded.hand.entered_by_seat) == ("confirmed", S)
    assert (game.ew_score, game.hand_count) == (10, 1)


def test_an_impossible_entry_is_refused_when_entered() -> None:
    game = start_game()
    with pytest.raises(HandNotAccepted) as refused:
        enter(game.id, entry=played(E, 4, 5, EW, NS))
    assert [r["code"] for r in refused.value.extra["refusals"]] == ["bid_below_minimum"]
    assert Hand.with_pending.filter(game=game).count() == 0


def test_discard_drops_the_pending_hand_and_keeps_it_in_the_history() -> None:
    game = start_game()
    enter(game.id)
    version = game.version
    verification.hand_discard(game_id=game.id, number=1, by_label="Table 1", reason="wrong")
    game.refresh_from_db()
    assert Hand.with_pending.filter(game=game).count() == 0
    assert game.version > version
    change = GameChange.objects.get(game=game, action="discard")
    assert change.before is not None and change.before["bid"] == 7
    enter(game.id, entry=played(E, 8, 6, EW, NS))  # the next entry is taken


def test_a_forfeit_drops_the_pending_hand_and_keeps_it_in_the_history() -> None:
    game = start_game()
    record(game, EAST_MAKES_7)
    enter(game.id, entry=played(S, 7, 5, NS, EW))
    services.game_forfeit(game_id=game.id, forfeited_by=Side.NS, reason="No show")
    game.refresh_from_db()
    assert (game.status, game.winner, game.end_reason) == ("finished", "ew", "forfeit")
    assert list(Hand.with_pending.filter(game=game).values_list("number", "status")) == [
        (1, "confirmed")
    ]
    dropped = GameChange.objects.get(game=game, action="discard")
    assert dropped.hand_number == 2 and dropped.before is not None
    assert dropped.before["bid"] == 7 and "forfeited" in dropped.reason
    assert verification.pending_hand(game_id=game.id) is None


def test_discard_refuses_a_confirmed_hand() -> None:
    game = start_game()
    record(game, EAST_MAKES_7)
    with pytest.raises(InvalidInput):
        verification.hand_discard(game_id=game.id, number=1)


def test_undo_removes_a_pending_hand() -> None:
    game = start_game()
    record(game, EAST_MAKES_7)
    enter(game.id, entry=played(S, 7, 5, NS, EW))
    services.hand_undo(game_id=game.id, number=2)
    game.refresh_from_db()
    assert (game.hand_count, game.ew_score) == (1, 10)
    assert Hand.with_pending.filter(game=game).count() == 1


def test_a_confirmation_arriving_after_a_forfeit_is_refused() -> None:
    game = start_game()
    enter(game.id)
    services.game_forfeit(game_id=game.id, forfeited_by=Side.NS)
    with pytest.raises(NotFound) as refused:
        verification.hand_confirm(game_id=game.id, number=1, seat=E)
    assert str(refused.value) == "Hand 1 is not waiting for confirmation in this game."
    assert Hand.with_pending.filter(game=game).count() == 0


def test_both_partnerships_acknowledge_the_result_once() -> None:
    game = start_game()
    with pytest.raises(InvalidInput):
        verification.game_acknowledge(game_id=game.id, team=Side.NS)
    services.game_forfeit(game_id=game.id, forfeited_by=Side.NS)
    game.refresh_from_db()
    assert verification.game_acknowledge(game_id=game.id, team=Side.NS, by_label="Table 1")
    assert not verification.game_acknowledge(game_id=game.id, team=Side.NS)
    assert verification.acknowledged_teams(game=game) == {"ns"}
    verification.game_acknowledge(game_id=game.id, team=Side.EW)
    assert verification.acknowledged_teams(game=game) == {"ns", "ew"}


def test_an_acknowledgment_of_a_result_since_corrected_no_longer_counts() -> None:
    game = start_game(preset_name="standard", changes={"target": 10, "bid_out_line": None})
    record(game, EAST_MAKES_7)  # East-West reach 10: they win
    game.refresh_from_db()
    assert game.status == "finished"
    verification.game_acknowledge(game_id=game.id, team=Side.EW)
    services.hand_correct(game_id=game.id, number=1, entry=played(E, 7, 6, EW, NS))
    game.refresh_from_db()
    assert game.ew_score == 11
    assert verification.acknowledged_teams(game=game) == set()
