"""A game's result as every surface shows it: the two scores, the winner, how the game ended,
and the sentence that says so. The club's game page and games list, a player's page, the API's
answer for a game, the table's end screen, an event's pages, its public pages, the projector
and its PDFs all read it here, so a game reads the same wherever it is shown.

The result is the game's own final score, unless something settled it otherwise:

- a **forfeit** counts ``FORFEIT_SCORE`` (52–0 to the partnership that did not forfeit), not
  the scores on the sheet when it was recorded; docs/rules.md, "Tournament rules";
- a game played within something larger (an event) has the result that larger thing counts:
  the event's own forfeit score, a result its organiser adjusted. Scoring knows nothing of
  events: that app registers a *settler* (``register``), which is asked once for a whole list
  of games (``game_results``). A reader reads its games with ``result_related()`` (and, with
  ``only``, ``result_reads()``), so that a page costs the same whatever it shows.

A game still being played has no result yet (unless settled): its current score, no winner.
The hand-by-hand running scores of a score sheet are the sheet, not the result: they stay the
hands' own."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext, pgettext

from .choices import EndReasonChoice, GameStatus, TeamChoice, end_reason_short, end_reason_text
from .models import Game

# The winner's and the loser's score when a game is forfeited ("a forfeit counts 52–0 unless
# the event says otherwise"). An event's default is the same (tournaments.models.Event).
FORFEIT_SCORE = (52, 0)
# How a game ended when an organiser set its result by hand (beside EndReasonChoice's values).
ADJUSTED = "adjusted"


@dataclass(frozen=True)
class Settled:
    """A result decided outside the game's hands (an event's forfeit score, an adjusted
    result), North–South's and East–West's scores first."""

    ns_score: int | None
    ew_score: int | None
    winner: str  # "ns" or "ew"
    how: str  # an EndReasonChoice value, or ADJUSTED


@dataclass(frozen=True)
class GameResult:
    """A game's result as shown. ``winner`` and ``how`` are empty while it is played."""

    ns_score: int | None
    ew_score: int | None
    winner: str = ""  # "ns", "ew"; "" while the game is played
    how: str = ""  # an EndReasonChoice value, or ADJUSTED; "" while the game is played

    @property
    def finished(self) -> bool:
        return bool(self.winner)

    @property
    def score_text(self) -> str:
        """North–South's score, then East–West's: "52–0"."""
        return score_pair(self.ns_score, self.ew_score)

    @property
    def how_text(self) -> str:
        """How the game ended, as a sentence ends ("reached the target", "forfeit")."""
        if self.how == ADJUSTED:
            return gettext("result adjusted by the organiser")
        return end_reason_text(self.how) if self.how else ""

    @property
    def how_short(self) -> str:
        """The same in a word or two, where room is short (a list, a bracket's box)."""
        if self.how == ADJUSTED:
            return pgettext("how a game ended", "adjusted")
        return end_reason_short(self.how) if self.how else ""

    def score_of(self, side: str) -> int | None:
        return self.ns_score if side == TeamChoice.NS else self.ew_score

    def sentence(self, ns_name: object, ew_name: object) -> str:
        """The result in a sentence ("Les Rois won by forfeit.", "Les Rois won: reached the
        target."); "" while played. ``ns_name`` and ``ew_name`` name the two partnerships as
        the page does."""
        if not self.winner:
            return ""
        team = str(ns_name if self.winner == TeamChoice.NS else ew_name)
        if self.how == EndReasonChoice.FORFEIT:
            return gettext("%(team)s won by forfeit.") % {"team": team}
        return gettext("%(team)s won: %(reason)s.") % {"team": team, "reason": self.how_text}


MINUS = "\u2212"


def score_shown(score: int | None) -> str:
    """A score as a page prints it: a true minus sign, a dash when there is none yet."""
    if score is None:
        return "–"
    return f"{MINUS}{-score}" if score < 0 else str(score)


def score_change(change: int) -> str:
    """A change of score as a page prints it: "+11", "+0", "−1" (a true minus sign)."""
    return f"{MINUS}{-change}" if change < 0 else f"+{change}"


def score_dash(first: int | None, second: int | None) -> str:
    """The dash between two scores: spaced where one is negative, which "19–-16" would hide."""
    negative = any(score is not None and score < 0 for score in (first, second))
    return "\u202f–\u202f" if negative else "–"  # narrow spaces that do not break


def score_pair(first: int | None, second: int | None) -> str:
    """Two scores as a pair: "52–0", "19 – −16"."""
    return f"{score_shown(first)}{score_dash(first, second)}{score_shown(second)}"


# --- settlers ---------------------------------------------------------------------------------

# Given games, the results settled for those it holds (by game id); a game it leaves out has
# its own result. It must cost a fixed number of queries however many games it is given.
Settler = Callable[[Sequence[Game]], Mapping[int, Settled]]
_settlers: list[Settler] = []
_related: list[str] = []
_reads: list[str] = []


def register(
    settler: Settler, *, related: tuple[str, ...] = (), reads: tuple[str, ...] = ()
) -> None:
    """``related``: what the settler reads of a game, as ``select_related`` paths from Game
    (``result_related``), so that a reader reading its games with them spares it a query.
    ``reads``: the columns it reads along them, as ``only`` paths (``result_reads``)."""
    if settler not in _settlers:
        _settlers.append(settler)
    _related.extend(path for path in related if path not in _related)
    _reads.extend(path for path in reads if path not in _reads)


def result_related() -> list[str]:
    return list(_related)


def result_reads() -> list[str]:
    return list(_reads)


# --- the selector -----------------------------------------------------------------------------


def result_of(game: Game, settled: Settled | None = None) -> GameResult:
    """The game's result given what settled it (None: nothing did; its own result, a forfeit
    counting ``FORFEIT_SCORE``)."""
    if settled is not None:
        return GameResult(settled.ns_score, settled.ew_score, settled.winner, settled.how)
    if game.status != GameStatus.FINISHED or not game.winner:
        return GameResult(game.ns_score, game.ew_score)
    if game.end_reason == EndReasonChoice.FORFEIT:
        won, lost = FORFEIT_SCORE
        ns, ew = (won, lost) if game.winner == TeamChoice.NS else (lost, won)
        return GameResult(ns, ew, game.winner, EndReasonChoice.FORFEIT)
    return GameResult(game.ns_score, game.ew_score, game.winner, game.end_reason)


def game_results(games: Iterable[Game]) -> dict[int, GameResult]:
    """Every game's result, by id; each settler is asked once for all of them (no query when
    the games were read with ``result_related()`` and ``result_reads()``)."""
    listed = list(games)
    settled: dict[int, Settled] = {}
    for settler in _settlers:
        left = [game for game in listed if game.id not in settled]
        if not left:
            break
        settled.update(settler(left))
    return {game.id: result_of(game, settled.get(game.id)) for game in listed}


def game_result(game: Game) -> GameResult:
    """One game's result (``game_results``)."""
    return game_results([game])[game.id]
