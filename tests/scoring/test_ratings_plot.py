"""The rating plot's geometry (pure Python): scale, ticks and points, worked out by hand."""

from __future__ import annotations

import pytest

from scoring.rating_plot import BOTTOM, HEIGHT, LEFT, RIGHT, TOP, WIDTH, rating_plot


def test_a_short_history() -> None:
    # 1500 -> 1516 -> 1532.37 -> 1515.27: range 1500..1532.37, a quarter of it is 8.09, so the
    # step is the next of 1, 2, 5, 10 x 10^0 above it: 10; the scale runs 1500..1540.
    plot = rating_plot([(1, 1516.0), (2, 1532.37), (3, 1515.27)], start=1500.0)
    assert [t.value for t in plot.ticks] == [1500, 1510, 1520, 1530, 1540]
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    assert plot.ticks[0].y == TOP + inner_h  # 1500 at the bottom
    assert plot.ticks[-1].y == TOP  # 1540 at the top
    assert [p.x for p in plot.points] == [LEFT + inner_w * i / 3 for i in range(4)]
    assert plot.points[2].y == pytest.approx(TOP + inner_h * (1540 - 1532.37) / 40)
    assert [p.number for p in plot.points] == [0, 1, 2, 3]
    assert plot.start_y == TOP + inner_h
    assert plot.polyline.startswith(f"{LEFT:.1f},{TOP + inner_h:.1f} ")


def test_a_flat_history_still_has_a_scale() -> None:
    # Within 20 points: widened to 20 around the middle (1490..1510), step 5.
    plot = rating_plot([(1, 1500.0)], start=1500.0)
    assert [t.value for t in plot.ticks] == [1490, 1495, 1500, 1505, 1510]
