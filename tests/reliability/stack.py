"""The real stack on loopback, for fault tests and the load script: a private PostgreSQL on its
own port (never the shared one), ``manage.py`` commands and gunicorn with production settings
in hall mode. Everything here is started by the caller and stopped by the caller (use the
context managers), by process id only."""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

REPO = Path(__file__).resolve().parents[2]
PYTHON = Path(sys.executable)
BIN = PYTHON.parent
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
SECRET_KEY = "reliability-tests-only-not-a-real-secret-" + "x" * 20


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def missing_tools() -> list[str]:
    """What this machine lacks to run the real stack (an empty list: nothing)."""
    missing = [str(PG_BIN / name) for name in ("initdb", "pg_ctl") if not (PG_BIN / name).exists()]
    if not (BIN / "gunicorn").exists():
        missing.append(str(BIN / "gunicorn"))
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            missing.append("an OS user 'postgres' (initdb refuses to run as root)")
    return missing


class PrivatePostgres:
    """A throwaway PostgreSQL cluster in a temporary directory, on 127.0.0.1:``port``, with
    trust authentication. Started and restarted with pg_ctl; removed by ``destroy``."""

    def __init__(self, root: Path, port: int) -> None:
        self.root = root
        self.port = port
        self.data = root / "data"
        self.log = root / "postgres.log"

    def _run(self, *args: str | Path, timeout: float = 120) -> None:
        command = [str(a) for a in args]
        if os.geteuid() == 0:  # initdb and postgres refuse root: run them as 'postgres'
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        if result.returncode != 0:
            raise RuntimeError(
                f"{Path(args[0]).name} {args[1]} failed ({result.returncode}):\n{result.stdout}\n"
                f"{result.stderr}\n{self.tail_log()}"
            )

    def tail_log(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def init(self) -> None:
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.root, owner.pw_uid, owner.pw_gid)
        self._run(PG_BIN / "initdb", "-D", self.data, "-A", "trust", "-U", "postgres", "-E", "UTF8")

    @property
    def _options(self) -> str:
        return (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c max_connections=200"
        )

    def start(self) -> None:
        # -l every time: without it the server keeps pg_ctl's stdout (our pipe) open for ever.
        self._run(
            PG_BIN / "pg_ctl", "-D", self.data, "-o", self._options, "-l", self.log, "-w", "start"
        )

    def restart(self) -> None:
        """A fast restart: open connections are cut, transactions in flight roll back."""
        self._run(
            PG_BIN / "pg_ctl",
            "-D",
            self.data,
            "-o",
            self._options,
            "-l",
            self.log,
            "-m",
            "fast",
            "-w",
            "restart",
        )

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(PG_BIN / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")

    def url(self, dbname: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextmanager
def private_postgres() -> Iterator[PrivatePostgres]:
    root = Path(tempfile.mkdtemp(prefix="kaiser-pg-"))
    server = PrivatePostgres(root, free_port())
    try:
        server.init()
        server.start()
        yield server
    finally:
        try:
            server.stop()
        finally:
            shutil.rmtree(root, ignore_errors=True)


def app_env(database_url: str, static_root: Path, **extra: str) -> dict[str, str]:
    """The environment of a production process in hall mode (plain HTTP on loopback)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "REDIS_")) and key != "DATABASE_URL"
    }
    env.update(
        DJANGO_SETTINGS_MODULE="kaiser_club.settings.production",
        DJANGO_SECRET_KEY=SECRET_KEY,
        DJANGO_HALL_MODE="true",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        DJANGO_STATIC_ROOT=str(static_root),
        DJANGO_MEDIA_ROOT=str(static_root.parent / "media"),
        DJANGO_LOG_LEVEL="WARNING",
        DATABASE_URL=database_url,
        PYTHONPATH=str(REPO),
    )
    env.update(extra)
    return env


def manage(env: Mapping[str, str], *args: str, timeout: float = 300) -> str:
    """Runs ``manage.py`` with ``env``; its standard output, or RuntimeError with both."""
    return run_python(env, [str(REPO / "manage.py"), *args], timeout=timeout)


def run_python(env: Mapping[str, str], args: Sequence[str], *, timeout: float = 300) -> str:
    result = subprocess.run(
        [str(PYTHON), *args],
        cwd=REPO,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"{' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
        )
    return result.stdout


def prepare_app(env: Mapping[str, str], *, static: bool = True) -> None:
    """Migrates the database and collects static files (production's manifest storage: an
    HTML page cannot render without them; the JSON API can, and collecting with compression
    takes a minute or more on a busy machine)."""
    manage(env, "migrate", "--noinput")
    if static:
        manage(env, "collectstatic", "--noinput")


class Gunicorn:
    """gunicorn serving the project on 127.0.0.1:``port``; its log in ``log``."""

    def __init__(
        self,
        env: Mapping[str, str],
        log: Path,
        *,
        workers: int = 2,
        threads: int = 1,
        keepalive: int = 2,
        port: int | None = None,
        backlog: int | None = None,
        access_log: bool = True,
        cwd: Path = REPO,
    ) -> None:
        self.env = dict(env)
        self.cwd = cwd  # the checkout whose code it serves (bench/record_hands.py --against)
        self.log = log
        self.workers = workers
        self.threads = threads
        self.keepalive = keepalive
        self.port = port or free_port()
        self.backlog = backlog
        self.access_log = access_log
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, ready_timeout: float = 60) -> None:
        command = [
            str(BIN / "gunicorn"),
            "kaiser_club.wsgi:application",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(self.workers),
            "--threads",
            str(self.threads),
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
            "--keep-alive",
            str(self.keepalive),
        ]
        if self.backlog is not None:
            command += ["--backlog", str(self.backlog)]
        if self.access_log:
            command += ["--access-logfile", "-", "--access-logformat", "%(m)s %(U)s %(s)s %(M)sms"]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command,
                cwd=self.cwd,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its workers form a group we can stop by its id
            )
        deadline = time.monotonic() + ready_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited ({self.process.returncode}):\n{self.tail()}")
            try:
                if requests.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer /healthz in {ready_timeout} s:\n{self.tail()}")

    def pids(self) -> list[int]:
        """The master and its workers (for CPU accounting)."""
        if self.process is None:
            return []
        result = subprocess.run(
            ["pgrep", "-g", str(self.process.pid)], capture_output=True, text=True
        )
        return [int(p) for p in result.stdout.split()]

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


@contextmanager
def gunicorn(env: Mapping[str, str], log: Path, **options: Any) -> Iterator[Gunicorn]:
    server = Gunicorn(env, log, **options)
    try:
        server.start()
        yield server
    finally:
        server.stop()
