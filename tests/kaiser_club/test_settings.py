"""Settings: production refuses to start without a secret key; hall mode turns off the
HTTPS-only settings and nothing else; DATABASE_URL picks the database. Each case loads the
settings in a fresh interpreter, so the test run's own settings stay as they are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SHOW = """
import json
import django
from django.conf import settings
django.setup()
print(json.dumps({name: getattr(settings, name) for name in [
    "DEBUG", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS", "SECURE_CONTENT_TYPE_NOSNIFF", "X_FRAME_OPTIONS", "ALLOWED_HOSTS",
]} | {"ENGINE": settings.DATABASES["default"]["ENGINE"]}))
"""


def load(module: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    clean.pop("DATABASE_URL", None)
    clean.update({"DJANGO_SETTINGS_MODULE": module, **env})
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=clean, capture_output=True, text=True
    )


def test_production_refuses_to_start_without_a_secret_key() -> None:
    result = load("kaiser_club.settings.production")
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "DJANGO_SECRET_KEY is not set" in result.stderr


@pytest.mark.parametrize(
    ("hall", "https_only"),
    [("false", True), ("true", False)],
)
def test_hall_mode_turns_off_https_only_settings(hall: str, https_only: bool) -> None:
    result = load(
        "kaiser_club.settings.production",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_HALL_MODE=hall,
        DJANGO_ALLOWED_HOSTS="192.168.1.10,kaiser.local",
    )
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["SECURE_SSL_REDIRECT"] is https_only
    assert shown["SESSION_COOKIE_SECURE"] is https_only
    assert shown["CSRF_COOKIE_SECURE"] is https_only
    assert (shown["SECURE_HSTS_SECONDS"] > 0) is https_only
    # Unchanged by hall mode:
    assert shown["DEBUG"] is False
    assert shown["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert shown["X_FRAME_OPTIONS"] == "DENY"
    assert shown["ALLOWED_HOSTS"] == ["192.168.1.10", "kaiser.local"]


@pytest.mark.parametrize(
    ("url", "engine"),
    [
        ("", "django.db.backends.sqlite3"),
        ("sqlite:////tmp/kaiser.sqlite3", "django.db.backends.sqlite3"),
        ("postgres://kaiser@127.0.0.1:5432/kaiser", "kaiser_club.db"),  # Django's, subclassed
    ],
)
def test_database_url_picks_the_database(url: str, engine: str) -> None:
    env = {"DATABASE_URL": url} if url else {}
    result = load("kaiser_club.settings.local", **env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ENGINE"] == engine
