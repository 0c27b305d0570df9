"""A rating history drawn as an SVG line chart, computed here and written out by a template:
no JavaScript and nothing fetched from the internet (the hall may have none). Pure Python."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 12, 28  # room for the axis labels


@dataclass(frozen=True)
class Tick:
    value: float
    y: float


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    rating: float
    game_id: int
    number: int  # the game's place in the player's history, from 1


@dataclass(frozen=True)
class Plot:
    width: int
    height: int
    points: list[Point]
    ticks: list[Tick]
    start_y: float  # where the starting rating sits
    left: int = LEFT
    right_edge: int = WIDTH - RIGHT
    bottom_edge: int = HEIGHT - BOTTOM

    @property
    def polyline(self) -> str:
        return " ".join(f"{p.x:.1f},{p.y:.1f}" for p in self.points)


def _nice_step(span: float) -> float:
    raw = span / 4
    magnitude = math.pow(10.0, math.floor(math.log10(raw)))
    return next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)


def rating_plot(
    history: Sequence[tuple[int, float]], *, start: float, width: int = WIDTH, height: int = HEIGHT
) -> Plot:
    """``history``: (game id, rating after the game) in order. The line starts at ``start``,
    before the first game."""
    ratings = [start, *(r for _, r in history)]
    low, high = min(ratings), max(ratings)
    if high - low < 20:  # a flat history still gets a readable scale
        low, high = (low + high) / 2 - 10, (low + high) / 2 + 10
    step = _nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    inner_w = width - LEFT - RIGHT
    inner_h = height - TOP - BOTTOM

    def y_of(value: float) -> float:
        return TOP + inner_h * (high - value) / (high - low)

    def x_of(index: int) -> float:
        return LEFT + inner_w * index / max(len(history), 1)

    points = [Point(x_of(0), y_of(start), start, 0, 0)]
    points += [
        Point(x_of(i), y_of(rating), rating, game_id, i)
        for i, (game_id, rating) in enumerate(history, start=1)
    ]
    count = round((high - low) / step)
    ticks = [Tick(low + i * step, y_of(low + i * step)) for i in range(count + 1)]
    return Plot(
        width=width,
        height=height,
        points=points,
        ticks=ticks,
        start_y=y_of(start),
        right_edge=width - RIGHT,
        bottom_edge=height - BOTTOM,
    )
