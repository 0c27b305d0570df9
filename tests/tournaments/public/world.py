"""Hand-made tournaments for the standings and public pages tests: entries, rounds and
pairings written directly with the results a test wants (standings read pairings' results),
and, where a test needs the real thing, games played through the services."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from django.test import TestCase

from kaiser_club.models import Club, Player
from scoring import services as scoring
from scoring.models import Game, Team
from scoring.rules import Contract, HandEntry, HandKind, Seat, Side, Suit
from scoring.services.hands import hand_record
from tests.factories import ClubFactory, PlayerFactory
from tournaments import services
from tournaments.models import Entry, Event, Pairing, Round, Table


@dataclass
class Hall:
    """An event and its entries by name."""

    event: Event
    entries: dict[str, Entry] = field(default_factory=dict)
    rounds: dict[int, Round] = field(default_factory=dict)

    def __getitem__(self, name: str) -> Entry:
        return self.entries[name]

    def round(self, number: int) -> Round:
        if number not in self.rounds:
            self.rounds[number] = Round.objects.create(event=self.event, number=number)
        return self.rounds[number]


def hall(
    names: Sequence[str],
    *,
    format: str = "round_robin",
    tiebreaks: Sequence[str] = ("wins", "point_difference"),
    club: Club | None = None,
    public_pages: bool = True,
    **settings: Any,
) -> Hall:
    """An event with one team per name, seeded in the order given."""
    club = club or cast(Club, ClubFactory())
    if format in ("swiss", "progressive"):
        settings.setdefault("rounds", 5)
    event = services.event_create(
        club=club,
        name=f"Hand-made {format}",
        date=dt.date(2026, 11, 28),
        format=format,
        check_in_required=False,
        tiebreaks=list(tiebreaks),
        **settings,
    )
    if not public_pages:
        Event.objects.filter(id=event.id).update(public_pages=False)
        event.refresh_from_db()
    made = Hall(event=event)
    for seed, name in enumerate(names, start=1):
        one = cast(Player, PlayerFactory(name=f"{name} North"))
        two = cast(Player, PlayerFactory(name=f"{name} South"))
        team = Team.objects.create(club=club, player_one=one, player_two=two, name=name)
        made.entries[name] = Entry.objects.create(
            event=event, team=team, name=name, seed=seed, club=club
        )
    return made


def result(
    made: Hall,
    home: str,
    away: str,
    home_points: int,
    away_points: int,
    *,
    round: int = 1,
    pool: int | None = None,
    kind: str = "played",
) -> Pairing:
    """A decided game: the side with more points wins (as a game to 52 would end)."""
    assert home_points != away_points
    h, a = made[home], made[away]
    return Pairing.objects.create(
        event=made.event,
        round=made.round(round),
        pool=pool,
        home=h,
        away=a,
        home_team_id=h.team_id,
        away_team_id=a.team_id,
        result=kind,
        winner_side="home" if home_points > away_points else "away",
        home_points=home_points,
        away_points=away_points,
    )


def results(made: Hall, games: Iterable[tuple[str, str, int, int]], *, round: int = 1) -> None:
    for home, away, hp, ap in games:
        result(made, home, away, hp, ap, round=round)


def bye(made: Hall, name: str, points_for: int, points_against: int, *, round: int) -> Pairing:
    entry = made[name]
    return Pairing.objects.create(
        event=made.event,
        round=made.round(round),
        home=entry,
        home_team_id=entry.team_id,
        result="bye",
        winner_side="home",
        home_points=points_for,
        away_points=points_against,
    )


def table(made: Hall, number: int) -> Table:
    found, _ = Table.objects.get_or_create(event=made.event, number=number)
    return found


def live_game(made: Hall, home: str, away: str, *, round: int, table_number: int) -> Pairing:
    """A game being played now at a table: a real game, no hands yet."""
    h, a = made[home], made[away]
    assert h.team is not None and a.team is not None
    game = scoring.game_start(
        club=made.event.club,
        ns_team=h.team,
        ew_team=a.team,
        first_dealer=Seat.NORTH,
        rules=scoring.rules_from(preset_name="tournament"),
        preset_name="tournament",
    )
    return Pairing.objects.create(
        event=made.event,
        round=made.round(round),
        table=table(made, table_number),
        home=h,
        away=a,
        home_team=h.team,
        away_team=a.team,
        game=game,
    )


def hand(side: Side, *, bid: int = 7, tricks: int = 7) -> HandEntry:
    """A hand bid by ``side`` (North or East bids), made with ``tricks`` tricks; the bidding
    side also takes the 5♥ and the 3♠ (+2 net)."""
    return HandEntry(
        kind=HandKind.PLAYED,
        bidder=Seat.NORTH if side is Side.NS else Seat.EAST,
        bid=bid,
        contract=Contract.TRUMP,
        trump=Suit.HEARTS,
        bidding_team_tricks=tricks,
        five_hearts=side,
        three_spades=side,
    )


def north_enters_a_hand(game_id: int) -> None:
    """North enters a made North-South hand at the table of an event that verifies: it waits
    for East-West to confirm it (hand 1 for a new game)."""
    hand_record(
        game_id=game_id,
        entry=hand(Side.NS),
        client_id=uuid.uuid4(),
        entered_by_seat=Seat.NORTH,
        pending=True,
    )


def record(game: Game | int, *entries: HandEntry) -> Game:
    """Records confirmed hands, running the on-commit receivers as a real request would."""
    game_id = game if isinstance(game, int) else game.id
    with TestCase.captureOnCommitCallbacks(execute=True):
        for entry in entries:
            scoring.hand_record(game_id=game_id, entry=entry, client_id=uuid.uuid4())
    return Game.objects.get(id=game_id)


def sized(
    teams: int,
    *,
    rounds: int,
    format: str = "swiss",
    tiebreaks: Sequence[str] = ("wins", "head_to_head", "buchholz", "point_difference", "seed"),
    **settings: Any,
) -> Hall:
    """A bigger event, quickly: ``teams`` entries and ``rounds`` rounds of decided games (team
    i plays team i + r + 1 in round r, the lower number winning by 52 to 20 + i % 30), written
    with bulk_create. For query counts at two sizes and the benchmark."""
    club = cast(Club, ClubFactory())
    made = hall(
        [], format=format, tiebreaks=tiebreaks, club=club, rounds=max(rounds, 1), **settings
    )
    players = Player.objects.bulk_create([Player(name=f"P{n}") for n in range(2 * teams)])
    team_rows = Team.objects.bulk_create(
        [
            Team(club=club, player_one=players[2 * n], player_two=players[2 * n + 1], name=f"T{n}")
            for n in range(teams)
        ]
    )
    entries = Entry.objects.bulk_create(
        [
            Entry(event=made.event, team=t, name=t.name, seed=n + 1, club=club)
            for n, t in enumerate(team_rows)
        ]
    )
    made.entries = {e.name: e for e in entries}
    pairings = []
    for r in range(1, rounds + 1):
        round_ = made.round(r)
        for n in range(0, teams, 2):
            home, away = entries[n], entries[(n + r) % teams]
            if home.id == away.id:
                continue
            pairings.append(
                Pairing(
                    event=made.event,
                    round=round_,
                    home=home,
                    away=away,
                    home_team_id=home.team_id,
                    away_team_id=away.team_id,
                    result="played",
                    winner_side="home",
                    home_points=52,
                    away_points=20 + n % 30,
                )
            )
    Pairing.objects.bulk_create(pairings)
    return made


def playing(made: Hall, *, games: int, round: int, hands: int = 1) -> list[Pairing]:
    """``games`` games in progress in round ``round``, at tables 1…, each with ``hands``
    confirmed hands (North–South bidding and making 7)."""
    names = list(made.entries)
    found = []
    for n in range(games):
        pairing = live_game(made, names[2 * n], names[2 * n + 1], round=round, table_number=n + 1)
        assert pairing.game_id is not None
        record(pairing.game_id, *[hand(Side.NS) for _ in range(hands)])
        found.append(pairing)
    return found
