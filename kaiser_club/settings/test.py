"""The test suite. DATABASE_URL picks PostgreSQL in CI; Celery always runs eagerly here
(tests marked celery_worker switch to a real worker themselves)."""

from .base import *  # noqa: F403
from .base import env

SECRET_KEY = "test-secret-key-not-for-production"
DEBUG = False
ALLOWED_HOSTS = ["*"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="memory://")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
AXES_ENABLED = False  # tests of the lockout switch it back on
# No collectstatic before the tests: whitenoise looks files up per request instead of warning
# at every middleware start that staticfiles/ does not exist.
WHITENOISE_AUTOREFRESH = True
# The public pages read their event's version on every request here (not once a second per
# worker, as served): each test sees its own changes at once (tournaments/public/stored_pages.py).
PUBLIC_VERSION_SECONDS = 0
