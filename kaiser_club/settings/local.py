"""The quick start: `make demo`. SQLite, debug on; Celery eager unless a broker is set, which
`make demo` (manage.py serve_demo) does: a worker and beat on a broker kept in files."""

from pathlib import Path

from .base import *  # noqa: F403
from .base import BASE_DIR, CELERY_BROKER_URL, DATABASES, env

DEBUG = env.bool("DJANGO_DEBUG", default=True)
SECRET_KEY = env("DJANGO_SECRET_KEY", default="insecure-local-development-key-not-for-production")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "0.0.0.0"])
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# SQLite with three processes (the server, a Celery worker and beat: `make demo`): readers do
# not wait for the writer (WAL), and a writer waits its turn instead of failing with "database
# is locked" (IMMEDIATE transactions, a 20 s timeout).
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )

# `make demo` (manage.py serve_demo) runs a Celery worker and beat beside the server on
# kombu's filesystem transport (CELERY_BROKER_URL=filesystem://): messages are files in
# DEMO_BROKER_DIR, so nothing more is installed, and the clock sweep, the reports sweep and the
# PDFs run as in production, off the request. Without a broker, tasks run in the request.
DEMO_BROKER_DIR = Path(env("DEMO_BROKER_DIR", default=str(BASE_DIR / ".demo-broker")))
if CELERY_BROKER_URL.startswith("filesystem://"):
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(DEMO_BROKER_DIR / "queue"),
        "data_folder_out": str(DEMO_BROKER_DIR / "queue"),
        "control_folder": str(DEMO_BROKER_DIR / "control"),
        "store_processed": False,
        "polling_interval": 0.5,
    }

# Players' e-mails in files under DEMO_MAIL_DIR (one a message), unless EMAIL_BACKEND is set.
DEMO_MAIL_DIR = Path(env("DEMO_MAIL_DIR", default=str(BASE_DIR / ".demo-mail")))
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = str(DEMO_MAIL_DIR)
