"""The environment a benchmark's own Django runs in: production settings in hall mode on a
database of its own, Celery eager (no broker), secret key made up for the run."""

from __future__ import annotations

import os
import secrets


def use_production_settings(database_url: str, *, keep_redis: bool = True, **extra: str) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="kaiser_club.settings.production",
        DJANGO_SECRET_KEY="bench-" + secrets.token_urlsafe(40),
        DJANGO_HALL_MODE="true",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        DJANGO_LOG_LEVEL="WARNING",
        DATABASE_URL=database_url,
        **extra,
    )
    os.environ.pop("CELERY_BROKER_URL", None)
    if not keep_redis:
        os.environ.pop("REDIS_URL", None)


def recreate_database(server: str, name: str) -> None:
    """Drops and creates the benchmark's own database on ``server`` (postgres://...)."""
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')


def drop_database(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
