"""A game as a sequence of hands: immutable states, one hand at a time.

``new_game`` starts one; ``preview_hand`` shows a hand's result before it is confirmed;
``apply_hand`` takes it; ``replay`` rebuilds a game from its entries (deterministic: the same
entries give the same state); ``call_time`` and ``forfeit`` end games from outside the rules.

Decisions where the sources are silent (docs/rules.md, "Decisions where the sources
disagree", explains those a player sees):

- The deal: after a played hand it passes to the dealer's left; after a misdeal it stays or
  passes on as the rule set says.
- The bid-out line rises to ``raised_bid_out_line`` with the target (and stays put when that
  option is empty). ``GameState.bid_out`` lists the teams at or above the line, that is the
  teams that would be bid out if they defend the next hand.
- The clock: a hand completed at or before the call (or with no completion time) counts as
  before it. The first hand completed after it (or any hand after such a hand) is after time.
  ``call_time`` counts once: calling it again, or on a finished game, changes nothing. Calling
  it late (a recorded hand was completed after the call) replays the game, so that hand
  becomes the hand in play; a hand the late call makes one too many is refused
  (``HandRefused``).
- ``forfeit`` on a finished game is refused with ``game_over``.
- All datetimes given to one game must be alike (all timezone-aware, or all naive).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from scoring.rules.clock import awaiting_hand_in_play, end_on_time
from scoring.rules.ending import end_by_rules
from scoring.rules.refusals import HandRefused, RuleSetInvalid
from scoring.rules.results import HandResult, PerTeam
from scoring.rules.ruleset import MisdealRedeal, RuleSet
from scoring.rules.scoring import score_hand
from scoring.rules.types import EndReason, HandEntry, HandKind, Seat, Side
from scoring.rules.validation import game_refusals, validate_hand

__all__ = [
    "GameState",
    "HandResult",
    "PerTeam",
    "apply_hand",
    "call_time",
    "forfeit",
    "new_game",
    "preview_hand",
    "replay",
    "resume",
]


@dataclass(frozen=True)
class GameState:
    """A game after some hands. ``dealer`` deals the next hand."""

    rules: RuleSet
    first_dealer: Seat
    hands: tuple[HandResult, ...]
    scores: PerTeam
    dealer: Seat
    target: int
    bid_out_line: int | None
    bid_out: frozenset[Side]
    over: bool
    winner: Side | None
    end_reason: EndReason | None
    time_called_at: datetime | None
    awaiting_hand_in_play: bool
    # A game resumed from what its row keeps (``resume``) carries only the hands applied since:
    # these say what the hands before them were as far as the next hand needs to know.
    earlier: int = 0  # how many hands came before ``hands``
    earlier_after_time: bool = False  # one of them was after time
    earlier_played_after_time: bool = False  # one of them was a played hand after time

    @property
    def next_number(self) -> int:
        """The number of the next hand (1-based; misdeals count as hands)."""
        return self.earlier + len(self.hands) + 1

    @property
    def hand_count(self) -> int:
        return self.earlier + len(self.hands)

    @property
    def any_after_time(self) -> bool:
        """A hand so far was after time (every later hand is then after time too)."""
        return self.earlier_after_time or any(hand.after_time for hand in self.hands)

    @property
    def played_after_time(self) -> bool:
        """A played hand so far was after time (the hand in play is no longer awaited)."""
        return self.earlier_played_after_time or any(
            hand.after_time and hand.entry.kind is HandKind.PLAYED for hand in self.hands
        )


def _bid_out(scores: PerTeam, line: int | None) -> frozenset[Side]:
    if line is None:
        return frozenset()
    return frozenset(team for team in Side if scores[team] >= line)


def new_game(rules: RuleSet, first_dealer: Seat) -> GameState:
    """A game not yet played; refuses an inconsistent rule set (``RuleSetInvalid``)."""
    problems = rules.problems()
    if problems:
        raise RuleSetInvalid(problems)
    scores = PerTeam(0, 0)
    return GameState(
        rules=rules,
        first_dealer=first_dealer,
        hands=(),
        scores=scores,
        dealer=first_dealer,
        target=rules.target,
        bid_out_line=rules.bid_out_line,
        bid_out=_bid_out(scores, rules.bid_out_line),
        over=False,
        winner=None,
        end_reason=None,
        time_called_at=None,
        awaiting_hand_in_play=False,
    )


def preview_hand(state: GameState, entry: HandEntry) -> HandResult:
    """The result ``entry`` would have as the next hand; raises ``HandRefused``."""
    refusals = validate_hand(state.rules, state, entry)
    if refusals:
        raise HandRefused(refusals)
    return score_hand(state.rules, state, entry)


def apply_hand(state: GameState, entry: HandEntry) -> GameState:
    """The game after ``entry``; raises ``HandRefused`` with every refusal."""
    rules = state.rules
    result = preview_hand(state, entry)
    line = state.bid_out_line
    if result.target != state.target and rules.raised_bid_out_line is not None:
        line = rules.raised_bid_out_line
    if entry.kind is HandKind.MISDEAL and rules.misdeal_redeal is MisdealRedeal.SAME_DEALER:
        dealer = state.dealer
    else:
        dealer = state.dealer.left
    ending = end_by_rules(rules, result) or end_on_time(result)
    hands = (*state.hands, result)
    return replace(
        state,
        hands=hands,
        scores=result.scores,
        dealer=dealer,
        target=result.target,
        bid_out_line=line,
        bid_out=_bid_out(result.scores, line),
        over=ending is not None,
        winner=ending[0] if ending else None,
        end_reason=ending[1] if ending else None,
        awaiting_hand_in_play=not state.earlier_played_after_time
        and awaiting_hand_in_play(state.time_called_at, hands, ending is not None),
    )


def resume(
    rules: RuleSet,
    first_dealer: Seat,
    *,
    hand_count: int,
    scores: PerTeam,
    dealer: Seat,
    target: int,
    bid_out_line: int | None,
    over: bool,
    winner: Side | None,
    end_reason: EndReason | None,
    time_called_at: datetime | None,
    after_time: bool,
    played_after_time: bool,
) -> GameState:
    """A game as a stored game keeps it after ``hand_count`` hands, without the hands: what
    ``apply_hand`` needs for the next one. Applying a hand to it gives the state a replay of
    every hand gives (the hands themselves aside); ``call_time`` on it is not defined (the
    caller replays instead)."""
    return GameState(
        rules=rules,
        first_dealer=first_dealer,
        hands=(),
        scores=scores,
        dealer=dealer,
        target=target,
        bid_out_line=bid_out_line,
        bid_out=_bid_out(scores, bid_out_line),
        over=over,
        winner=winner,
        end_reason=end_reason,
        time_called_at=time_called_at,
        awaiting_hand_in_play=time_called_at is not None and not over and not played_after_time,
        earlier=hand_count,
        earlier_after_time=after_time,
        earlier_played_after_time=played_after_time,
    )


def replay(
    rules: RuleSet,
    first_dealer: Seat,
    entries: Iterable[HandEntry],
    *,
    time_called_at: datetime | None = None,
    forfeited_by: Side | None = None,
) -> GameState:
    """The game these entries make, time called and forfeit included; deterministic."""
    state = new_game(rules, first_dealer)
    if time_called_at is not None:
        state = replace(state, time_called_at=time_called_at, awaiting_hand_in_play=True)
    for entry in entries:
        state = apply_hand(state, entry)
    if forfeited_by is not None:
        state = forfeit(state, forfeited_by)
    return state


def call_time(state: GameState, at: datetime) -> GameState:
    """Time is called at ``at``: the hand in play is finished, then the higher score wins."""
    if state.over or state.time_called_at is not None:
        return state
    if not any(
        hand.entry.completed_at is not None and hand.entry.completed_at > at for hand in state.hands
    ):
        return replace(state, time_called_at=at, awaiting_hand_in_play=True)
    return replay(
        state.rules,
        state.first_dealer,
        (hand.entry for hand in state.hands),
        time_called_at=at,
    )


def forfeit(state: GameState, team: Side) -> GameState:
    """``team`` forfeits: the other team wins (``EndReason.FORFEIT``)."""
    refusals = game_refusals(state)
    if refusals:
        raise HandRefused(refusals)
    return replace(
        state,
        over=True,
        winner=team.other,
        end_reason=EndReason.FORFEIT,
        awaiting_hand_in_play=False,
    )
