"""The bracket drawn as SVG, laid out on the server: one column per round of each section
(winners' bracket with its third-place game, losers' bracket, grand final), each match a box
with its two teams and scores, and a line from each match to the one its winner goes on to.

A match is placed level with the middle of the matches that feed it, so a single-elimination
bracket comes out as the familiar tree; a match fed from outside its section (a losers'
bracket match that takes a drop) simply follows the one above it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from ..models import Pairing
from ..naming import game_name
from .wording import GameLine, game_line

BOX_W = 210
BOX_H = 52
COL_GAP = 46
ROW_GAP = 22
TITLE_H = 44
SECTION_GAP = 36
NAME_CHARS = 24

SECTIONS = (
    ("winners", ("winners", "third_place")),
    ("losers", ("losers",)),
    ("final", ("grand_final", "grand_final_reset")),
)


@dataclass
class Box:
    line: GameLine
    code: str
    x: int = 0
    y: int = 0
    home_text: str = ""
    away_text: str = ""
    cancelled: bool = False

    @property
    def mid_y(self) -> int:
        return self.y + BOX_H // 2


@dataclass
class Section:
    key: str
    title: str
    y: int
    columns: list[list[Box]] = field(default_factory=list)


@dataclass
class Drawing:
    width: int
    height: int
    sections: list[Section]
    boxes: list[Box]
    links: list[str]  # SVG path data, one per winner line


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def _column_of(pairing: Pairing) -> int:
    head = pairing.code.split("-", 1)[0]
    if head[:1] in ("W", "L") and head[1:].isdigit():
        return int(head[1:])
    return 0


def _titles() -> dict[str, str]:
    return {
        "winners": _("Winners' bracket"),
        "losers": _("Losers' bracket"),
        "final": _("Grand final"),
    }


def draw(pairings: Sequence[Pairing], event: Any = None) -> Drawing:
    """Positions for every match of the bracket (no query: the pairings come loaded). With
    the event, each match is named as players name it (Semi-final 1), not by its code."""
    by_id: dict[int, Box] = {}
    sections: list[Section] = []
    titles = _titles()
    top = 0
    width = 0
    for key, stages in SECTIONS:
        members = [p for p in pairings if p.stage in stages]
        if not members:
            continue
        section = Section(key, titles[key], top)
        columns: dict[int, list[Pairing]] = {}
        for p in members:
            number = _column_of(p)
            if p.stage == "third_place":  # beside the final
                number = max(_column_of(q) for q in members if q.stage == "winners")
            if key == "final":
                number = 1 if p.stage == "grand_final" else 2
            columns.setdefault(number, []).append(p)
        ordered = [columns[c] for c in sorted(columns)]
        feeders: dict[int, list[Box]] = {}
        bottom = top + TITLE_H
        for index, members_of_column in enumerate(ordered):
            boxes = []
            next_free = top + TITLE_H
            for p in sorted(
                members_of_column, key=lambda q: (q.stage == "third_place", q.match_number)
            ):
                line = game_line(p)
                name = game_name(p, event, short=True) if event is not None else p.code
                box = Box(line=line, code=name, cancelled=p.cancelled)
                box.home_text = _short(line.home.name)
                box.away_text = _short(line.away.name) if line.away else _("bye")
                box.x = index * (BOX_W + COL_GAP)
                fed = feeders.get(p.id, [])
                wanted = (sum(b.mid_y for b in fed) // len(fed) - BOX_H // 2) if fed else next_free
                if p.stage == "third_place":
                    wanted = max(wanted, next_free + BOX_H)
                box.y = max(wanted, next_free)
                next_free = box.y + BOX_H + ROW_GAP
                by_id[p.id] = box
                boxes.append(box)
                if p.winner_to_id is not None:
                    feeders.setdefault(p.winner_to_id, []).append(box)
            section.columns.append(boxes)
            bottom = max(bottom, next_free)
            width = max(width, index * (BOX_W + COL_GAP) + BOX_W)
        sections.append(section)
        top = bottom + SECTION_GAP
    links = []
    for p in pairings:
        source, target = by_id.get(p.id), by_id.get(p.winner_to_id or 0)
        if source is None or target is None or target.x <= source.x:
            continue
        x1, y1 = source.x + BOX_W, source.mid_y
        x2, y2 = target.x, target.mid_y
        middle = x1 + COL_GAP // 2
        links.append(f"M{x1} {y1}H{middle}V{y2}H{x2}")
    return Drawing(
        width=width + 2,
        height=max(top - SECTION_GAP, TITLE_H) + 2,
        sections=sections,
        boxes=list(by_id.values()),
        links=links,
    )
