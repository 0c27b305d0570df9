"""scripts/backup.sh and scripts/restore_check.sh against a small seeded database on the shared
PostgreSQL (databases of their own, named after this run's DATABASE_URL, dropped at the end).

The backup keeps the newest KEEP dumps; the restore check restores the newest into a scratch
database, finds the same row counts as the source, and fails (exit 1) when they differ."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from tests.conftest import IN_CI

from .stack import REPO, app_env, manage, run_python

pytestmark = [pytest.mark.postgres, pytest.mark.long]

BACKUP = REPO / "scripts" / "backup.sh"
RESTORE_CHECK = REPO / "scripts" / "restore_check.sh"
GAMES, HANDS = 3, 5


def _server() -> tuple[str, str]:
    """The shared server's URL with no database, and this run's database name."""
    url = os.environ.get("DATABASE_URL", "")
    missing = [tool for tool in ("pg_dump", "pg_restore", "psql") if shutil.which(tool) is None]
    problem = ""
    if not url.startswith(("postgres://", "postgresql://")):
        problem = "backups need PostgreSQL: set DATABASE_URL=postgres://..."
    elif missing:
        problem = f"backups need {', '.join(missing)}"
    if problem:
        if IN_CI:
            pytest.fail(problem)
        pytest.skip(problem)
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="", query="")), parts.path.strip("/") or "kaiser"


def _with_db(server: str, name: str) -> str:
    return f"{server}/{name}"


def _drop(server: str, *names: str) -> None:
    with psycopg.connect(_with_db(server, "postgres"), autocommit=True) as conn:
        for name in names:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    server, base = _server()
    source, scratch = f"{base}_backup_src", f"{base}_backup_scratch"
    _drop(server, source, scratch)
    with psycopg.connect(_with_db(server, "postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{source}"')
    tmp = tmp_path_factory.mktemp("backups")
    try:
        env = app_env(_with_db(server, source), tmp / "static")
        manage(env, "migrate", "--noinput")
        run_python(
            env,
            ["-m", "tests.reliability.seed", "games", "--count", str(GAMES), "--hands", str(HANDS)],
        )
        yield {"source": _with_db(server, source), "scratch": scratch, "dir": str(tmp / "dumps")}
    finally:
        _drop(server, source, scratch)


def _run(script: Path, env_extra: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **env_extra}
    return subprocess.run(
        ["bash", str(script), *args], env=env, capture_output=True, text=True, timeout=300
    )


def _count(url: str, table: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute(f'SELECT count(*) FROM "{table}"').fetchone()
    assert row is not None
    return int(row[0])


def test_backup_keeps_the_newest_dumps(seeded: dict[str, str]) -> None:
    made = []
    for _ in range(3):
        result = _run(BACKUP, {"DATABASE_URL": seeded["source"], "KEEP": "2"}, seeded["dir"])
        assert result.returncode == 0, result.stderr
        made.append(Path(result.stdout.strip()))
    kept = sorted(Path(seeded["dir"]).glob("kaiser-*.dump"))
    assert kept == sorted(made[1:])  # the oldest went
    assert all(p.stat().st_size > 0 for p in kept)
    assert not list(Path(seeded["dir"]).glob(".*partial"))


def test_restore_check_finds_the_source_counts(seeded: dict[str, str]) -> None:
    result = _run(BACKUP, {"DATABASE_URL": seeded["source"]}, seeded["dir"])
    assert result.returncode == 0, result.stderr
    env = {"DATABASE_URL": seeded["source"], "SCRATCH_DB": seeded["scratch"], "KEEP_SCRATCH": "1"}
    check = _run(RESTORE_CHECK, env, seeded["dir"])
    assert check.returncode == 0, check.stdout + check.stderr
    assert "OK:" in check.stdout
    scratch = seeded["source"].rsplit("/", 1)[0] + "/" + seeded["scratch"]
    for table, expected in [
        ("scoring_game", GAMES),
        ("scoring_hand", GAMES * HANDS),
        ("scoring_gamechange", GAMES * HANDS),
    ]:
        assert _count(seeded["source"], table) == expected
        assert _count(scratch, table) == expected  # what the script compared, read directly
        assert any(
            line.split()[:3] == [table, str(expected), str(expected)]
            for line in check.stdout.splitlines()
        )


def test_restore_check_fails_when_the_source_differs(seeded: dict[str, str]) -> None:
    result = _run(BACKUP, {"DATABASE_URL": seeded["source"]}, seeded["dir"])
    assert result.returncode == 0, result.stderr
    with psycopg.connect(seeded["source"]) as conn:
        conn.execute(
            "INSERT INTO kaiser_club_player (name, email, is_public, created_at) "
            "VALUES ('after the backup', '', false, now())"
        )
    env = {"DATABASE_URL": seeded["source"], "SCRATCH_DB": seeded["scratch"]}
    check = _run(RESTORE_CHECK, env, seeded["dir"])
    assert check.returncode == 1, check.stdout + check.stderr
    assert any(
        "kaiser_club_player" in line and "DIFFERS" in line for line in check.stdout.splitlines()
    )
    grown = _run(RESTORE_CHECK, {**env, "SOURCE_MAY_GROW": "1"}, seeded["dir"])
    assert grown.returncode == 0, grown.stdout + grown.stderr
    assert "source grew since the dump" in grown.stdout


def test_restore_check_refuses_to_run_without_a_dump(tmp_path: Path) -> None:
    check = _run(
        RESTORE_CHECK,
        {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/nothing"},
        str(tmp_path),
    )
    assert check.returncode == 2
    assert "no kaiser-*.dump" in check.stderr
