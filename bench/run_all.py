"""`make bench`: runs every benchmark and prints one table of figures and ratios.

Each benchmark prints its own detailed table (kept in bench/_out/<name>.log) and hands its
headline figures to bench/_summary.py; this script gathers them into one table, printed and
written to bench/_out/summary.md (the README shows the latest). `--quick` runs smaller sizes.
Loopback only; every benchmark stops by itself and drops the databases it made.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
OUT = BENCH / "_out"
PY = sys.executable

FULL: list[tuple[str, list[str]]] = [
    ("record_hands", ["--hands", "10000"]),
    ("floor", []),
    ("pairing_pure", []),
    ("pairing_db", []),
    ("standings", []),
    ("pdf", ["--repeat", "1"]),
    ("ratings", []),
    ("table_page", []),
    ("load", []),
]
QUICK: list[tuple[str, list[str]]] = [
    ("record_hands", ["--hands", "1000"]),
    ("floor", ["--requests", "300"]),
    ("pairing_pure", []),
    ("pairing_db", ["--de", "256", "--swiss", "128", "--rounds", "5"]),
    ("standings", ["--teams", "128", "--games", "1000", "--duration", "5"]),
    ("pdf", ["--teams", "64", "--games", "500", "--repeat", "1"]),
    ("ratings", []),
    ("table_page", ["--tablets", "20", "--hands", "4"]),
    ("load", ["--quick"]),
]


def machine() -> str:
    cpu = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    python = platform.python_version()
    return f"{platform.platform()}; {os.cpu_count()} CPUs ({cpu}); {mem:.0f} GiB; Python {python}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes, a few minutes")
    parser.add_argument("--only", nargs="*", help="run only these benchmarks")
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    summary_path = OUT / "summary.jsonl"
    summary_path.unlink(missing_ok=True)
    env = {**os.environ, "BENCH_SUMMARY": str(summary_path)}
    env.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/kaiser_bench")
    failed = []
    load_start = os.getloadavg()
    started_at = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    for name, argv in QUICK if args.quick else FULL:
        if args.only and name not in args.only:
            continue
        print(f"== {name} {' '.join(argv)}", flush=True)
        started = time.monotonic()
        with open(OUT / f"{name}.log", "w", encoding="utf-8") as log:
            code = subprocess.call(
                [PY, str(BENCH / f"{name}.py"), *argv],
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
            )
        print(
            f"   {'ok' if code == 0 else f'FAILED ({code})'} "
            f"in {time.monotonic() - started:.0f} s; "
            f"details in bench/_out/{name}.log",
            flush=True,
        )
        if code:
            failed.append(name)
    rows = []
    if summary_path.exists():
        rows = [json.loads(line) for line in summary_path.read_text().splitlines() if line]
    table = render(rows)
    header = (
        f"Machine: {machine()}\n\n`make bench{' ARGS=--quick' if args.quick else ''}` started "
        f"{started_at}; load average (1, 5, 15 min) {fmt(load_start)} at the start, "
        f"{fmt(os.getloadavg())} at the end (2 cores: above 2, other work shared them).\n\n"
    )
    (OUT / "summary.md").write_text(header + table)
    print()
    print(header + table)
    if failed:
        print(f"Failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


def fmt(load: tuple[float, float, float]) -> str:
    return ", ".join(f"{x:.2f}" for x in load)


def render(rows: list[dict[str, object]]) -> str:
    lines = ["| benchmark | figure | value | ratio, goal |", "|---|---|---:|---|"]
    for row in rows:
        value = float(row["value"])  # type: ignore[arg-type]
        if value.is_integer() and not row["unit"]:  # a count: queries, errors, hands
            shown = f"{value:,.0f}"
        else:
            shown = f"{value:,.3f}" if abs(value) < 10 else f"{value:,.1f}"
        lines.append(
            f"| {row['bench']} | {row['figure']} | {shown} {row['unit']} | {row['ratio']} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
