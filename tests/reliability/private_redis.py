"""A private Redis (never the shared one on 6379) and real Celery workers against it and the
test's PostgreSQL database, for the fault tests. Everything is started and stopped by process
id, by the test that asked for it."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection

from kaiser_club.celery import app

from .stack import free_port

IN_CI = os.environ.get("CI") == "true"


def unavailable(why: str) -> None:
    if IN_CI:
        pytest.fail(f"{why} (CI needs it: a skip is not a pass)")
    pytest.skip(why)


def need_postgres() -> None:
    """The workers read the test's database from another process: PostgreSQL only."""
    if connection.vendor != "postgresql":
        unavailable("The fault tests need PostgreSQL (set DATABASE_URL=postgres://...).")
    if shutil.which("redis-server") is None:
        unavailable("redis-server is not installed")


class PrivateRedis:
    """redis-server on 127.0.0.1:``port``, no persistence, its files in ``root``."""

    def __init__(self, root: Path, port: int) -> None:
        self.root, self.port = root, port
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            unavailable("redis-server is not installed")
        assert binary is not None
        command = [
            binary,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.root),
            "--daemonize",
            "no",
        ]
        with (self.root / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise RuntimeError(f"redis-server did not start on {self.port}") from None
                time.sleep(0.05)

    def pause(self) -> None:
        """SIGSTOP: Redis still accepts connections (the kernel does) but never answers."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGCONT)  # a paused server cannot act on TERM
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None


@contextmanager
def private_redis(root: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(root, free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


def fresh_pools() -> None:
    app._pool = None  # type: ignore[attr-defined]
    app.amqp._producer_pool = None  # type: ignore[attr-defined]


@contextmanager
def sending_to(broker_url: str, settings: Any) -> Iterator[None]:
    """This process sends Celery messages to ``broker_url`` instead of running them eagerly."""
    saved = (app.conf.broker_url, app.conf.task_always_eager)
    app.conf.update(broker_url=broker_url, task_always_eager=False)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    fresh_pools()
    try:
        yield
    finally:
        fresh_pools()
        app.conf.update(broker_url=saved[0], task_always_eager=saved[1])


def database_url() -> str:
    db = connection.settings_dict
    user = db.get("USER") or "postgres"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{db['NAME']}"


class Worker:
    """``celery -A kaiser_club worker --pool=solo`` on the private broker and the test DB."""

    def __init__(self, broker_url: str, media: Path, log: Path, **env: str) -> None:
        if connection.vendor != "postgresql":
            unavailable("The fault tests need PostgreSQL (set DATABASE_URL=postgres://...).")
        self.log = log
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "kaiser_club.settings.test",
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": broker_url,
            "DJANGO_MEDIA_ROOT": str(media),
            **env,
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            str(Path(sys.executable).parent / "celery"),
            "-A",
            "kaiser_club",
            "worker",
            "--pool=solo",
            "-l",
            "info",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "-n",
            f"fault-{os.getpid()}-{time.monotonic_ns()}@%h",
        ]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                command,
                cwd=django_settings.BASE_DIR,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: no clean-up, no message acknowledged, as a crash or the OOM killer."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""
