"""When a game ends by the rules: the checks of docs/rules.md, "The end of a game", after
each hand.

Order (docs/rules.md, "The end of a game"): a Kaiser bid decides at once; then (1) the bidding
team reached the target; (2) the bidding team fell to the minus line; (3) a bid-out defending
team stole the five under ``wins``; (4) the defenders reached the target, unless bid-to-win;
(5) the defenders fell to the minus line. Both teams past the target: the bidding team wins,
or under ``both_reach_target = higher`` the higher score (equal scores: the bidding team).
"""

from __future__ import annotations

from scoring.rules.results import Ending, HandResult
from scoring.rules.ruleset import BothReachTarget, KaiserBid, RuleSet, StealTheFive
from scoring.rules.scoring import stole_the_five
from scoring.rules.types import Contract, EndReason, HandKind


def end_by_rules(rules: RuleSet, result: HandResult) -> Ending | None:
    """Whether this hand ends the game by the rules (not the clock), and who won."""
    bidders = result.bidding_team
    if result.entry.kind is HandKind.MISDEAL or bidders is None:
        return None
    defenders = bidders.other
    scores = result.scores
    if result.entry.contract is Contract.KAISER and rules.kaiser_bid in (
        KaiserBid.BIDDER_ALONE,
        KaiserBid.TEAM,
    ):
        return (bidders if result.made else defenders, EndReason.KAISER_BID)
    minus_line = rules.minus_line
    if scores[bidders] >= result.target:
        if (
            rules.both_reach_target is BothReachTarget.HIGHER
            and not rules.bid_to_win
            and scores[defenders] > scores[bidders]
        ):
            return (defenders, EndReason.TARGET)
        return (bidders, EndReason.TARGET)
    if minus_line is not None and scores[bidders] <= minus_line:
        return (defenders, EndReason.MINUS_LINE)
    if rules.steal_the_five is StealTheFive.WINS and stole_the_five(
        rules, result.entry, defenders, defenders in result.bid_out
    ):
        return (defenders, EndReason.STEAL_THE_FIVE)
    if not rules.bid_to_win and scores[defenders] >= result.target:
        return (defenders, EndReason.TARGET)
    if minus_line is not None and scores[defenders] <= minus_line:
        return (bidders, EndReason.MINUS_LINE)
    return None
