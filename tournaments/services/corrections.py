"""What correcting one hand of an event's game would change, shown before it is done.

The preview makes the very correction the organiser asked for, through the same service as
the page's and the API's (``scoring.services.hand_correct_by``), carries it through the event as a
committed change would (``game_result_sync``: the pairing's result, the bracket after it), reads
what changed, and rolls everything back. So it is refused exactly where the correction would be
(a hand the rules refuse, a winner who already played on, with the later games named), and it
shows exactly what the correction would write."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput
from scoring import services as scoring
from scoring.models import Game, Hand
from scoring.rules import HandEntry

from ..game_result import pairing_result
from ..models import Pairing
from .results import game_result_sync


@dataclass(frozen=True)
class ScoreChange:
    number: int
    before: tuple[int, int]  # north-south, east-west after this hand, as it stands
    after: tuple[int, int] | None  # None: the hand would no longer be played (game over)

    @property
    def changed(self) -> bool:
        return self.before != self.after


@dataclass(frozen=True)
class BracketChange:
    code: str
    before: str
    after: str


@dataclass(frozen=True)
class CorrectionPreview:
    number: int
    hands: list[ScoreChange]  # the corrected hand and every later one
    result_before: str
    result_after: str
    bracket: list[BracketChange]

    @property
    def result_changed(self) -> bool:
        return self.result_before != self.result_after


class _Undo(Exception):
    """Raised to roll the trial correction back."""


def _scores(game_id: int) -> dict[int, tuple[int, int]]:
    rows = Hand.objects.filter(game_id=game_id).values_list("number", "ns_score", "ew_score")
    return {number: (ns, ew) for number, ns, ew in rows}


def _result(pairing_id: int) -> str:
    """The pairing's result in words: who won and how, or the score so far."""
    row = Pairing.objects.select_related("home", "away", "game").get(id=pairing_id)
    game = row.game
    result = pairing_result(row)  # the game's result as every surface shows it
    if row.decided and row.winner_side and result is not None and result.finished:
        winner = row.home if row.winner_side == "home" else row.away
        how = f" ({result.how_text})" if result.how_text else ""
        return (
            gettext("%(team)s won %(home)s–%(away)s")
            % {
                "team": winner.name if winner else "?",
                "home": result.ns_score,
                "away": result.ew_score,
            }
            + how
        )
    if game is not None:
        return gettext("not decided: %(ns)s–%(ew)s after %(n)s hands") % {
            "ns": game.ns_score,
            "ew": game.ew_score,
            "n": game.hand_count,
        }
    return gettext("not decided")


def _bracket(event_id: int) -> dict[int, tuple[str, str]]:
    """Every bracket game of the event: its code and who plays it."""
    rows = Pairing.objects.filter(event_id=event_id, match_number__isnull=False).select_related(
        "home", "away"
    )
    out = {}
    for row in rows:
        home = row.home.name if row.home else "?"
        away = row.away.name if row.away else "?"
        result = f" · {row.get_result_display().lower()}" if row.decided else ""
        out[row.id] = (row.code, f"{home} v {away}{result}")
    return out


def hand_correct_preview(
    *,
    actor: Actor,
    pairing: Pairing,
    number: int,
    entry: HandEntry,
    reason: str,
    expected_version: int | None = None,
    roll_back: bool = False,
) -> CorrectionPreview:
    """What ``hand_correct_by`` would change: every later score, the result, the bracket. Raises the
    refusal the correction itself would get."""
    game = Game.objects.get(id=pairing.game_id) if pairing.game_id else None
    if game is None:
        raise InvalidInput(gettext("This game has no hands to correct."))
    before_scores = _scores(game.id)
    before_result = _result(pairing.id)
    before_bracket = _bracket(pairing.event_id)
    seen: dict[str, object] = {}
    try:
        with transaction.atomic():
            scoring.hand_correct_by(
                actor=actor,
                game=game,
                number=number,
                entry=entry,
                reason=reason,
                expected_version=expected_version,
                roll_back=roll_back,
            )
            game_result_sync(game_id=game.id)  # what the commit's receiver would do
            seen["scores"] = _scores(game.id)
            seen["result"] = _result(pairing.id)
            seen["bracket"] = _bracket(pairing.event_id)
            raise _Undo
    except _Undo:
        pass
    after_scores: dict[int, tuple[int, int]] = seen["scores"]  # type: ignore[assignment]
    after_bracket: dict[int, tuple[str, str]] = seen["bracket"]  # type: ignore[assignment]
    hands = [
        ScoreChange(n, before_scores[n], after_scores.get(n))
        for n in sorted(before_scores)
        if n >= number
    ]
    bracket = [
        BracketChange(code, before_bracket.get(row, (code, ""))[1], text)
        for row, (code, text) in sorted(after_bracket.items(), key=lambda kv: kv[1][0])
        if before_bracket.get(row, (code, ""))[1] != text
    ]
    return CorrectionPreview(
        number=number,
        hands=hands,
        result_before=before_result,
        result_after=str(seen["result"]),
        bracket=bracket,
    )
