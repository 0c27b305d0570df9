"""After a fault or a load run: nothing lost, nothing doubled, every score a replay.

Reads the database directly (psycopg, no Django) and replays each game's stored hands through
the pure rules engine (``scoring.rules.replay``): the game's stored scores, hand count and
every hand's running scores must be what the replay gives, and the stored hands must be
exactly the hands the clients saw acknowledged (by their client-made ids)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from scoring.rules import (
    Contract,
    HandEntry,
    HandKind,
    MisdealReason,
    RuleSet,
    Seat,
    Side,
    Suit,
    replay,
)


@dataclass(frozen=True)
class StoredGame:
    row: dict[str, Any]
    hands: list[dict[str, Any]]


def load_games(database_url: str, game_ids: Iterable[int]) -> dict[int, StoredGame]:
    ids = sorted(set(game_ids))
    with psycopg.connect(database_url, row_factory=dict_row) as conn:
        games = conn.execute("SELECT * FROM scoring_game WHERE id = ANY(%s)", [ids]).fetchall()
        hands = conn.execute(
            "SELECT * FROM scoring_hand WHERE game_id = ANY(%s) AND status = 'confirmed' "
            "ORDER BY game_id, number",
            [ids],
        ).fetchall()
    stored = {g["id"]: StoredGame(row=g, hands=[]) for g in games}
    for hand in hands:
        stored[hand["game_id"]].hands.append(hand)
    return stored


def doubled_client_ids(database_url: str, game_ids: Iterable[int]) -> list[tuple[int, str, int]]:
    """(game, client id, rows) for every client id stored more than once in a game."""
    with psycopg.connect(database_url) as conn:
        rows = conn.execute(
            "SELECT game_id, client_id::text, count(*) FROM scoring_hand "
            "WHERE game_id = ANY(%s) GROUP BY game_id, client_id HAVING count(*) > 1",
            [sorted(set(game_ids))],
        ).fetchall()
    return [(int(g), str(c), int(n)) for g, c, n in rows]


def _team(value: str) -> Side | None:
    return Side(value) if value else None


def row_entry(hand: Mapping[str, Any]) -> HandEntry:
    """A stored hand row as the rules engine's entry (written here, not taken from the app, so
    a mistake in the app's own conversion cannot hide itself)."""
    return HandEntry(
        kind=HandKind(hand["kind"]),
        bidder=Seat(hand["bidder"]) if hand["bidder"] is not None else None,
        bid=hand["bid"],
        contract=Contract(hand["contract"]),
        trump=Suit(hand["trump"]) if hand["trump"] else None,
        forced=hand["forced"],
        bidding_team_tricks=hand["bidding_team_tricks"],
        five_hearts=_team(hand["five_hearts"]),
        three_spades=_team(hand["three_spades"]),
        bidder_tricks=hand["bidder_tricks"],
        misdeal_reason=MisdealReason(hand["misdeal_reason"]) if hand["misdeal_reason"] else None,
        completed_at=hand["completed_at"],
    )


def replay_problems(game: StoredGame) -> list[str]:
    """Where the stored game differs from a replay of its stored hands."""
    row = game.row
    state = replay(
        RuleSet.from_dict(row["rules"]),
        Seat(row["first_dealer"]),
        [row_entry(h) for h in game.hands],
        time_called_at=row["time_called_at"],
        forfeited_by=_team(row["forfeited_by"]),
    )
    problems = []
    numbers = [h["number"] for h in game.hands]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"game {row['id']}: hand numbers {numbers} are not 1..{len(numbers)}")
    stored = (row["ns_score"], row["ew_score"], row["hand_count"], row["dealer"])
    replayed = (state.scores.ns, state.scores.ew, len(state.hands), int(state.dealer))
    if stored != replayed:
        problems.append(
            f"game {row['id']}: stored (ns, ew, hands, dealer) {stored}, replay {replayed}"
        )
    for hand, result in zip(game.hands, state.hands, strict=True):
        if (hand["ns_score"], hand["ew_score"]) != (result.scores.ns, result.scores.ew):
            problems.append(
                f"game {row['id']} hand {hand['number']}: stored "
                f"{hand['ns_score']}-{hand['ew_score']}, replay "
                f"{result.scores.ns}-{result.scores.ew}"
            )
    return problems


def check(
    database_url: str, acknowledged: Mapping[int, Iterable[tuple[str, int]]]
) -> tuple[list[str], dict[str, int]]:
    """``acknowledged``: per game, the (client id, hand number) pairs clients saw acknowledged.
    Returns the problems found (empty: all good) and a few totals."""
    acked = {game: dict(pairs) for game, pairs in acknowledged.items()}
    stored = load_games(database_url, acked)
    problems: list[str] = []
    hands = 0
    for game_id, expected in acked.items():
        game = stored.get(game_id)
        if game is None:
            problems.append(f"game {game_id} is missing")
            continue
        hands += len(game.hands)
        have = {str(h["client_id"]): h["number"] for h in game.hands}
        lost = sorted(set(expected) - set(have))
        ghosts = sorted(set(have) - set(expected))
        if lost:
            problems.append(f"game {game_id}: {len(lost)} acknowledged hands lost: {lost[:3]}")
        if ghosts:
            problems.append(f"game {game_id}: {len(ghosts)} hands nobody saw acknowledged")
        moved = [c for c in set(expected) & set(have) if expected[c] != have[c]]
        if moved:
            problems.append(f"game {game_id}: {len(moved)} hands stored under another number")
        problems.extend(replay_problems(game))
    for game_id, client_id, rows in doubled_client_ids(database_url, acked):
        problems.append(f"game {game_id}: client id {client_id} stored {rows} times")
    totals = {"games": len(stored), "hands": hands, "acknowledged": sum(map(len, acked.values()))}
    return problems, totals
