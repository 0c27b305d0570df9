"""What a table shows: its current game, the hands, the pending hand, the acknowledgments.

The current game of a table is the first of its games, in round order, that is still being
played or whose result the two partnerships have not both acknowledged, unless a later game
at the table has started (then the earlier one is left behind, agreed to or not: a hall
forgets to tap "agree"). Until then the end-of-game screen stays. When every game is done,
the table waits for its next game and shows the last one.

A page costs a fixed number of queries whatever the number of rounds or hands.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring.choices import GameStatus, HandStatus
from scoring.models import Game, Hand
from scoring.services import Recorded
from scoring.services.play import last_hand_may_be_taken_back
from scoring.services.reopening import still_reopenable_by_its_table
from scoring.services.verification import acknowledged_by_game, pending_hand
from tournaments.choices import RoundStatus
from tournaments.game_gate import remember_pairing, table_moved_on
from tournaments.models import Event, Pairing, Round, Table

GAME_RELATED = [
    "game__ns_team",
    "game__ew_team",
    "game__north",
    "game__east",
    "game__south",
    "game__west",
]


@dataclass
class TableNow:
    table: Table
    event: Event
    pairing: Pairing | None = None
    game: Game | None = None
    round: Round | None = None
    hands: list[Hand] = field(default_factory=list)
    pending: Hand | None = None
    acknowledged: set[str] = field(default_factory=set)
    waiting: bool = False  # every game at the table is done: the next one is awaited
    take_back_open: bool = False  # the last hand is the one just entered, and may be undone

    @property
    def round_started(self) -> bool:
        return self.round is not None and self.round.status != RoundStatus.READY

    @property
    def finished(self) -> bool:
        return self.game is not None and self.game.status == GameStatus.FINISHED

    @property
    def may_enter(self) -> bool:
        """A hand can be entered now: the round is on, the game is not over, none waits."""
        return (
            self.game is not None
            and self.round_started
            and not self.finished
            and self.pending is None
            and not self.waiting
        )

    @property
    def may_undo(self) -> bool:
        """The last hand can be undone from the table: it is the hand just entered (undone
        once, never the one before), the result is not agreed and has not been carried on
        (``scoring.services.play.hand_undo_by`` judges the same)."""
        if self.game is None or self.last_hand is None or self.pending is not None:
            return False
        if not self.take_back_open:
            return False
        if self.game.forfeited_by:
            return False
        return not (self.finished and self.acknowledged >= {"ns", "ew"})

    @property
    def last_hand(self) -> Hand | None:
        return self.hands[-1] if self.hands else None


def _started(pairing: Pairing) -> bool:
    """Whether a game has started: a hand is in, its clock runs, or (a game with no clock,
    which has no start of its own) its round has started and it is not held back as late."""
    game = pairing.game
    assert game is not None
    if game.hand_count > 0 or game.started_at is not None:
        return True
    return (
        game.time_limit_minutes is None
        and pairing.round.status != RoundStatus.READY
        and not pairing.played_late
    )


def choose_current(
    pairings: list[Pairing], acknowledged: dict[int, set[str]]
) -> tuple[Pairing | None, bool]:
    """The pairing whose game the table shows, and whether the table waits for a next game."""
    games = [p for p in pairings if p.game is not None]
    for index, pairing in enumerate(games):
        game = pairing.game
        assert game is not None
        if game.status == GameStatus.IN_PROGRESS:
            return pairing, False
        done = acknowledged.get(game.id, set()) >= {"ns", "ew"}
        superseded = any(_started(later) for later in games[index + 1 :])
        if not done and not superseded:
            return pairing, False
    return (games[-1] if games else None), True


def table_current(*, table: Table) -> TableNow:
    """The table's current game, its round, the acknowledgments; no hands (a write's check)."""
    pairings = list(
        Pairing.objects.filter(table=table, game__isnull=False, cancelled=False)
        .select_related("round", *GAME_RELATED)
        .order_by("round__number", "id")
    )
    finished = [p.game for p in pairings if p.game and p.game.status == GameStatus.FINISHED]
    acknowledged = acknowledged_by_game(games=finished) if finished else {}
    for found in pairings:
        if found.event_id == table.event_id:
            found.event = table.event  # read with its club: the gate needs no query
        if found.game is not None:
            remember_pairing(found.game, found)
    pairing, waiting = choose_current(pairings, acknowledged)
    now = TableNow(table=table, event=table.event, pairing=pairing, waiting=waiting)
    if pairing is not None and pairing.game is not None:
        now.game = pairing.game
        now.round = pairing.round
        now.acknowledged = acknowledged.get(pairing.game.id, set())
    return now


def table_now(*, table: Table) -> TableNow:
    """Everything the table page shows (the table comes with its event)."""
    now = table_current(table=table)
    pairing = now.pairing
    if pairing is None or pairing.game is None:
        return now
    game = pairing.game
    now.hands = list(Hand.objects.filter(game=game).order_by("number"))
    now.pending = pending_hand(game_id=game.id) if not now.finished else None
    if now.hands:
        now.take_back_open = last_hand_may_be_taken_back(game=game) and not (
            now.finished
            and (table_moved_on(pairing) or not still_reopenable_by_its_table(game=game))
        )
    return now


def table_after_hand(*, now: TableNow, recorded: Recorded) -> TableNow:
    """The table once a hand is recorded on the game ``now`` holds: its hands read again, the
    rest known already (the hand just entered is the last change, so it may be taken back; it
    is the pending hand if it waits). Anything less plain (a retry, a game that ended) reads
    the table again (``table_now``)."""
    game = now.game
    if game is None or not recorded.created or recorded.game.status != GameStatus.IN_PROGRESS:
        return table_now(table=now.table)
    now.hands = list(Hand.objects.filter(game=game).order_by("number"))
    now.pending = recorded.hand if recorded.hand.status == HandStatus.PENDING else None
    now.take_back_open = bool(now.hands)
    return now
