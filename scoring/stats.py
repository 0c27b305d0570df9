"""Player and partnership statistics, read from finished games with aggregate queries.

What counts (the definitions the player page states):

- Only **finished** games count, and all of them, forfeits included; a game in progress counts
  once it ends. A player's partner in a game is the player in the opposite seat.
- **games**, **wins**: finished games the player sat in, and those their side won.
- **bids taken**: played hands whose bidder sat in the player's seat (forced dealer bids
  included); **made**: those the bidding team made. For a partnership, the bids of either
  partner. **No-trump bids**: high or low no-trump (a Kaiser bid is counted apart).
- **points per hand**: the card points the player's side took in a played hand (tricks, 5♥,
  3♠; misdeals left out), averaged; **net per hand**: what the hand added to the side's score.
- **set to the minus line**: finished games the player's side lost because it fell to the
  minus line (the game's end reason is "minus line" and the other side won).
- **best partner**: the partner with whom the player won the most games; on a tie, the better
  win rate, then the name.

Cost: three queries for a player with every partnership (games grouped by partner, hands
grouped by partner, the partners' names), whatever the number of games.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from django.db.models import (
    Case,
    Count,
    F,
    IntegerField,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from kaiser_club.models import Player

from .choices import ContractChoice, EndReasonChoice, GameStatus, HandKindChoice
from .models import Game, Hand

SEATS = ("north", "east", "south", "west")  # in Seat order: the index is the seat's value
PARTNER = {"north": "south", "east": "west", "south": "north", "west": "east"}
NO_TRUMP = [ContractChoice.NO_TRUMP, ContractChoice.LOW_NO_TRUMP]


@dataclass(frozen=True)
class Record:
    """The numbers of a player, or of a partnership, over finished games."""

    games: int = 0
    wins: int = 0
    minus_line_losses: int = 0
    hands: int = 0
    points: int = 0
    net: int = 0
    bids: int = 0
    bids_made: int = 0
    no_trump_bids: int = 0
    no_trump_made: int = 0
    kaiser_bids: int = 0

    @property
    def losses(self) -> int:
        return self.games - self.wins

    @property
    def win_pct(self) -> float | None:
        return 100.0 * self.wins / self.games if self.games else None

    @property
    def bids_made_pct(self) -> float | None:
        return 100.0 * self.bids_made / self.bids if self.bids else None

    @property
    def points_per_hand(self) -> float | None:
        return self.points / self.hands if self.hands else None

    @property
    def net_per_hand(self) -> float | None:
        return self.net / self.hands if self.hands else None

    def __add__(self, other: Record) -> Record:
        return Record(
            **{f.name: getattr(self, f.name) + getattr(other, f.name) for f in fields(Record)}
        )


@dataclass(frozen=True)
class Partnership:
    """Two players as partners: ``record`` counts the bids of either."""

    player: Player
    partner: Player
    record: Record


@dataclass(frozen=True)
class PlayerStats:
    player: Player
    record: Record  # the player's own bids
    partnerships: list[Partnership]  # most games together first

    @property
    def best_partner(self) -> Partnership | None:
        winners = [p for p in self.partnerships if p.record.wins]
        if not winners:
            return None
        return min(
            winners,
            key=lambda p: (
                -p.record.wins,
                -(p.record.win_pct or 0),
                p.partner.name,
                p.partner.id,
            ),
        )


def _in_game(player_id: int, prefix: str = "") -> Q:
    seated = Q()
    for seat in SEATS:
        seated |= Q(**{f"{prefix}{seat}_id": player_id})
    return seated


def _partner(player_id: int, prefix: str = "") -> Case:
    return Case(
        *[
            When(**{f"{prefix}{seat}_id": player_id}, then=F(f"{prefix}{PARTNER[seat]}_id"))
            for seat in SEATS
        ],
        output_field=IntegerField(),
    )


def _seat(player_id: int, prefix: str = "") -> Case:
    return Case(
        *[When(**{f"{prefix}{seat}_id": player_id}, then=Value(i)) for i, seat in enumerate(SEATS)],
        output_field=IntegerField(),
    )


def _side(player_id: int, prefix: str = "") -> Case:
    """'ns' or 'ew': the player's side in the game."""
    north_south = Q(**{f"{prefix}north_id": player_id}) | Q(**{f"{prefix}south_id": player_id})
    return Case(When(north_south, then=Value("ns")), default=Value("ew"))


def _finished_games(player_id: int) -> QuerySet[Game]:
    return Game.objects.filter(_in_game(player_id), status=GameStatus.FINISHED)


def _game_rows(player_id: int, partner_id: int | None) -> dict[int, dict[str, Any]]:
    qs = _finished_games(player_id).annotate(partner=_partner(player_id), side=_side(player_id))
    if partner_id is not None:
        qs = qs.filter(partner=partner_id)
    lost = ~Q(winner=F("side"))
    rows = qs.values("partner").annotate(
        games=Count("id"),
        wins=Count("id", filter=Q(winner=F("side"))),
        minus_line_losses=Count("id", filter=Q(end_reason=EndReasonChoice.MINUS_LINE) & lost),
    )
    return {row["partner"]: dict(row) for row in rows}


def _hand_rows(player_id: int, partner_id: int | None) -> dict[int, dict[str, Any]]:
    qs = Hand.objects.filter(
        _in_game(player_id, "game__"),
        game__status=GameStatus.FINISHED,
        kind=HandKindChoice.PLAYED,
    ).annotate(
        partner=_partner(player_id, "game__"),
        side=_side(player_id, "game__"),
        seat=_seat(player_id, "game__"),
    )
    if partner_id is not None:
        qs = qs.filter(partner=partner_id)
    mine = Q(bidder=F("seat"))
    ours = Q(side="ns", bidder__in=[0, 2]) | Q(side="ew", bidder__in=[1, 3])
    made = Q(made=True)
    nt = Q(contract__in=NO_TRUMP)
    kaiser = Q(contract=ContractChoice.KAISER)
    side_value = {
        "points": ("ns_points", "ew_points"),
        "net": ("ns_change", "ew_change"),
    }
    sums = {
        name: Coalesce(
            Sum(Case(When(side="ns", then=F(ns)), default=F(ew), output_field=IntegerField())),
            0,
        )
        for name, (ns, ew) in side_value.items()
    }
    counts = {}
    for who, q in (("own", mine), ("team", ours)):
        counts[f"{who}_bids"] = Count("id", filter=q)
        counts[f"{who}_bids_made"] = Count("id", filter=q & made)
        counts[f"{who}_no_trump_bids"] = Count("id", filter=q & nt)
        counts[f"{who}_no_trump_made"] = Count("id", filter=q & nt & made)
        counts[f"{who}_kaiser_bids"] = Count("id", filter=q & kaiser)
    rows = qs.values("partner").annotate(hands=Count("id"), **sums, **counts)
    return {row["partner"]: dict(row) for row in rows}


BID_FIELDS = ("bids", "bids_made", "no_trump_bids", "no_trump_made", "kaiser_bids")


def _record(game_row: dict[str, Any], hand_row: dict[str, Any] | None, who: str) -> Record:
    hand_row = hand_row or {}
    return Record(
        games=game_row["games"],
        wins=game_row["wins"],
        minus_line_losses=game_row["minus_line_losses"],
        hands=hand_row.get("hands", 0),
        points=hand_row.get("points", 0),
        net=hand_row.get("net", 0),
        **{name: hand_row.get(f"{who}_{name}", 0) for name in BID_FIELDS},
    )


def player_stats(*, player: Player) -> PlayerStats:
    """The player's record and one record per partner they played with. Three queries."""
    games = _game_rows(player.id, None)
    hands = _hand_rows(player.id, None)
    partners = Player.objects.in_bulk(list(games))
    total = Record()
    partnerships = []
    for partner_id, game_row in games.items():
        total += _record(game_row, hands.get(partner_id), "own")
        partnerships.append(
            Partnership(
                player=player,
                partner=partners[partner_id],
                record=_record(game_row, hands.get(partner_id), "team"),
            )
        )
    partnerships.sort(key=lambda p: (-p.record.games, p.partner.name, p.partner.id))
    return PlayerStats(player=player, record=total, partnerships=partnerships)


def partnership_stats(*, player: Player, partner: Player) -> Partnership:
    """Two players' record as partners (the bids of either). Two queries."""
    game_row = _game_rows(player.id, partner.id).get(partner.id)
    if game_row is None:
        return Partnership(player=player, partner=partner, record=Record())
    hand_row = _hand_rows(player.id, partner.id).get(partner.id)
    return Partnership(player=player, partner=partner, record=_record(game_row, hand_row, "team"))
