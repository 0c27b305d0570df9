"""Words for what the pages would otherwise show as codes: round and game names, tie-break
orders, rule-set values."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..clock_words import clock_text
from ..game_result import pairing_result
from ..models import Round
from ..naming import game_name, round_name
from ..pairing.pools import pool_name
from ..round_state import round_state as round_state_words
from ..rules_form import choice_label, preset_title
from ..tiebreak_field import tiebreak_words

register = template.Library()


@register.simple_tag
def round_title(round_: Any, event: Any) -> str:
    return round_name(round_, event)


@register.simple_tag
def round_state(round_: Any) -> str:
    """ "Started", "Paused", "Waiting for the games before it"... (``tournaments.round_state``)."""
    return round_state_words(round_)


@register.simple_tag
def game_title(pairing: Any, event: Any) -> str:
    return game_name(pairing, event)


@register.simple_tag
def pool_title(number: int) -> str:
    return _("Pool %(name)s") % {"name": pool_name(number - 1)}


@register.simple_tag
def job_round_title(job: Any, event: Any) -> str:
    """What a generation job drew, in words: "Semi-finals: 2 games." (two queries)."""
    found = Round.objects.filter(event_id=event.id, number=job.round_number).first()
    if found is None:
        return ""
    games = found.pairings.filter(game__isnull=False).count()
    return ngettext("%(round)s: %(n)s game.", "%(round)s: %(n)s games.", games) % {
        "round": round_name(found, event),
        "n": games,
    }


@register.simple_tag
def game_clock(game: Any) -> str:
    return clock_text(game)


@register.filter
def game_result(pairing: Any) -> Any:
    """The result of a pairing's game as every page shows it (``game_result.pairing_result``:
    ``scoring.results.GameResult``); None for a bye."""
    return pairing_result(pairing)


@register.filter
def has_bye(rows: Any) -> bool:
    """Whether a list of games (pairings, or the public pages' lines) holds a bye."""
    return any(
        row.is_bye if hasattr(row, "is_bye") else getattr(row, "away", "") is None
        for row in rows or []
    )


@register.filter
def tiebreaks_in_words(keys: Any) -> str:
    return tiebreak_words(list(keys or []))


@register.simple_tag
def preset_name(event: Any) -> Any:
    return preset_title(event.preset, str(event.rules.get("title", "")))


@register.simple_tag
def rule_value(key: str, value: Any) -> Any:
    return choice_label(key, value)
