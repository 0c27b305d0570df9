"""Export, import on the same server, export again: the same document, for an event holding
every kind of hand the rules know (played, misdeal, forced dealer bid, Kaiser bid, after
time, waiting for confirmation), in every preset. Each preset allows its own kinds (no
misdeals in the tournament preset, no forced bid where a pass-out is a misdeal); the Kaiser
bid, off in every preset, is turned on as an organiser may, each variant in two presets. The
copy's hands have the same derived columns as the original's, and everything the copy shows
answers 200."""

from __future__ import annotations

import datetime as dt
import json
import uuid
from typing import Any

import pytest
from django.test import TestCase
from django.utils import timezone
from rest_framework.test import APIClient

from kaiser_club.roles import Role
from scoring import services as scoring
from scoring.models import Game, Hand
from scoring.rules import (
    PRESETS,
    Contract,
    HandEntry,
    HandKind,
    KaiserBid,
    RuleSet,
    Seat,
    Side,
    Suit,
)
from scoring.services.games import game_call_time
from scoring.services.hands import hand_record
from scoring.services.verification import hand_confirm
from tests.factories import member
from tests.tournaments.helpers import generate, gid, make_event
from tournaments import services
from tournaments.models import Event, Pairing

from .reads import assert_every_read_answers
from .test_round_trip import without_moment

pytestmark = [pytest.mark.django_db, pytest.mark.long]

KAISER_VARIANTS = [KaiserBid.BIDDER_ALONE, KaiserBid.TEAM, KaiserBid.KAISER_40]
PRESET_CASES = [(name, KAISER_VARIANTS[n % len(KAISER_VARIANTS)]) for n, name in enumerate(PRESETS)]


def played(side: Side, *, bid: int = 7, completed_at: dt.datetime | None = None) -> HandEntry:
    return HandEntry(
        kind=HandKind.PLAYED,
        bidder=Seat.NORTH if side is Side.NS else Seat.EAST,
        bid=bid,
        contract=Contract.TRUMP,
        trump=Suit.HEARTS,
        bidding_team_tricks=7,
        five_hearts=side,
        three_spades=side.other,
        completed_at=completed_at,
    )


def record(game_id: int, entry: HandEntry) -> None:
    scoring.hand_record(game_id=game_id, entry=entry, client_id=uuid.uuid4())


def every_kind_event(preset_name: str, kaiser_bid: KaiserBid) -> tuple[Event, set[str]]:
    """Six teams in a round robin, round 1 started: game 1 has a played hand, a misdeal and a
    forced dealer bid (where the preset has them), a hand confirmed by the other partnership
    and one still waiting; game 2 a Kaiser bid; game 3 time called, then a misdeal (where
    allowed) and a played hand after time. Returns the event and the kinds it holds."""
    event = make_event(
        teams=6,
        format="round_robin",
        preset_name=preset_name,
        rule_changes={"kaiser_bid": kaiser_bid.value},
        verification=True,
    )
    rules = RuleSet.from_dict(event.rules)
    assert generate(event).status == "done"
    services.round_start_unchecked(round_=event.round_set.get(number=1))
    first, second, third = (
        gid(p) for p in Pairing.objects.filter(event=event, round__number=1).order_by("id")
    )
    kinds = {"played", "kaiser", "after_time", "pending"}
    with TestCase.captureOnCommitCallbacks(execute=True):
        record(first, played(Side.NS))
        if rules.misdeals:
            reason = sorted(rules.misdeals)[0]
            record(first, HandEntry(kind=HandKind.MISDEAL, misdeal_reason=reason))
            kinds.add("misdeal")
        if not rules.pass_out_is_misdeal:
            dealer = Seat(Game.objects.get(id=first).dealer)
            forced = HandEntry(
                kind=HandKind.PLAYED,
                bidder=dealer,
                bid=rules.min_bid,
                contract=Contract.TRUMP,
                trump=Suit.SPADES,
                forced=True,
                bidding_team_tricks=4,
                five_hearts=dealer.team,
                three_spades=dealer.team.other,
            )
            record(first, forced)
            kinds.add("forced")
        verified = hand_record(
            game_id=first,
            entry=played(Side.EW),
            client_id=uuid.uuid4(),
            entered_by_seat=Seat.EAST,
            pending=True,
        )
        hand_confirm(game_id=first, number=verified.hand.number, seat=Seat.NORTH)
        hand_record(
            game_id=first,
            entry=played(Side.NS, bid=8),
            client_id=uuid.uuid4(),
            entered_by_seat=Seat.SOUTH,
            pending=True,
        )

        record(second, played(Side.EW))
        kaiser = HandEntry(
            kind=HandKind.PLAYED,
            bidder=Seat.NORTH,
            bid=12,
            contract=Contract.KAISER,
            bidding_team_tricks=8,
            five_hearts=Side.NS,
            three_spades=Side.NS,
            bidder_tricks=8,
        )
        record(second, kaiser)

        record(third, played(Side.NS))
        game_call_time(game_id=third)  # the hand recorded before is completed before the call
        now = timezone.now() + dt.timedelta(seconds=1)
        if rules.misdeals:
            reason = sorted(rules.misdeals)[0]
            record(third, HandEntry(kind=HandKind.MISDEAL, misdeal_reason=reason, completed_at=now))
        record(third, played(Side.EW, completed_at=now))
    return event, kinds


def kinds_in(event: Event) -> set[str]:
    hands = Hand.with_pending.filter(game__pairing__event=event)
    found = set()
    for hand in hands:
        found.add(hand.kind)
        if hand.forced:
            found.add("forced")
        if hand.contract == Contract.KAISER:
            found.add("kaiser")
        if hand.after_time:
            found.add("after_time")
        if hand.status == "pending":
            found.add("pending")
    return found


HAND_COLUMNS = [
    "number",
    "status",
    "kind",
    "forced",
    "contract",
    "dealer",
    "ns_points",
    "ew_points",
    "made",
    "ns_score",
    "ew_score",
    "after_time",
    "client_id",
    "entered_by_seat",
    "confirmed_by_seat",
]
GAME_COLUMNS = ["status", "ns_score", "ew_score", "winner", "end_reason", "hand_count", "dealer"]


def columns(event: Event) -> list[Any]:
    games = Game.objects.filter(pairing__event=event).order_by("pairing__id")
    return [
        (
            [getattr(game, name) for name in GAME_COLUMNS],
            list(Hand.with_pending.filter(game=game).order_by("number").values_list(*HAND_COLUMNS)),
        )
        for game in games
    ]


@pytest.mark.parametrize(("preset_name", "kaiser_bid"), PRESET_CASES)
def test_every_hand_kind_round_trips_in_every_preset(
    preset_name: str, kaiser_bid: KaiserBid
) -> None:
    event, kinds = every_kind_event(preset_name, kaiser_bid)
    assert kinds_in(event) == kinds | {"played"}
    organiser = member(event.club, Role.ORGANISER)
    api = APIClient()
    api.force_authenticate(organiser)

    exported = api.get(f"/api/events/{event.id}/export/")
    assert exported.status_code == 200
    first = json.loads(exported.content)
    assert {g["preset"] for g in first["games"]} == {preset_name}
    created = api.post("/api/events/import/", first, format="json")
    assert created.status_code == 201, created.json()
    copy_ = Event.objects.get(id=created.json()["id"])
    again = json.loads(api.get(f"/api/events/{copy_.id}/export/").content)

    assert without_moment(again) == without_moment(first)
    assert kinds_in(copy_) == kinds_in(event)
    assert columns(copy_) == columns(event)
    assert_every_read_answers(copy_, organiser)
