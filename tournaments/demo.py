"""Demo events: a tournament in progress with a Swiss round under way, and a club night within
a season (``manage.py load_demo``)."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable

from django.db import transaction

from kaiser_club.demo import DEMO_CLUB_SLUG, demo_step

TOURNAMENT_NAME = "Regina Fall Open"
NIGHT_NAME = "Tuesday club night"


def _hand(winner: str, turn: int):  # type: ignore[no-untyped-def]
    """A plausible made bid for ``winner`` ("ns" or "ew"): 9 in a suit, 7 tricks and the 5♥."""
    from scoring.rules import Contract, HandEntry, HandKind, Seat, Side, Suit

    side = Side(winner)
    seats = (Seat.NORTH, Seat.SOUTH) if side is Side.NS else (Seat.EAST, Seat.WEST)
    return HandEntry(
        kind=HandKind.PLAYED,
        bidder=seats[turn % 2],
        bid=9,
        contract=Contract.TRUMP,
        trump=list(Suit)[turn % 4],
        bidding_team_tricks=7,
        five_hearts=side,
        three_spades=side.other,
    )


def _play(game_id: int, winner: str, hands: int = 20) -> None:
    """The other side makes the first hand, then ``winner`` every hand until the game ends
    (or ``hands`` have been played)."""
    from scoring import services as scoring
    from tournaments.services import game_result_sync

    for turn in range(hands):
        recorded = scoring.hand_record(
            game_id=game_id,
            entry=_hand(winner if turn else _other(winner), turn),
            client_id=uuid.uuid4(),
        )
        if recorded.game.status == "finished":
            break
    game_result_sync(game_id=game_id)  # load_demo runs in one transaction: sync now


def _other(side: str) -> str:
    return "ew" if side == "ns" else "ns"


def _generate(event_id: int) -> None:
    from tournaments.services import generate
    from tournaments.services.locks import lock_event

    with transaction.atomic():
        generate(event=lock_event(event_id))


@demo_step(40)
def tournament_in_progress(say: Callable[[str], None]) -> None:
    """Eight teams of the demo club in a Swiss tournament: round 1 played, round 2 under way."""
    from kaiser_club.models import Club, Player
    from tournaments import services
    from tournaments.models import Event, Pairing, Round

    club = Club.objects.filter(slug=DEMO_CLUB_SLUG).first()
    if club is None or Event.objects.filter(club=club, name=TOURNAMENT_NAME).exists():
        say("Demo tournament already there (or no demo club); keeping it.")
        return
    event = services.event_create(
        club=club,
        name=TOURNAMENT_NAME,
        date=dt.date.today(),
        venue="Royal Canadian Legion, Branch 001",
        format="swiss",
        rounds=4,
        check_in_required=True,
    )
    players = list(Player.objects.filter(memberships__club=club).order_by("id")[:16])
    for n in range(8):
        one, two = players[2 * n], players[2 * n + 1]
        entry = services.entry_register_team_unchecked(
            event=event, player_one=one, player_two=two, seed=n + 1, rating=1600 - 25 * n
        )
        services.entry_check_in_unchecked(entry=entry)
    _generate(event.id)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    for i, pairing in enumerate(Pairing.objects.filter(event=event, round__number=1)):
        assert pairing.game_id is not None
        _play(pairing.game_id, "ns" if i % 3 else "ew")
    _generate(event.id)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=2))
    for i, pairing in enumerate(Pairing.objects.filter(event=event, round__number=2)):
        if pairing.game_id and i % 2 == 0:
            _play(pairing.game_id, "ns", 2)
    say(f"Demo tournament: {TOURNAMENT_NAME}, round 2 of 4 under way (/events/{event.id}/).")


@demo_step(41)
def club_night_in_a_season(say: Callable[[str], None]) -> None:
    """A season with one club night (individual progressive): round 1 played, round 2 on."""
    from kaiser_club.models import Club, Player
    from tournaments import services
    from tournaments.models import Event, Pairing, Round, Season

    club = Club.objects.filter(slug=DEMO_CLUB_SLUG).first()
    if club is None or Event.objects.filter(club=club, name=NIGHT_NAME).exists():
        say("Demo club night already there (or no demo club); keeping it.")
        return
    today = dt.date.today()
    season = Season.objects.filter(club=club).first() or services.season_create_unchecked(
        club=club, name=f"{today.year}–{today.year + 1} season", starts_on=today
    )
    night = services.event_create(
        club=club,
        name=NIGHT_NAME,
        date=today,
        kind="club_night",
        format="progressive",
        rounds=3,
        season=season,
        venue="Club room",
    )
    for player in Player.objects.filter(memberships__club=club).order_by("-id")[:12]:
        services.entry_register_player_unchecked(event=night, player=player)
    _generate(night.id)
    services.round_start_unchecked(round_=Round.objects.get(event=night, number=1))
    for i, pairing in enumerate(Pairing.objects.filter(event=night, round__number=1)):
        if pairing.game_id:
            _play(pairing.game_id, "ns" if i % 2 else "ew")
    _generate(night.id)
    services.round_start_unchecked(round_=Round.objects.get(event=night, number=2))
    say(f"Demo club night in {season.name}: round 2 of 3 under way (/events/{night.id}/).")
