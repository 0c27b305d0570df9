"""One line per headline figure, for `make bench`'s combined table.

A benchmark calls ``add(...)`` for each figure it prints; when BENCH_SUMMARY names a file
(bench/run_all.py sets it), the figures are appended there as JSON lines. Run alone, a
benchmark prints its own table and this does nothing.
"""

from __future__ import annotations

import json
import os


def add(bench: str, figure: str, value: float, unit: str = "", ratio: str = "") -> None:
    path = os.environ.get("BENCH_SUMMARY")
    if not path:
        return
    row = {"bench": bench, "figure": figure, "value": value, "unit": unit, "ratio": ratio}
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")
