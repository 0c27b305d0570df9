"""The fast paths equal a full recomputation after any sequence of changes (Hypothesis).

A table's game goes through random hands (counted at once, or entered pending and then
confirmed), undos, corrections of the first hand, a time call and a forfeit, each through its
service as a door calls it (a hand is applied to the row the door read). After every change:
the state the game's row keeps equals a full replay of its hands, and every stored public page
(the event's live part, the game's score sheet, the standings, the round, the event's page)
equals a rendering made from nothing (the cache emptied).

The pages are kept as in production: a rendering is served for a second
(PUBLIC_VERSION_SECONDS) whatever the counter says, on a clock the test moves. Within that
second a page is the one before the change or the one after; past it, the one after."""

from __future__ import annotations

import dataclasses
import uuid

import pytest
from django.core.cache import cache
from django.test import Client, TestCase, override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kaiser_club.errors import KaiserError
from scoring import services
from scoring.models import Game, Hand
from scoring.rows_and_rules import state_fields
from scoring.rules import Seat, Side
from scoring.services.hands import hand_record
from scoring.services.state import current_state
from scoring.services.verification import hand_confirm
from tests.scoring.hands import filler
from tests.table.helpers import make_table
from tournaments.public import stored_pages

pytestmark = [pytest.mark.django_db, pytest.mark.long]

STEPS = st.sampled_from(
    ["hand", "hand", "hand", "pending", "confirm", "undo", "correct", "time", "forfeit"]
)


def _apply(step: str, game_id: int) -> None:
    game = Game.objects.get(id=game_id)
    number = game.hand_count + 1
    pending = Hand.with_pending.filter(game_id=game_id, status="pending").first()
    if step in ("hand", "pending"):
        hand_record(
            game_id=game_id,
            entry=filler(number),
            client_id=uuid.uuid4(),
            entered_by_seat=Seat.NORTH,
            pending=step == "pending",
            seen=game,
        )
    elif step == "confirm" and pending is not None:
        hand_confirm(game_id=game_id, number=pending.number, seat=Seat.EAST)
    elif step == "undo":
        services.hand_undo(game_id=game_id)
    elif step == "correct" and game.hand_count:
        entry = dataclasses.replace(filler(1), bid=8)
        services.hand_correct(game_id=game_id, number=1, entry=entry, reason="bid was 8")
    elif step == "time":
        services.game_call_time(game_id=game_id)
    elif step == "forfeit":
        services.game_forfeit(game_id=game_id, forfeited_by=Side.EW)


def _pages(client: Client, event_id: int, pairing_id: int, round_number: int) -> list[bytes]:
    urls = [
        f"/e/{event_id}/live/?part=1",
        f"/e/{event_id}/games/{pairing_id}/?part=1",
        f"/e/{event_id}/standings/?part=1",
        f"/e/{event_id}/rounds/{round_number}/?part=1",
        f"/e/{event_id}/?part=1",
    ]
    return [client.get(url).content for url in urls]


class Clock:
    """``time`` as tournaments.public.stored_pages reads it, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def time(self) -> float:
        return self.now

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(STEPS, min_size=1, max_size=12))
def test_kept_state_and_stored_pages_equal_a_recomputation(steps: list[str]) -> None:
    clock, real = Clock(), stored_pages.time
    stored_pages.time = clock  # type: ignore[assignment]
    stored_pages._seen.clear()
    try:
        with override_settings(PUBLIC_VERSION_SECONDS=1):
            _check(steps, clock)
    finally:
        stored_pages.time = real
        stored_pages._seen.clear()


def _check(steps: list[str], clock: Clock) -> None:
    setup = make_table()
    client = Client()
    round_number = setup.pairing.round.number
    pages = _pages(client, setup.event.id, setup.pairing.id, round_number)
    for step in steps:
        try:
            with TestCase.captureOnCommitCallbacks(execute=True):
                _apply(step, setup.game.id)
        except KaiserError:
            pass  # refused (no hand to undo, the game is over…): nothing changed
        game = Game.objects.get(id=setup.game.id)
        replayed = state_fields(current_state(game))
        kept = {name: getattr(game, name) for name in replayed}
        assert kept == replayed, (steps, step)
        clock.now += 0.5
        within = _pages(client, setup.event.id, setup.pairing.id, round_number)
        clock.now += 0.6
        after = _pages(client, setup.event.id, setup.pairing.id, round_number)
        cache.clear()
        fresh = _pages(client, setup.event.id, setup.pairing.id, round_number)
        assert after == fresh, (steps, step)
        for page, before, now in zip(within, pages, fresh, strict=True):
            assert page in (before, now), (steps, step)
        pages = fresh
