"""``make demo``'s server: runserver, a Celery worker and Celery beat, as three processes that
start and stop together.

The quick start has no Redis, and with no broker Celery runs each task in the request that
sends it: nothing called time on a game past its deadline unless a page asked, and a PDF held
its request for seconds. Here the three processes share a broker kept in files (kombu's
filesystem transport, part of Celery: nothing to install), so the demo runs the same tasks,
the same beat schedule (the clock sweep every few seconds) and the same worker as production
does on Redis. Ctrl-C stops all three.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

BROKER_URL = "filesystem://"
READY_SECONDS = 90.0


class Stop(Exception):
    """SIGTERM: stop as Ctrl-C does."""


def _stop_on_term(signum: int, frame: FrameType | None) -> None:
    raise Stop()


def split_address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise CommandError(f"{text!r} is not an address such as 127.0.0.1:8000.")
    return host or "127.0.0.1", int(port)


def port_in_use(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return True
    return False


class Command(BaseCommand):
    help = (
        "Serves the app with a Celery worker and beat beside it on a broker kept in files "
        "(make demo): the clock sweep runs and PDFs are made off the request, as in production."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("address", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--noreload", action="store_true", help="Do not restart the server on code changes."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        host, port = split_address(options["address"])
        if port_in_use(host, port):
            raise CommandError(
                f"Port {port} on {host} is already in use (another server?). Choose another "
                f"port: make demo PORT={port + 1}, or manage.py serve_demo {host}:{port + 1}."
            )
        if not hasattr(settings, "DEMO_BROKER_DIR"):
            raise CommandError(
                "serve_demo runs the quick start: use the local settings "
                "(DJANGO_SETTINGS_MODULE=kaiser_club.settings.local, manage.py's default)."
            )
        url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
        broker = Path(getattr(settings, "DEMO_BROKER_DIR"))  # noqa: B009  (local settings only)
        shutil.rmtree(broker / "queue", ignore_errors=True)  # what a stopped demo left queued
        for folder in ("queue", "control"):
            (broker / folder).mkdir(parents=True, exist_ok=True)
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": os.environ.get(
                "DJANGO_SETTINGS_MODULE", "kaiser_club.settings.local"
            ),
            "CELERY_BROKER_URL": BROKER_URL,
            "DEMO_BROKER_DIR": str(broker),
            "REPORTS_BASE_URL": url.rstrip("/"),
            "PYTHONUNBUFFERED": "1",
        }
        python = sys.executable
        celery = str(Path(python).parent / "celery")
        manage = str(Path(settings.BASE_DIR) / "manage.py")
        server = [python, manage, "runserver", f"{host}:{port}"]
        if options["noreload"]:
            server.append("--noreload")
        commands = {
            "server": server,
            "worker": [
                *(celery, "-A", "kaiser_club", "worker", "-l", "info", "--concurrency", "2"),
                *("--without-gossip", "--without-mingle", "--without-heartbeat"),
            ],
            "beat": [celery, "-A", "kaiser_club", "beat", "-l", "info"],
        }
        previous = signal.signal(signal.SIGTERM, _stop_on_term)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # even if started ignoring it
        running: dict[str, subprocess.Popen[bytes]] = {}
        try:
            for name, command in commands.items():
                # Each in a group of its own (runserver's reloader has a child), stopped by us.
                running[name] = subprocess.Popen(
                    command, cwd=settings.BASE_DIR, env=env, start_new_session=True
                )
            self._wait_until_served(url, running)
            self.stdout.write(
                self.style.SUCCESS(f"Kaiser Club is on {url}")
                + "  (demo sign-in: organiser / kaiser-demo). A Celery worker and beat run "
                "beside it: the clock sweep every few seconds, PDFs off the request. Ctrl-C "
                "stops all three."
            )
            if settings.EMAIL_BACKEND.endswith("filebased.EmailBackend"):
                where = getattr(settings, "EMAIL_FILE_PATH", "")
                self.stdout.write(f"Players' e-mails are written as files in {where}.")
            while True:
                for name, process in running.items():
                    if process.poll() is not None:
                        raise CommandError(
                            f"The demo's {name} stopped (exit {process.returncode}); its "
                            "messages are above. The others are stopped too."
                        )
                time.sleep(0.5)
        except (KeyboardInterrupt, Stop):
            self.stdout.write("Stopping the server, the worker and beat.")
        finally:
            signal.signal(signal.SIGTERM, previous)
            self._stop(running)

    def _wait_until_served(self, url: str, running: dict[str, subprocess.Popen[bytes]]) -> None:
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            for name, process in running.items():
                if process.poll() is not None:
                    raise CommandError(
                        f"The demo's {name} stopped as it started (exit {process.returncode}); "
                        "its messages are above."
                    )
            try:
                with urllib.request.urlopen(f"{url}healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.3)
        raise CommandError(f"The server did not answer on {url} within {READY_SECONDS:.0f} s.")

    @staticmethod
    def _stop(running: dict[str, subprocess.Popen[bytes]]) -> None:
        """SIGTERM to each (a warm shutdown for the worker, which stops its pool; runserver's
        reloader stops its child), then SIGKILL to whatever of their groups is left."""
        for process in running.values():
            if process.poll() is None:
                process.terminate()
        deadline = time.monotonic() + 15
        for process in running.values():
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # what the group left behind
