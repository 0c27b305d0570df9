"""How the table page says things: seats, teams, contracts, the score sheet, the end of a game,
and the state the page's script keeps (version, deadline, whose deal)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from scoring.choices import GameStatus, end_reason_text
from scoring.models import Game, Hand
from scoring.rows_and_rules import game_rules
from scoring.rules import (
    GameState,
    HandResult,
    KaiserBid,
    MisdealRedeal,
    NoTrump,
    RuleSet,
    Seat,
    Side,
)
from scoring.rules.scoring import stole_the_five
from scoring.score_sheet import (
    SUIT_SIGNS,
    ScoreSheet,
    score_sheet,
    seat_letter,
    seat_name,
)

from .selectors import TableNow

SEAT_KEYS = ["north", "east", "south", "west"]


def team_name(team: str) -> str:
    return _("North–South") if team == Side.NS.value else _("East–West")


def suit_names() -> dict[str, str]:
    return {
        "clubs": _("Clubs"),
        "diamonds": _("Diamonds"),
        "hearts": _("Hearts"),
        "spades": _("Spades"),
    }


def board_sheet(now: TableNow) -> ScoreSheet | None:
    """The table's score sheet: its game's confirmed hands, then the hand waiting for
    confirmation, which only the table sees before it counts."""
    if now.game is None:
        return None
    return score_sheet(now.game, now.hands, pending=now.pending)


def entry_json(hand: Hand) -> dict[str, Any]:
    """A stored hand as the page's form fills it back (after "not right")."""
    return {
        "kind": hand.kind,
        "bidder": hand.bidder,
        "bid": hand.bid,
        "contract": hand.contract,
        "trump": hand.trump,
        "forced": hand.forced,
        "bidding_team_tricks": hand.bidding_team_tricks,
        "five_hearts": hand.five_hearts,
        "three_spades": hand.three_spades,
        "bidder_tricks": hand.bidder_tricks,
        "misdeal_reason": hand.misdeal_reason,
    }


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    sign: str = ""


def form_choices(rules: RuleSet) -> dict[str, Any]:
    """What the entry form offers under this game's rules: nothing the rules refuse outright."""
    names = suit_names()
    contracts = [
        Choice(s, names[s], SUIT_SIGNS[s]) for s in ("clubs", "diamonds", "hearts", "spades")
    ]
    if rules.no_trump is not NoTrump.NONE:
        contracts.append(Choice("no_trump", _("No trump"), _("NT")))
    if rules.no_trump is NoTrump.HIGH_AND_LOW:
        contracts.append(Choice("low_no_trump", _("Low no trump"), _("low NT")))
    if rules.kaiser_bid is not KaiserBid.OFF:
        contracts.append(Choice("kaiser", _("Kaiser bid (12 no trump)"), _("Kaiser")))
    misdeal_names = {
        "no_honours": _("No ace, face card, 5♥ or 3♠"),
        "no_face_card": _("No face card"),
        "four_of_a_kind": _("Four 8s, 9s or 10s"),
        "all_pass": _("Everyone passed"),
    }
    return {
        "bids": list(range(rules.min_bid, rules.max_bid + 1)),
        "contracts": contracts,
        "tricks": list(range(9)),
        "forced_allowed": not rules.pass_out_is_misdeal,
        "misdeals": [Choice(r.value, misdeal_names[r.value]) for r in sorted(rules.misdeals)],
        "kaiser": rules.kaiser_bid is not KaiserBid.OFF,
        "good_card": rules.good_card,
        "bad_card": rules.bad_card,
        "min_bid": rules.min_bid,
    }


def seats(game: Game) -> list[dict[str, Any]]:
    players = game.seat_players()
    return [
        {
            "seat": number,
            "key": SEAT_KEYS[number],
            "name": seat_name(number),
            "letter": seat_letter(number),
            "player": players[number].name,
            "team": Seat(number).team.value,
            "dealer": number == game.dealer and game.status == GameStatus.IN_PROGRESS,
        }
        for number in range(4)
    ]


def ms(value: Any) -> int | None:
    return int(value.timestamp() * 1000) if value is not None else None


def page_state(now: TableNow, *, verification: bool) -> dict[str, Any]:
    """What the page's script keeps between server answers."""
    game = now.game
    state: dict[str, Any] = {
        "table": now.table.id,
        "server_now": int(time.time() * 1000),
        "waiting": now.waiting,
        "verification": verification,
        "game": None,
    }
    if game is None:
        return state
    rules = game_rules(game)
    last = now.last_hand
    state["game"] = {
        "id": game.id,
        "version": game.version,
        "status": game.status,
        "next_number": game.hand_count + 1,
        "hand_count": game.hand_count,
        "dealer": game.dealer,
        "deadline": ms(game.deadline),
        "paused": game.paused_at is not None,
        "time_called": ms(game.time_called_at),
        "round_started": now.round_started,
        "may_enter": now.may_enter,
        "pending": now.pending.number if now.pending else None,
        "last": {"number": last.number, "client_id": str(last.client_id)} if last else None,
        "acknowledged": sorted(now.acknowledged),
        "may_undo": now.may_undo,
        "min_bid": rules.min_bid,
        "misdeal_same_dealer": rules.misdeal_redeal is MisdealRedeal.SAME_DEALER,
        "forced_allowed": not rules.pass_out_is_misdeal,
    }
    return state


def preview_context(before: GameState, after: GameState) -> dict[str, Any]:
    """Both teams' points, made or set, the new scores, and what changes with them."""
    result: HandResult = after.hands[-1]
    bidders = result.bidding_team
    teams = []
    for side in (Side.NS, Side.EW):
        teams.append(
            {
                "team": side.value,
                "name": team_name(side.value),
                "points": result.points[side],
                "change": result.changes[side],
                "score": result.scores[side],
                "bidding": side is bidders,
                "bid_out": side in result.bid_out,
                "stole_five": side is not bidders
                and stole_the_five(after.rules, result.entry, side, side in result.bid_out),
            }
        )
    return {
        "result": result,
        "misdeal": bidders is None,
        "made": result.made,
        "teams": teams,
        "target_rises": after.target != before.target,
        "target": after.target,
        "over": after.over,
        "winner": team_name(after.winner.value) if after.winner else "",
        "reason": end_reason_text(after.end_reason.value) if after.end_reason else "",
        "after_time": result.after_time,
        "next_dealer": seat_name(int(after.dealer)),
    }
