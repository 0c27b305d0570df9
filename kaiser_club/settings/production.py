"""Production, and the hall laptop ("hall mode").

Refuses to start without DJANGO_SECRET_KEY. Hall mode (DJANGO_HALL_MODE=true) is for a laptop
serving tablets over plain HTTP on a hall's own network: it turns off the HTTPS-only settings,
and nothing else.
"""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env

SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is not set. Production refuses to start without a secret key: "
        "set it to a long random string, for example the output of "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )
DEBUG = False
HALL_MODE = env.bool("DJANGO_HALL_MODE", default=False)

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = not HALL_MODE
SESSION_COOKIE_SECURE = not HALL_MODE
CSRF_COOKIE_SECURE = not HALL_MODE
SECURE_HSTS_SECONDS = 0 if HALL_MODE else env.int("DJANGO_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not HALL_MODE
SECURE_HSTS_PRELOAD = not HALL_MODE
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])
