"""A game's result in words on a page: ``{% result_sentence result ns_name ew_name %}``,
"Les Rois won by forfeit." (``scoring.results.GameResult.sentence``); nothing while played.
Two scores as a pair: ``{% score_pair first second %}``, "52–0", "19 – −16"; one score,
``{{ score|score }}`` ("−16"), and a change of score, ``{{ change|score_change }}`` ("+11",
"−1")."""

from __future__ import annotations

from django import template

from .. import results
from ..results import GameResult

register = template.Library()


@register.simple_tag
def result_sentence(result: GameResult | None, ns_name: object, ew_name: object) -> str:
    return result.sentence(ns_name, ew_name) if result is not None else ""


@register.simple_tag
def score_pair(first: int | None, second: int | None) -> str:
    return results.score_pair(first, second)


@register.filter(name="score")
def score(value: int | None) -> str:
    return results.score_shown(value)


@register.filter(name="score_change")
def score_change(value: int) -> str:
    return results.score_change(value)
