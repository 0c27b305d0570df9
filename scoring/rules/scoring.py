"""Scoring one hand (docs/rules.md, "Scoring a hand"): card points, made or failed, what
each team adds.

These functions take an entry that :func:`scoring.rules.validation.validate_hand` accepted;
they do not check it again.

Decisions where the sources are silent (docs/rules.md, "Decisions where the sources
disagree", explains those a player sees):

- Three-of-spades option (pagat): the "at least three tricks" condition for the 5♥ is read as
  part of the same sentence about the team that took the 3♠. A team with the 3♠ and one or
  two tricks scores -3 whatever else it took; a team without the 3♠ counts as usual.
- A Kaiser bid (bidder alone or team) is scored like 12 no-trump (made: twice the points,
  24; failed: -24) before the game ends on it; the defenders score as usual.
- Kaiser 40: made when the bidder alone took all eight tricks; ±40, no doubling; the game
  goes on unless a score ends it. No Kaiser bid raises the target.
- A bid-out defending team that steals the five under ``wins`` also adds its points (it wins
  at once anyway), as under ``scores``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scoring.rules.clock import is_after_time
from scoring.rules.results import HandResult, PerTeam
from scoring.rules.ruleset import KaiserBid, RuleSet, StealTheFive
from scoring.rules.types import Contract, HandEntry, HandKind, Side

if TYPE_CHECKING:
    from scoring.rules.game import GameState

NO_TRUMP_CONTRACTS = frozenset({Contract.NO_TRUMP, Contract.LOW_NO_TRUMP})
KAISER_POINTS = 12  # what a Kaiser bid must take, as 12 no-trump
KAISER_40_SCORE = 40


def card_points(rules: RuleSet, tricks: int, good_card: bool, bad_card: bool) -> int:
    """The points of a team that took ``tricks`` tricks and maybe the good and bad cards."""
    if rules.three_spades_needs_three_tricks and bad_card and tricks < 3:
        return -rules.three_penalty
    bonus = rules.five_bonus if good_card else 0
    penalty = rules.three_penalty if bad_card else 0
    return tricks + bonus - penalty


def hand_points(rules: RuleSet, entry: HandEntry) -> PerTeam:
    """Each team's card points in a played hand (zero for a misdeal)."""
    if entry.kind is HandKind.MISDEAL or entry.bidder is None:
        return PerTeam(0, 0)
    bidders = entry.bidder.team
    tricks = entry.bidding_team_tricks or 0
    points = PerTeam(0, 0)
    for team, team_tricks in ((bidders, tricks), (bidders.other, 8 - tricks)):
        value = card_points(
            rules, team_tricks, entry.five_hearts is team, entry.three_spades is team
        )
        points = points.with_(team, value)
    return points


def bid_made(rules: RuleSet, entry: HandEntry, bidding_points: int) -> bool:
    """Whether the bidding team made its contract, given the points it took."""
    bid = entry.bid or 0
    if entry.contract is not Contract.KAISER:
        return bidding_points >= bid
    tricks = entry.bidding_team_tricks or 0
    alone = entry.bidder_tricks
    if rules.kaiser_bid is KaiserBid.KAISER_40:
        return alone == 8
    if rules.kaiser_bid is KaiserBid.BIDDER_ALONE and alone != tricks:
        return False  # the partner took a trick
    return bidding_points >= KAISER_POINTS


def bidding_change(rules: RuleSet, entry: HandEntry, bidding_points: int, made: bool) -> int:
    """What the bidding team adds to its score (negative when it failed)."""
    bid = entry.bid or 0
    if entry.contract is Contract.KAISER:
        if rules.kaiser_bid is KaiserBid.KAISER_40:
            return KAISER_40_SCORE if made else -KAISER_40_SCORE
        return 2 * bidding_points if made else -2 * KAISER_POINTS
    factor = 2 if entry.contract in NO_TRUMP_CONTRACTS else 1
    if not made:
        return -factor * bid
    return factor * (bid if rules.no_overtricks else bidding_points)


def stole_the_five(rules: RuleSet, entry: HandEntry, defenders: Side, bid_out: bool) -> bool:
    """A bid-out defending team took the 5♥ where steal-the-five is on."""
    return (
        bid_out and rules.steal_the_five is not StealTheFive.OFF and entry.five_hearts is defenders
    )


def defending_change(
    rules: RuleSet, entry: HandEntry, defenders: Side, points: int, bid_out: bool
) -> int:
    """What the defenders add: their points, except positive points while bid out."""
    if bid_out and points > 0 and not stole_the_five(rules, entry, defenders, bid_out):
        return 0
    return points


def raises_target(rules: RuleSet, entry: HandEntry, made: bool, target: int) -> bool:
    """A made (high or low) no-trump bid raises the target once, where the option is on."""
    return (
        made
        and entry.contract in NO_TRUMP_CONTRACTS
        and rules.raised_target is not None
        and target < rules.raised_target
    )


def score_hand(rules: RuleSet, state: GameState, entry: HandEntry) -> HandResult:
    """The result of ``entry`` as the next hand of ``state`` (the entry must be valid)."""
    after_time = is_after_time(state, entry)
    if entry.kind is HandKind.MISDEAL or entry.bidder is None:
        return HandResult(
            number=state.next_number,
            dealer=state.dealer,
            entry=entry,
            bidding_team=None,
            points=PerTeam(0, 0),
            made=None,
            changes=PerTeam(0, 0),
            scores=state.scores,
            bid_out=frozenset(),
            target=state.target,
            after_time=after_time,
        )
    bidders = entry.bidder.team
    defenders = bidders.other
    points = hand_points(rules, entry)
    made = bid_made(rules, entry, points[bidders])
    defenders_bid_out = defenders in state.bid_out
    changes = PerTeam(0, 0)
    changes = changes.with_(bidders, bidding_change(rules, entry, points[bidders], made))
    changes = changes.with_(
        defenders,
        defending_change(rules, entry, defenders, points[defenders], defenders_bid_out),
    )
    target = state.target
    if raises_target(rules, entry, made, target):
        assert rules.raised_target is not None
        target = rules.raised_target
    return HandResult(
        number=state.next_number,
        dealer=state.dealer,
        entry=entry,
        bidding_team=bidders,
        points=points,
        made=made,
        changes=changes,
        scores=state.scores + changes,
        bid_out=frozenset({defenders}) if defenders_bid_out else frozenset(),
        target=target,
        after_time=after_time,
    )
