"""The deployment as a club runs it, started and checked end to end on this machine.

Docker cannot run here, so every service of ``docker-compose.yml`` runs as the process its
container would run, on loopback and on ports of its own (``production.py`` says exactly what
differs from a container, and nothing else does):

- the README's ``.env``, written by its own ``cat > .env`` block (public host name
  kaiser.example.org, hall mode off), and the same with the README's hall-mode lines;
- the compose file as ``docker-compose config`` resolves it with that ``.env``: each service's
  environment and command (web: ``migrate`` then gunicorn with three workers of four threads;
  worker; beat), with the Dockerfile's ``ENV`` (production settings) and its ``collectstatic``;
- a private PostgreSQL (the database and role of the compose file's ``postgres`` service) and a
  private Redis;
- Debian's Caddy with ``deploy/Caddyfile`` (as ``caddy adapt`` reads it), its upstream the local
  gunicorn: HTTPS for the public name (a certificate from Caddy's own authority), plain HTTP on
  ``:80`` for the hall.

Then every health check the compose file writes runs against the process it belongs to, and
through the proxy: sign-in, a table opened by its code and a hand recorded, a PDF made by the
worker, a game past its deadline called by beat's sweep with no client connected, and two
clients on different loopback addresses (127.0.0.2, 127.0.0.3…) whose lockouts and wrong
codes do not touch each other. Everything is started here and stopped here, by process group.
"""

from __future__ import annotations

import base64
import concurrent.futures
import http.client
import io
import json
import os
import re
import secrets
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
import pytest
import requests
from pypdf import PdfReader

from tests.conftest import IN_CI

from . import production as prod
from .private_redis import PrivateRedis
from .stack import PYTHON, REPO, PrivatePostgres, free_port
from .stack import missing_tools as missing_stack_tools
from .tablet import hand_body

pytestmark = [pytest.mark.fault, pytest.mark.stack]

SWEEP_WITHIN = 15.0  # seconds from a deadline passing to time called, with no client
PASSWORD = "stack-" + secrets.token_urlsafe(12)
GUESSER, CLUB, TABLET, HALL_TABLET, FORGER = (
    "127.0.0.2",
    "127.0.0.3",
    "127.0.0.4",
    "127.0.0.5",
    "127.0.0.6",
)
APP_SERVICES = ("web", "worker", "beat")  # built from the Dockerfile


def unavailable(why: str) -> None:
    if IN_CI:
        pytest.fail(f"{why} (CI needs it: a skip is not a pass)")
    pytest.skip(why)


@dataclass
class Mode:
    """One .env (production, or hall mode): its compose file, web process and proxy."""

    name: str
    env_file: Path
    compose: dict[str, Any]
    localiser: prod.Localiser
    app_env: dict[str, str]
    web: prod.Process
    web_port: int
    proxy: prod.Process | None = None
    proxy_port: int = 0
    site_address: str = ""
    host: str = ""
    https: bool = False
    ca: Path | None = None

    def service(self, name: str) -> dict[str, Any]:
        service: dict[str, Any] = self.compose["services"][name]
        return service

    def visitor(self, source: str) -> prod.Visitor:
        return prod.Visitor(
            source=source, port=self.proxy_port, host=self.host, https=self.https, ca=self.ca
        )


@dataclass
class Stack:
    tmp: Path
    postgres: PrivatePostgres
    redis: PrivateRedis
    modes: dict[str, Mode]
    worker: prod.Process
    beat: prod.Process
    seeded: dict[str, Any]
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def production(self) -> Mode:
        return self.modes["production"]

    @property
    def hall(self) -> Mode:
        return self.modes["hall"]

    def sql(self, query: str, *args: Any) -> list[tuple[Any, ...]]:
        """A query on the stack's database, as its superuser (the test's own look)."""
        with psycopg.connect(self.postgres.url("kaiser"), autocommit=True) as conn:
            cursor = conn.execute(query, args)
            return list(cursor.fetchall()) if cursor.description else []

    def health_check(
        self, mode: Mode, service: str, *, attempts_for: float = 0.0
    ) -> subprocess.CompletedProcess[str]:
        """Runs ``service``'s compose health check as the container runtime would, against
        the process of ``mode``; again until it passes for ``attempts_for`` seconds."""
        check = mode.service(service)["healthcheck"]
        argv = mode.localiser.command(prod.health_argv(check["test"]), service)
        env = mode.app_env if service in APP_SERVICES else self.tool_env(mode, service)
        # The compose timeout, three times over: this machine is shared and two cores only.
        timeout = 3 * prod.seconds(check.get("timeout"), 30)
        deadline = time.monotonic() + attempts_for
        while True:
            try:
                result = subprocess.run(
                    argv, env=env, cwd=REPO, capture_output=True, text=True, timeout=timeout
                )
            except subprocess.TimeoutExpired as exc:
                result = subprocess.CompletedProcess(argv, 124, "", f"timed out: {exc}")
            if result.returncode == 0 or time.monotonic() > deadline:
                return result
            time.sleep(0.5)

    def tool_env(self, mode: Mode, service: str) -> dict[str, str]:
        environment = mode.service(service).get("environment") or {}
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(self.tmp / "home"),
            **{key: mode.localiser.text(str(value)) for key, value in environment.items()},
        }


def _collectstatic(env: dict[str, str]) -> None:
    """The Dockerfile's collectstatic line, as it is written there."""
    text = prod.DOCKERFILE.read_text(encoding="utf-8")
    line = re.search(r"^RUN (\S+=\S+ python manage\.py collectstatic[^&\\]*)", text, re.M)
    assert line is not None, "the Dockerfile no longer collects static files"
    subprocess.run(
        ["sh", "-c", line.group(1)], env=env, cwd=REPO, check=True, capture_output=True, timeout=300
    )


def _app_env(
    tmp: Path, compose: dict[str, Any], localiser: prod.Localiser, service: str = "web"
) -> dict[str, str]:
    environment = compose["services"][service].get("environment") or {}
    return {
        "PATH": f"{PYTHON.parent}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(tmp / "home"),
        "LANG": "C.UTF-8",
        # The image installs the project; here the tree under test comes first on the path.
        "PYTHONPATH": str(REPO),
        "HOSTNAME": socket.gethostname(),  # as a container has it (the worker's check uses it)
        "DJANGO_STATIC_ROOT": str(tmp / "static"),  # the image's /app/staticfiles
        **prod.dockerfile_env(),
        **{key: localiser.text(str(value)) for key, value in environment.items()},
    }


def _wait_healthy(stack_like: Any, mode: Mode, seconds_: float = 120) -> None:
    deadline = time.monotonic() + seconds_
    while time.monotonic() < deadline:
        if not mode.web.alive():
            raise AssertionError(f"web ({mode.name}) exited:\n{mode.web.tail()}")
        if stack_like.health_check(mode, "web").returncode == 0:
            return
        time.sleep(0.5)
    raise AssertionError(f"web ({mode.name}) never turned healthy:\n{mode.web.tail()}")


def _start_proxy(tmp: Path, mode: Mode, *, hall: bool, cleanup: ExitStack) -> None:
    storage = tmp / f"caddy-{mode.name}"
    storage.mkdir()
    # What compose gives the proxy container from the .env: the public name, or ":80".
    mode.site_address = str(mode.service("proxy")["environment"]["SITE_ADDRESS"])
    mode.proxy_port = free_port()
    config = prod.caddy_config(
        site_address=mode.site_address,
        upstream_port=mode.web_port,
        listen_port=mode.proxy_port,
        storage=storage,
    )
    config_path = tmp / f"caddy-{mode.name}.json"
    config_path.write_text(json.dumps(config, indent=1))
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(storage),
        "XDG_DATA_HOME": str(storage),
        "XDG_CONFIG_HOME": str(storage),
    }
    caddy = shutil.which("caddy") or "caddy"
    mode.proxy = prod.Process(
        f"caddy ({mode.name})",
        [caddy, "run", "--config", str(config_path)],
        env,
        tmp / f"caddy-{mode.name}.log",
    )
    cleanup.callback(mode.proxy.stop)
    mode.proxy.start()
    prod.wait_for_port(mode.proxy_port, mode.proxy)
    allowed = prod.read_env_file(mode.env_file)["DJANGO_ALLOWED_HOSTS"].split(",")
    mode.host = allowed[0]
    mode.https = not hall
    if mode.https:
        assert mode.site_address == mode.host, "the README's SITE_ADDRESS is its allowed host"
        mode.ca = prod.caddy_root_certificate(storage)
    deadline = time.monotonic() + 60
    last: Any = None
    while time.monotonic() < deadline:
        if mode.ca is None or mode.ca.exists():
            try:
                answer = mode.visitor("127.0.0.1").get(mode.visitor("127.0.0.1").url("/healthz"))
                if answer.status_code == 200:
                    return
                last = answer.status_code
            except (requests.RequestException, OSError) as exc:
                last = exc
        time.sleep(0.3)
    raise AssertionError(f"{mode.proxy.name} never answered ({last}):\n{mode.proxy.tail()}")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    missing = prod.missing_tools() + missing_stack_tools()
    if missing:
        unavailable(f"the production stack needs {', '.join(missing)}")
    if shutil.which("redis-server") is None:
        unavailable("the production stack needs redis-server")
    started = time.monotonic()
    timings: dict[str, float] = {}
    tmp = tmp_path_factory.mktemp("production")
    (tmp / "home").mkdir()
    with ExitStack() as cleanup:
        env_files = {
            "production": prod.readme_env(tmp / "production", hall=False),
            "hall": prod.readme_env(tmp / "hall", hall=True),
        }
        compose = {name: prod.compose_config(path) for name, path in env_files.items()}
        # Its own directory in /tmp, which the postgres user can reach (pytest's cannot).
        pg_root = Path(tempfile.mkdtemp(prefix="kaiser-pg-"))
        postgres = PrivatePostgres(pg_root, free_port())
        redis = PrivateRedis(tmp, free_port())
        cleanup.callback(lambda: shutil.rmtree(pg_root, ignore_errors=True))
        cleanup.callback(postgres.stop)
        cleanup.callback(redis.stop)
        ports = {name: free_port() for name in compose}
        localisers = {
            name: prod.Localiser(
                ports={
                    "web": {8000: ports[name]},
                    "postgres": {5432: postgres.port},
                    "redis": {6379: redis.port},
                    "proxy": {},
                },
                paths={"/app/media": str(tmp / "media")},
            )
            for name in compose
        }
        envs = {name: _app_env(tmp, compose[name], localisers[name]) for name in compose}

        # PostgreSQL, Redis and the image's collectstatic at once: none needs another.
        build_env = {**envs["production"], "DJANGO_SECRET_KEY": ""}  # the line sets its own

        def start_postgres() -> None:
            postgres.init()
            postgres.start()

        with concurrent.futures.ThreadPoolExecutor(3) as pool:
            jobs = [
                pool.submit(start_postgres),
                pool.submit(redis.start),
                pool.submit(_collectstatic, build_env),
            ]
            for job in jobs:
                job.result()
        timings["postgres, redis, collectstatic"] = time.monotonic() - started
        db = compose["production"]["services"]["postgres"]["environment"]
        with psycopg.connect(postgres.url("postgres"), autocommit=True) as conn:
            # What the postgres image does with POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB.
            role, password, name = db["POSTGRES_USER"], db["POSTGRES_PASSWORD"], db["POSTGRES_DB"]
            conn.execute(f"CREATE ROLE \"{role}\" LOGIN PASSWORD '{password}'")
            conn.execute(f'CREATE DATABASE "{name}" OWNER "{role}"')

        modes: dict[str, Mode] = {}
        for name in ("production", "hall"):
            command = localisers[name].command(
                prod.as_argv(compose[name]["services"]["web"]["command"]), "web"
            )
            process = prod.Process(f"web ({name})", command, envs[name], tmp / f"web-{name}.log")
            modes[name] = Mode(
                name=name,
                env_file=env_files[name],
                compose=compose[name],
                localiser=localisers[name],
                app_env=envs[name],
                web=process,
                web_port=ports[name],
            )
        services = compose["production"]["services"]
        localiser = localisers["production"]
        worker, beat = (
            prod.Process(
                name,
                localiser.command(prod.as_argv(services[name]["command"]), name),
                _app_env(tmp, compose["production"], localiser, name),
                tmp / f"{name}.log",
            )
            for name in ("worker", "beat")
        )
        processes = [modes["production"].web, modes["hall"].web, worker, beat]
        cleanup.callback(prod.stop_all, processes)  # then the proxies, Redis, PostgreSQL
        partial = Stack(tmp, postgres, redis, modes, worker, beat, {}, timings)

        # The first web migrates the new database (compose's depends_on: one at a time); then
        # the second web, the worker and beat start while the organiser's data is seeded.
        modes["production"].web.start()
        _wait_healthy(partial, modes["production"])
        timings["web (production) healthy"] = time.monotonic() - started
        for process in (modes["hall"].web, worker, beat):
            process.start()
        seeded = json.loads(
            subprocess.run(
                [str(PYTHON), "-m", "tests.reliability.production_seed"],
                env={**envs["production"], "SEED_PASSWORD": PASSWORD},
                cwd=REPO,
                check=True,
                capture_output=True,
                text=True,
                timeout=120,
            ).stdout
        )
        _wait_healthy(partial, modes["hall"])
        timings["web (hall) healthy, seeded"] = time.monotonic() - started
        for mode, hall in ((modes["production"], False), (modes["hall"], True)):
            _start_proxy(tmp, mode, hall=hall, cleanup=cleanup)
        timings["proxies answering"] = time.monotonic() - started
        stack = Stack(tmp, postgres, redis, modes, worker, beat, seeded, timings)
        yield stack
        stopping = time.monotonic()
    timings["stopping"] = time.monotonic() - stopping
    timings["whole stack"] = time.monotonic() - started
    print("\nproduction stack: " + ", ".join(f"{k} {v:.1f} s" for k, v in timings.items()))


# --- What the image runs is what this test runs ---------------------------------------------


def test_the_image_runs_the_settings_and_commands_this_test_runs(tmp_path: Path) -> None:
    if shutil.which("docker-compose") is None:
        unavailable("docker-compose is not installed")
    compose = prod.compose_config(prod.readme_env(tmp_path, hall=False))
    assert prod.dockerfile_env()["DJANGO_SETTINGS_MODULE"] == "kaiser_club.settings.production"
    web = prod.as_argv(compose["services"]["web"]["command"])
    assert web[:2] == ["sh", "-c"]
    migrate, _, serve = web[2].partition("&&")
    assert migrate.split() == ["python", "manage.py", "migrate", "--noinput"]
    assert serve.split() == prod.dockerfile_cmd(), "the image's CMD is web's gunicorn"
    for name in APP_SERVICES:
        assert compose["services"][name]["image"] == "kaiser-club:latest"


def test_the_image_has_every_program_its_health_checks_run(tmp_path: Path) -> None:
    """A program the image lacks fails its health check for ever (pgrep is in procps, which
    the slim Python image does not have)."""
    if shutil.which("docker-compose") is None or shutil.which("dpkg") is None:
        unavailable("docker-compose and dpkg are needed")
    compose = prod.compose_config(prod.readme_env(tmp_path, hall=False))
    packages = prod.dockerfile_packages()
    for name in APP_SERVICES:
        argv = prod.health_argv(compose["services"][name]["healthcheck"]["test"])
        words = argv[2].split() if argv[:2] == ["/bin/sh", "-c"] else argv
        program = words[0]
        if (PYTHON.parent / program).exists():
            continue  # installed by pip with the project (celery)
        path = shutil.which(program)
        assert path is not None, f"{name}: {program} is not installed here either"
        owner = subprocess.run(
            ["dpkg", "-S", os.path.realpath(path)], capture_output=True, text=True
        ).stdout.split(":")[0]
        essential = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Essential}", owner], capture_output=True, text=True
        ).stdout.strip()
        assert essential == "yes" or owner in packages, (
            f"{name}'s health check runs {program} ({owner}), which the Dockerfile does not install"
        )


# --- The stack ------------------------------------------------------------------------------


def test_every_health_check_of_the_compose_file_passes_against_its_own_process(
    stack: Stack,
) -> None:
    # What each check's answer must show to be the answer of this stack's own process (this
    # machine may run other databases, Redis servers and Celery workers).
    own = {
        "web": lambda out: out.strip() == '{"ok": true}',
        "worker": lambda out: f"celery@{socket.gethostname()}: OK" in out and "pong" in out,
        "beat": lambda out: str(stack.beat.pid) in out.split() and _beats_only(out, stack),
        "postgres": lambda out: f"127.0.0.1:{stack.postgres.port} - accepting" in out,
        "redis": lambda out: out.strip() == "PONG",
    }
    checked = []
    for mode in stack.modes.values():
        for name, service in mode.compose["services"].items():
            if "healthcheck" not in service:
                continue
            if mode.name == "hall" and name != "web":
                continue  # one worker, beat, database and Redis serve both modes here
            assert name in own, f"a health check this test does not know: {name}"
            result = stack.health_check(mode, name, attempts_for=20)
            said = f"{name} ({mode.name}) {result.args}: {result.stdout}{result.stderr}"
            assert result.returncode == 0, said
            assert own[name](result.stdout), said
            checked.append(f"{name} ({mode.name})")
            print(f"\n{said.strip()}")
    assert len(checked) == 6, checked
    # web's check reached gunicorn by 127.0.0.1, over HTTP, under production settings.
    assert '"GET /healthz HTTP/1.1" 200' in stack.production.web.log.read_text()


def _beats_only(pgrep_output: str, stack: Stack) -> bool:
    """Every process beat's check found is a live celery beat: this stack's, or another on this
    machine; never the shell that ran the check (which a careless pattern matches)."""
    for pid in pgrep_output.split():
        if int(pid) == stack.beat.pid:
            continue
        line = _command_line(int(pid))
        if " beat" not in line or line.startswith(("/bin/sh", "sh ")):
            return False
    return True


def _command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_a_club_signs_in_opens_a_table_records_a_hand_and_gets_a_pdf(stack: Stack) -> None:
    mode = stack.production
    organiser = mode.visitor(CLUB)
    signed = organiser.sign_in("organiser", PASSWORD)
    assert signed.status_code == 302, signed.text[:500]
    assert organiser.cookies.get("sessionid")
    home = organiser.get(organiser.url("/"), timeout=30)
    assert home.status_code == 200 and "Stack Test Kaiser" in home.text  # their club
    assert home.url.startswith("https://")

    table = stack.seeded["tables"][0]
    tablet = mode.visitor(TABLET)
    _record_a_hand(tablet, table, number=1)

    # A PDF: asked for through the proxy, made by the worker (not the web process).
    event = stack.seeded["event"]
    answer = organiser.post_form(
        f"/events/{event}/reports/", {"kind": "table_cards", "table": str(table["id"])}
    )
    assert answer.status_code == 302, answer.text[:500]
    job = _wait_for_job(stack, event, "table_cards")  # claimed by a worker's process: below
    worker_pids = stack.worker.pids()
    claimed_pid = int(job["claimed_by"].split(":")[1])
    assert claimed_pid in worker_pids, (job["claimed_by"], worker_pids)
    pdf = organiser.get(organiser.url(f"/events/{event}/reports/{job['id']}/pdf"), timeout=30)
    assert pdf.status_code == 200 and pdf.headers["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    # The card's link is the public address the organiser used, through the proxy's HTTPS.
    assert f"https://{mode.host}/t/" in text, text[:300]


def _record_a_hand(tablet: prod.Visitor, table: dict[str, Any], *, number: int) -> None:
    opened = tablet.get(tablet.url(f"/t/{table['code']}/"), allow_redirects=False, timeout=30)
    assert opened.status_code == 302, opened.text[:300]
    assert opened.headers["Location"] == f"/table/{table['id']}/"
    page = tablet.get(tablet.url(f"/table/{table['id']}/"), timeout=30)
    assert page.status_code == 200
    body = hand_body(number)
    entry = {
        key: body[key]
        for key in (
            "bidder",
            "bid",
            "contract",
            "trump",
            "bidding_team_tricks",
            "five_hearts",
            "three_spades",
        )
    }
    recorded = tablet.post_json(
        f"/table/{table['id']}/hands",
        {"game_id": table["game"], "client_id": str(uuid.uuid4()), "entry": entry},
        referer=f"/table/{table['id']}/",
    )
    assert recorded.status_code == 200, recorded.text[:500]
    assert recorded.json()["created"] is True


def _wait_for_job(stack: Stack, event: int, kind: str) -> dict[str, Any]:
    deadline = time.monotonic() + 90
    row: tuple[Any, ...] | None = None
    while time.monotonic() < deadline:
        rows = stack.sql(
            "SELECT id, status, claimed_by, error FROM tournaments_reportjob "
            "WHERE event_id = %s AND kind = %s ORDER BY id DESC",
            event,
            kind,
        )
        row = rows[0] if rows else None
        if row and row[1] in ("done", "failed"):
            break
        time.sleep(0.3)
    assert row is not None and row[1] == "done", f"{row}\n{stack.worker.tail()}"
    return {"id": row[0], "status": row[1], "claimed_by": row[2]}


def test_beat_calls_time_on_a_game_past_its_deadline_with_no_client(stack: Stack) -> None:
    game = stack.seeded["tables"][-1]["game"]
    lines = {mode.name: _access_lines(mode) for mode in stack.modes.values()}
    stack.sql(
        "UPDATE scoring_game SET started_at = now() - (time_limit_minutes + 31) * "
        "interval '1 minute' WHERE id = %s",
        game,
    )
    overdue = time.monotonic()
    called = None
    while time.monotonic() - overdue < SWEEP_WITHIN + 5:
        rows = stack.sql("SELECT time_called_at FROM scoring_game WHERE id = %s", game)
        if rows and rows[0][0] is not None:
            called = time.monotonic() - overdue
            break
        time.sleep(0.25)
    assert called is not None, f"time never called\n{stack.beat.tail()}\n{stack.worker.tail()}"
    assert called <= SWEEP_WITHIN, f"time called after {called:.1f} s"
    changes = stack.sql(
        "SELECT action, by_label FROM scoring_gamechange WHERE game_id = %s AND action = %s",
        game,
        "call_time",
    )
    assert changes == [("call_time", "clock")]
    # Nobody asked: no request reached either web process meanwhile but the health checks.
    for mode in stack.modes.values():
        new = _access_lines(mode)[len(lines[mode.name]) :]
        assert all("/healthz" in line for line in new), new
    print(f"\ntime called by beat's sweep {called:.1f} s after the deadline passed")


ACCESS_LINE = re.compile(r'"(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) ')


def _access_lines(mode: Mode) -> list[str]:
    """gunicorn's access log lines (compose's ``--access-logfile -``)."""
    text = mode.web.log.read_text(errors="replace")
    return [line for line in text.splitlines() if ACCESS_LINE.search(line)]


def test_two_clients_behind_the_proxy_do_not_stop_each_other(stack: Stack) -> None:
    mode = stack.production
    guesser, other = mode.visitor(GUESSER), mode.visitor("127.0.0.7")

    # Sign-in: the guesser's wrong passwords lock the guesser out, not the organiser.
    limit = 8  # AXES_FAILURE_LIMIT's default, which the README's .env keeps
    answers = [guesser.sign_in("organiser", "wrong").status_code for _ in range(limit)]
    assert answers == [200] * (limit - 1) + [429]
    assert guesser.sign_in("organiser", PASSWORD).status_code == 429
    assert other.sign_in("organiser", PASSWORD).status_code == 302
    addresses = stack.sql(
        "SELECT DISTINCT host(ip_address) FROM axes_accessattempt WHERE username = 'organiser'"
    )
    assert addresses == [(GUESSER,)], addresses

    # Table codes: the guesser's wrong codes slow the guesser, not the hall's tablets.
    table = stack.seeded["tables"][0]
    codes: list[int] = []
    while len(codes) < 61 and 429 not in codes:  # the limit's window may turn once meanwhile
        wrong = "".join(secrets.choice("0123456789ABCDEFGHJKMNPQRSTVWXYZ") for _ in range(20))
        codes.append(guesser.get(guesser.url(f"/t/{wrong}/"), timeout=30).status_code)
    assert codes[:30] == [404] * 30 and codes[-1] == 429, codes
    right = f"/t/{table['code']}/"
    assert guesser.get(guesser.url(right), allow_redirects=False).status_code == 429
    tablet = mode.visitor("127.0.0.8")
    assert tablet.get(tablet.url(right), allow_redirects=False).status_code == 302


def test_a_forwarded_address_is_believed_from_the_proxy_only(stack: Stack) -> None:
    mode = stack.production
    # Through the proxy, a client's own X-Forwarded-For is replaced by its real address.
    visitor = mode.visitor(FORGER)
    visitor.headers["X-Forwarded-For"] = "198.51.100.7"
    assert visitor.sign_in("forged-through-proxy", "wrong").status_code == 200
    # Straight to gunicorn (which compose does not publish), the header is not believed.
    direct = requests.Session()
    direct.mount("http://", prod.SourceAdapter(FORGER, None, None))
    headers = {
        "Host": mode.host,
        "X-Forwarded-Proto": "https",
        "X-Forwarded-For": "198.51.100.8",
    }
    url = f"http://127.0.0.1:{mode.web_port}/accounts/login/"
    page = direct.get(url, headers=headers, timeout=30)
    token = page.cookies["csrftoken"]
    answer = direct.post(
        url,
        data={"csrfmiddlewaretoken": token, "username": "forged-direct", "password": "wrong"},
        headers={
            **headers,
            "Cookie": f"csrftoken={token}",
            "Referer": f"https://{mode.host}/accounts/login/",
        },
        allow_redirects=False,
        timeout=30,
    )
    assert answer.status_code == 200, answer.text[:300]
    rows = stack.sql(
        "SELECT username, host(ip_address) FROM axes_accessattempt "
        "WHERE username LIKE 'forged-%%' ORDER BY username"
    )
    assert rows == [("forged-direct", FORGER), ("forged-through-proxy", FORGER)]


def test_hall_mode_serves_plain_http_through_the_proxy(stack: Stack) -> None:
    mode = stack.hall
    assert mode.site_address == ":80" and not mode.https
    organiser = mode.visitor(CLUB)
    assert organiser.sign_in("organiser", PASSWORD).status_code == 302
    home = organiser.get(organiser.url("/"), timeout=30)
    assert home.status_code == 200 and "Stack Test Kaiser" in home.text  # their club
    assert home.url.startswith("http://")  # no redirect to HTTPS in a hall
    _record_a_hand(mode.visitor(HALL_TABLET), stack.seeded["tables"][0], number=2)


def test_a_body_over_the_limit_is_refused_through_the_proxy_unread(stack: Stack) -> None:
    """300 MiB declared to the import: the answer is 413 and a sentence, from the headers,
    and the web processes do not grow (they read none of it)."""
    mode = stack.production
    assert mode.ca is not None
    before = prod.rss_mib(mode.web.pids())
    context = ssl.create_default_context(cafile=str(mode.ca))
    conn = http.client.HTTPSConnection("127.0.0.1", mode.proxy_port, timeout=30)
    conn.sock = context.wrap_socket(
        socket.create_connection(("127.0.0.1", mode.proxy_port), 30, (CLUB, 0)),
        server_hostname=mode.host,
    )
    conn.putrequest("POST", "/api/events/import/", skip_host=True)
    for name, value in {
        "Host": mode.host,
        "Content-Type": "multipart/form-data; boundary=stacktest",
        "Content-Length": str(300 * 1024 * 1024),
        "Accept": "application/json",
    }.items():
        conn.putheader(name, value)
    conn.endheaders()
    chunk, sent = b"\0" * 65536, 0
    try:
        while sent < 4 * 1024 * 1024:  # a few MiB of the 300: the answer comes first
            conn.sock.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass  # the proxy answered and closed: what a client may meet
    answer = conn.getresponse()
    body = answer.read()
    conn.close()
    assert answer.status == 413, body[:300]
    assert "this server takes at most 21.0 MiB in one request" in json.loads(body)["detail"]
    after = prod.rss_mib(mode.web.pids())
    # Reading the body grew a worker by 544 MiB; a request's own costs are a few MiB.
    assert after - before < 50, f"the web processes grew from {before:.0f} to {after:.0f} MiB"


def test_a_chunked_body_is_read_through_the_proxy(stack: Stack) -> None:
    """A PATCH whose body is sent in chunks (no Content-Length), through Caddy to gunicorn,
    changes the event: it was read as an empty body, answered 200 and changed nothing
    (kaiser_club/chunked.py)."""
    mode = stack.production
    assert mode.ca is not None
    context = ssl.create_default_context(cafile=str(mode.ca))
    conn = http.client.HTTPSConnection("127.0.0.1", mode.proxy_port, timeout=30)
    conn.sock = context.wrap_socket(
        socket.create_connection(("127.0.0.1", mode.proxy_port), 30, (CLUB, 0)),
        server_hostname=mode.host,
    )
    event = stack.seeded["event"]
    credentials = base64.b64encode(f"organiser:{PASSWORD}".encode()).decode()
    conn.putrequest("PATCH", f"/api/events/{event}/", skip_host=True)
    for name, value in {
        "Host": mode.host,
        "Content-Type": "application/json",
        "Accept": "application/json",
        "Authorization": f"Basic {credentials}",
        "Transfer-Encoding": "chunked",
    }.items():
        conn.putheader(name, value)
    conn.endheaders()
    body = json.dumps({"venue": "Legion 45 (sent in chunks)"}).encode()
    for piece in (body[:9], body[9:]):
        conn.send(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
    conn.send(b"0\r\n\r\n")
    answer = conn.getresponse()
    said = answer.read()
    conn.close()
    assert answer.status == 200, said[:300]
    assert json.loads(said)["venue"] == "Legion 45 (sent in chunks)"


def test_last_stopped_services_fail_their_health_checks(stack: Stack) -> None:
    """Last, since it stops the worker, beat and the database: each check is of its process."""
    prod.stop_all([stack.worker, stack.beat])
    worker = stack.health_check(stack.production, "worker")
    assert worker.returncode != 0, f"the worker's check passed with the worker stopped: {worker}"
    beat = stack.health_check(stack.production, "beat")
    assert beat.returncode != 0 or _beats_only(beat.stdout, stack), (
        f"the beat check passed with beat stopped: {beat.stdout}"
    )
    stack.postgres.stop()
    assert stack.health_check(stack.production, "postgres").returncode != 0
    for mode in stack.modes.values():
        result = stack.health_check(mode, "web")
        assert result.returncode != 0, f"web ({mode.name}) healthy without its database"
        assert "503" in result.stderr, result.stderr
