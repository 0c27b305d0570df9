"""The rows of the public pages' tables of games, written here rather than in the template
language: the live scores, a round's tables and the event's page each show every game of a
hall (200 at 200 tables) and are rendered again about once a second while hands come in.
Through templates a row cost ~0.25 ms, most of it ``{% url %}`` and variable look-ups; the
markup is the same, byte for byte."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.urls import reverse
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.results import score_dash, score_shown

from ..naming import round_name
from ..public.wording import GameLine, PlayerName, Side

register = template.Library()

ROW = (
    '<tr class="game {}" data-pairing="{}">\n'
    '    <td class="num">{}</td>\n'
    '    <td class="{}">{}</td>\n'
    '    <td class="num pts">{}</td>\n'
    '    <td class="{}">{}</td>\n'
    "    <td>{}</td>\n"
    "  </tr>"
)
MARK = 987_654_321_987  # an id no page has: where a page's own id goes in its address


class Addresses:
    """The addresses of an event's public pages of one kind (a team's, a game's), each
    reversed once per rendering and then filled in with the id."""

    def __init__(self, event_id: int) -> None:
        self.event_id = event_id
        self.patterns: dict[str, tuple[str, str]] = {}

    def __call__(self, name: str, item_id: int) -> str:
        pattern = self.patterns.get(name)
        if pattern is None:
            head, _mark, tail = reverse(name, args=[self.event_id, MARK]).rpartition(str(MARK))
            pattern = self.patterns[name] = (head, tail)
        return f"{pattern[0]}{item_id}{pattern[1]}"


def _shown(value: Any, default: str) -> SafeString:
    """A value as ``{{ value|default_if_none:default }}`` prints it."""
    return conditional_escape(default if value is None else localize(value))


def _names(players: Iterable[PlayerName], urls: Addresses) -> SafeString:
    """public/_names.html, its last line's end included."""
    out = []
    for index, player in enumerate(players):
        if index:
            out.append(" &amp; ")
        if player.public:
            address = urls("public:player", player.id)
            out.append(format_html('<a href="{}">{}</a>', address, player.name))
        else:
            out.append(conditional_escape(player.name))
    out.append("\n")
    return mark_safe("".join(out))


def _side(side: Side, urls: Addresses) -> SafeString:
    if side.entry is not None:
        return format_html('<a href="{}">{}</a>', urls("public:team", side.entry.id), side.name)
    return _names(side.players, urls)


def _row(line: GameLine, event: Any, show_round: bool, urls: Addresses) -> str:
    home, away = line.home, line.away
    if away is not None:
        score = format_html(
            '<a href="{}" class="score-link"><span class="home-score">{}</span>{}'
            '<span class="away-score">{}</span></a>',
            urls("public:game", line.pairing.id),
            score_shown(home.score),
            score_dash(home.score, away.score),
            score_shown(away.score),
        )
        other = _side(away, urls)
    else:
        score = _shown(home.score, "")
        other = format_html('<span class="muted">{}</span>', _("bye"))
    state = [mark_safe('<span class="live-dot" aria-hidden="true"></span>')] if line.live else []
    state.append(conditional_escape(line.label))
    if line.ended and line.state == "final":
        state.append(format_html(" · {}", line.ended))
    if line.pairing.round and show_round:
        state.append(format_html(" · {}", round_name(line.pairing.round, event)))
    return format_html(
        ROW,
        line.state,
        localize(line.pairing.id),
        _shown(line.table, ""),
        "winner" if home.won else "",
        _side(home, urls),
        score,
        "winner" if away is not None and away.won else "",
        other,
        mark_safe("".join(state)),
    )


@register.simple_tag
def game_rows(lines: Iterable[GameLine], event: Any, show_round: bool = False) -> SafeString:
    urls = Addresses(event.id)
    return mark_safe("".join(_row(line, event, bool(show_round), urls) for line in lines))
