"""The deployment as the repository writes it, run on this machine for the production stack
test: the README's ``.env``, ``docker-compose.yml`` (as ``docker-compose config`` resolves
it), the Dockerfile, and ``deploy/Caddyfile`` (as ``caddy adapt`` reads it).

Docker cannot run here, so each service's command runs as a process on loopback instead of a
container. What changes between the two is done here, in one place, and nothing else:

- a service's host name (``postgres``, ``redis``, ``proxy``) is 127.0.0.1, and its port the
  free port its process was given (``postgres:5432`` becomes ``127.0.0.1:<port>``);
- ``0.0.0.0`` (every interface of a container) becomes 127.0.0.1;
- the volumes' paths (``/app/media``) are directories of the test;
- for Caddy: the listening address is 127.0.0.1 and a free port, the certificate for the
  public name comes from Caddy's own local authority (no ACME), the admin endpoint is off, and
  its storage is the test's; the web nodes (compose's ``web``, one name for every node) are
  listed by their ports;
- for nginx's micro-cache: the same for its listening port and the one it asks through, its
  cache and logs in the test's directory.
"""

from __future__ import annotations

import json
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
import yaml
from requests.adapters import HTTPAdapter

from .stack import BIN, REPO

COMPOSE_FILE = REPO / "docker-compose.yml"
DOCKERFILE = REPO / "Dockerfile"
CADDYFILE = REPO / "deploy" / "Caddyfile"
NGINX_CONF = REPO / "deploy" / "nginx-micro-cache.conf"
README = REPO / "README.md"


def missing_tools() -> list[str]:
    """What this machine lacks to run the production stack (an empty list: nothing)."""
    needed = ["docker-compose", "caddy", "curl", "pgrep", "pg_isready", "redis-cli"]
    missing = [name for name in needed if shutil.which(name) is None]
    missing += [str(BIN / name) for name in ("gunicorn", "celery") if not (BIN / name).exists()]
    return missing


# --- The README's .env ----------------------------------------------------------------------


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    following = re.search(r"^#{1,3} ", text[start + len(heading) :], re.M)
    end = start + len(heading) + following.start() if following else len(text)
    return text[start:end]


def readme_env(directory: Path, *, hall: bool) -> Path:
    """Writes the ``.env`` the README's "On a server" section writes (its ``cat > .env`` block,
    run by sh as a club would), with the hall-mode lines of "Hall mode" added when ``hall``."""
    text = README.read_text(encoding="utf-8")
    server = _section(text, "### On a server (Docker Compose)")
    block = re.search(r"^cat > \.env <<EOF\n(.*?)\nEOF$", server, re.M | re.S)
    if block is None:
        raise AssertionError("The README's 'On a server' section no longer writes a .env.")
    for line in block.group(1).splitlines():
        assert re.match(r"^([A-Z_]+=|#|$)", line), f"not a line of a .env: {line!r}"
    directory.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["sh", "-c", f"cat > .env <<EOF\n{block.group(1)}\nEOF\n"],
        cwd=directory,
        check=True,
        timeout=60,
    )
    path = directory / ".env"
    if hall:
        hall_text = _section(text, "### Hall mode")
        found = re.search(r"```sh\n((?:(?:[A-Z_]+=|#).*\n)+)```", hall_text)
        if found is None:
            raise AssertionError("The README's hall-mode section no longer lists its .env lines.")
        with path.open("a", encoding="utf-8") as out:
            out.write(found.group(1))
    return path


def read_env_file(path: Path) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#") and "=" in line:
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()  # the later line wins, as compose reads it
    return values


# --- The compose file and the Dockerfile ----------------------------------------------------


def compose_config(env_file: Path) -> dict[str, Any]:
    """The compose file as ``docker-compose config`` resolves it with ``env_file`` (its
    variables, defaults and ``$$`` escapes), with ``$$`` then read as compose's shell does."""
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    result = subprocess.run(
        ["docker-compose", "--env-file", str(env_file), "-f", str(COMPOSE_FILE), "config"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=env_file.parent,
    )
    if result.returncode != 0:
        raise AssertionError(f"docker-compose config failed:\n{result.stderr}")
    config: dict[str, Any] = yaml.safe_load(result.stdout.replace("$$", "$"))
    return config


def dockerfile_env() -> dict[str, str]:
    """The image's ENV lines (``ENV A=1 B=2``, continued over lines)."""
    text = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    values: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            for word in shlex.split(line[4:]):
                key, _, value = word.partition("=")
                values[key] = value
    return values


def dockerfile_packages() -> set[str]:
    """The Debian packages the image installs (its ``apt-get install`` lines)."""
    text = DOCKERFILE.read_text(encoding="utf-8").replace("\\\n", " ")
    packages: set[str] = set()
    for match in re.finditer(r"apt-get install ([^&]*)", text):
        packages.update(word for word in match.group(1).split() if not word.startswith("-"))
    return packages


def dockerfile_cmd() -> list[str]:
    match = re.search(r"^CMD (\[.*\])$", DOCKERFILE.read_text(encoding="utf-8"), re.M)
    assert match is not None, "the Dockerfile has no CMD in exec form"
    command: list[str] = json.loads(match.group(1))
    return command


def seconds(duration: str | int | float | None, default: float) -> float:
    """Compose's durations: "10s", "1m30s", "500ms"."""
    if duration is None:
        return default
    if isinstance(duration, int | float):
        return float(duration)
    total = 0.0
    for amount, unit in re.findall(r"(\d+(?:\.\d+)?)(ms|s|m|h)", duration):
        total += float(amount) * {"ms": 0.001, "s": 1, "m": 60, "h": 3600}[unit]
    return total


@dataclass
class Localiser:
    """Turns a service's text (a command, an environment value) into this machine's: every
    service name and port of the compose network, every 0.0.0.0, every volume path."""

    ports: dict[str, dict[int, int]]  # service -> container port -> the test's port
    paths: dict[str, str] = field(default_factory=dict)  # container path -> the test's

    def text(self, value: str, service: str | None = None) -> str:
        for name, ports in self.ports.items():
            for inside, outside in ports.items():
                value = re.sub(rf"\b{re.escape(name)}:{inside}\b", f"127.0.0.1:{outside}", value)
        if service is not None:
            for inside, outside in self.ports.get(service, {}).items():
                value = re.sub(rf"(?<![\w.]){inside}(?!\w)", str(outside), value)
        value = value.replace("0.0.0.0", "127.0.0.1")
        for inside_path, outside_path in self.paths.items():
            value = value.replace(inside_path, outside_path)
        names = "|".join(re.escape(name) for name in self.ports)
        if names and re.fullmatch(rf"(?:{names})(?:\s*,\s*(?:{names}))*", value):
            value = re.sub(names, "127.0.0.1", value)  # a list of the services' host names
        return value

    def command(self, argv: Sequence[str], service: str) -> list[str]:
        return [self.text(arg, service) for arg in argv]


def as_argv(command: str | list[str]) -> list[str]:
    """A compose ``command``: a string is split as a shell splits words (no shell runs it)."""
    return shlex.split(command) if isinstance(command, str) else list(command)


def health_argv(test: list[str]) -> list[str]:
    """A compose ``healthcheck.test`` as the container runtime runs it."""
    kind, rest = test[0], test[1:]
    if kind == "CMD":
        return list(rest)
    if kind == "CMD-SHELL":
        return ["/bin/sh", "-c", rest[0]]
    raise AssertionError(f"a health check of kind {kind} is not one compose runs")


# --- Processes ------------------------------------------------------------------------------


class Process:
    """A command started in a process group of its own, its output in ``log``; stopped by its
    group id (the command's own children: gunicorn's workers, celery's pool)."""

    def __init__(self, name: str, argv: Sequence[str], env: Mapping[str, str], log: Path) -> None:
        self.name, self.argv, self.env, self.log = name, list(argv), dict(env), log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Process:
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.argv,
                cwd=REPO,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def pids(self) -> list[int]:
        if self.process is None:
            return []
        found = subprocess.run(["pgrep", "-g", str(self.pid)], capture_output=True, text=True)
        return [int(p) for p in found.stdout.split()]

    def tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def terminate(self) -> None:
        """SIGTERM to the group: gunicorn, celery and Caddy stop gracefully on it."""
        if self.process is not None and self.process.poll() is None:
            with suppress(ProcessLookupError):
                os.killpg(self.pid, signal.SIGTERM)

    def stop(self, timeout: float = 15) -> None:
        """Terminates, waits up to ``timeout``, then SIGKILLs whatever is left of the group."""
        if self.process is None:
            return
        self.terminate()
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=timeout)
        with suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        if self.process.poll() is None:
            self.process.wait(timeout=10)


def stop_all(processes: Sequence[Process], timeout: float = 15) -> None:
    """Every process told at once, then each waited for: the slowest sets the time, not the
    sum (a Celery worker's warm shutdown alone takes seconds)."""
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + timeout
    for process in processes:
        process.stop(timeout=max(0.1, deadline - time.monotonic()))


def rss_mib(pids: Sequence[int]) -> float:
    total = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
        total += int(match.group(1)) if match else 0
    return total / 1024


# --- Caddy ----------------------------------------------------------------------------------


def caddy_config(
    *,
    site_address: str,
    upstream_port: int | None = None,
    listen_port: int,
    storage: Path,
    upstream_ports: Sequence[int] = (),
    internal_port: int | None = None,
    cache_port: int | None = None,
    public_reads: str = "web_nodes",
) -> dict[str, Any]:
    """deploy/Caddyfile as ``caddy adapt`` reads it for ``SITE_ADDRESS`` and ``PUBLIC_READS``,
    pointed at the local gunicorns and listening on 127.0.0.1 (see the module's docstring for
    every change). The web nodes are ``upstream_ports`` (or the one ``upstream_port``): the
    compose network's ``web`` names every node, loopback one address a port. The listener
    the micro-cache asks through (:8081) is ``internal_port``, the cache ``cache_port``."""
    ports = list(upstream_ports) or ([upstream_port] if upstream_port is not None else [])
    assert ports, "no web node to send requests to"
    env = {**os.environ, "SITE_ADDRESS": site_address, "PUBLIC_READS": public_reads}
    result = subprocess.run(
        ["caddy", "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    if result.returncode != 0:
        raise AssertionError(f"caddy adapt failed:\n{result.stderr}")
    config: dict[str, Any] = json.loads(result.stdout)
    proxies = 0
    servers = config["apps"]["http"]["servers"]
    for name, server in list(servers.items()):
        internal = server["listen"] == [":8081"]
        if internal and internal_port is None:
            del servers[name]  # no micro-cache here: nothing asks through it
            continue
        server["listen"] = [f"127.0.0.1:{internal_port if internal else listen_port}"]
        server.setdefault("automatic_https", {})["disable_redirects"] = True
        for handler in _handlers(server.get("routes", [])):
            if handler.get("handler") != "reverse_proxy":
                continue
            upstreams = handler.pop("dynamic_upstreams", None)
            if upstreams is None:  # the micro-cache, compose's cache:8080
                assert handler["upstreams"] == [{"dial": "cache:8080"}], handler
                assert cache_port is not None, "the Caddyfile sends reads to a cache not started"
                handler["upstreams"] = [{"dial": f"127.0.0.1:{cache_port}"}]
                continue
            assert upstreams["name"] == "web" and upstreams["port"] == "8000", upstreams
            handler["upstreams"] = [{"dial": f"127.0.0.1:{port}"} for port in ports]
            proxies += 1
    assert proxies >= 1, "no reverse_proxy to the web nodes in the Caddyfile"
    config["admin"] = {"disabled": True}
    config["storage"] = {"module": "file_system", "root": str(storage)}
    host = site_address.split("://")[-1]
    if not host.startswith(":"):  # a public name: its certificate from Caddy's local authority
        config["apps"]["tls"] = {
            "automation": {"policies": [{"subjects": [host], "issuers": [{"module": "internal"}]}]}
        }
        config["apps"]["pki"] = {"certificate_authorities": {"local": {"install_trust": False}}}
    return config


# --- nginx's micro-cache --------------------------------------------------------------------


def nginx_config(*, listen_port: int, internal_port: int, root: Path) -> Path:
    """deploy/nginx-micro-cache.conf inside the main file nginx needs, as the ``cache``
    container has it, with: 127.0.0.1 and the test's ports for ``listen 8080`` and
    ``proxy:8081``; the cache, the pid and the logs in ``root``; its workers run as this
    user. Returns the main file's path (``nginx -p root -c <it>``)."""
    text = NGINX_CONF.read_text(encoding="utf-8")
    replaced = {
        "listen 8080;": f"listen 127.0.0.1:{listen_port};",
        "server proxy:8081;": f"server 127.0.0.1:{internal_port};",
        "/var/cache/nginx/kaiser": str(root / "cache"),
    }
    for inside, outside in replaced.items():
        assert inside in text, f"deploy/nginx-micro-cache.conf no longer says {inside!r}"
        text = text.replace(inside, outside)
    (root / "cache").mkdir(parents=True, exist_ok=True)
    (root / "micro-cache.conf").write_text(text, encoding="utf-8")
    user = pwd.getpwuid(os.geteuid()).pw_name
    main = root / "nginx.conf"
    main.write_text(
        f"user {user};\nworker_processes 1;\npid {root / 'nginx.pid'};\n"
        f"error_log {root / 'error.log'} warn;\nevents {{ worker_connections 4096; }}\n"
        f"http {{\n  access_log off;\n  client_body_temp_path {root / 'body'};\n"
        f"  proxy_temp_path {root / 'proxy'};\n  include {root / 'micro-cache.conf'};\n}}\n",
        encoding="utf-8",
    )
    return main


def start_nginx(root: Path, *, listen_port: int, internal_port: int) -> Process:
    """nginx (Debian's) with the micro-cache, started and listening; stop it with ``stop``."""
    root.mkdir(parents=True, exist_ok=True)
    main = nginx_config(listen_port=listen_port, internal_port=internal_port, root=root)
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    process = Process(
        "nginx",
        [binary, "-p", str(root), "-c", str(main), "-g", "daemon off;"],
        {"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
        root / "nginx.log",
    )
    process.start()
    wait_for_port(listen_port, process)
    return process


def start_caddy(root: Path, config: dict[str, Any], *, listen_port: int) -> Process:
    """Caddy with ``config`` (from ``caddy_config``), started and listening."""
    root.mkdir(parents=True, exist_ok=True)
    path = root / "caddy.json"
    path.write_text(json.dumps(config, indent=1), encoding="utf-8")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(root),
        "XDG_DATA_HOME": str(root),
        "XDG_CONFIG_HOME": str(root),
    }
    process = Process(
        "caddy",
        [shutil.which("caddy") or "caddy", "run", "--config", str(path)],
        env,
        root / "caddy.log",
    )
    process.start()
    wait_for_port(listen_port, process)
    return process


def _handlers(routes: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for route in routes:
        for handler in route.get("handle", []):
            yield handler
            yield from _handlers(handler.get("routes", []))


def caddy_root_certificate(storage: Path) -> Path:
    return storage / "pki" / "authorities" / "local" / "root.crt"


def wait_for_port(port: int, process: Process, seconds_: float = 30) -> None:
    deadline = time.monotonic() + seconds_
    while time.monotonic() < deadline:
        if not process.alive():
            raise AssertionError(f"{process.name} exited:\n{process.tail()}")
        with socket.socket() as probe:
            probe.settimeout(0.5)
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise AssertionError(f"{process.name} did not listen on {port}:\n{process.tail()}")


# --- Clients behind the proxy ---------------------------------------------------------------


class SourceAdapter(HTTPAdapter):
    """Connections from one loopback address (127.0.0.2, 127.0.0.3: each a client of its
    own), to 127.0.0.1, with the public name for TLS (SNI and the certificate's check)."""

    def __init__(self, source: str, server_name: str | None, ca: Path | None) -> None:
        self.source, self.server_name, self.ca = source, server_name, ca
        super().__init__(max_retries=0)

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.source, 0)
        if self.server_name:
            context = ssl.create_default_context(cafile=str(self.ca) if self.ca else None)
            kwargs.update(
                ssl_context=context,
                server_hostname=self.server_name,
                assert_hostname=self.server_name,
            )
        super().init_poolmanager(*args, **kwargs)


class Visitor(requests.Session):
    """A browser at ``source`` reaching ``host`` (the name in the URL a club uses) through
    the proxy listening on 127.0.0.1:``port``: its own cookies, CSRF token and address."""

    def __init__(
        self, *, source: str, port: int, host: str, https: bool, ca: Path | None = None
    ) -> None:
        super().__init__()
        self.source, self.host, self.https = source, host, https
        scheme = "https" if https else "http"
        self.base = f"{scheme}://127.0.0.1:{port}"
        self.origin = f"{scheme}://{host}"
        adapter = SourceAdapter(source, host if https else None, ca)
        self.mount(f"{scheme}://", adapter)
        self.headers.update({"Host": host, "User-Agent": f"stack-test {source}"})
        if https:
            self.verify = str(ca) if ca else True

    def url(self, path: str) -> str:
        return self.base + path

    def csrf(self) -> str:
        token = self.cookies.get("csrftoken")
        if not token:
            self.get(self.url("/accounts/login/"), timeout=30)
            token = self.cookies.get("csrftoken")
        assert token, "no CSRF cookie from the sign-in page"
        return str(token)

    def post_form(self, path: str, data: dict[str, Any], **kwargs: Any) -> requests.Response:
        token = self.csrf()
        headers = {"Referer": self.origin + path, "Origin": self.origin}
        return self.post(
            self.url(path),
            data={"csrfmiddlewaretoken": token, **data},
            headers=headers,
            allow_redirects=False,
            timeout=60,
            **kwargs,
        )

    def post_json(self, path: str, body: dict[str, Any], *, referer: str) -> requests.Response:
        headers = {
            "X-CSRFToken": self.csrf(),
            "Referer": self.origin + referer,
            "Origin": self.origin,
            "Accept": "application/json",
        }
        return self.post(self.url(path), json=body, headers=headers, timeout=60)

    def sign_in(self, username: str, password: str) -> requests.Response:
        return self.post_form("/accounts/login/", {"username": username, "password": password})
