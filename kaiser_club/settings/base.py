"""Settings shared by every environment; each environment module imports these and overrides."""

import re
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent
env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

SECRET_KEY = env("DJANGO_SECRET_KEY", default="")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_tables2",
    "django_htmx",
    "django_celery_beat",
    "axes",
    "csp",
    "kaiser_club",
    "scoring",
    "tournaments",
]

MIDDLEWARE = [
    # First: the health checks ask by the container's address over HTTP, whatever the public
    # host name and the HTTPS redirect (kaiser_club/middleware.py).
    "kaiser_club.middleware.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # What a shared cache in front may keep: never an answer that sets a cookie
    # (kaiser_club/http_cache.py).
    "kaiser_club.http_cache.SharedCacheGuardMiddleware",
    # An event's public page stored at the event's version, answered before sessions,
    # authentication and CSRF for a reader who is not signed in
    # (tournaments/public/stored_pages.py).
    "tournaments.public.stored_pages.StoredPagesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Before any view: a JSON body too deep or too large is refused with a sentence.
    "kaiser_club.request_limits.RequestLimitsMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
    # Last, so a database outage in a view becomes a 503 a client can retry (not a 500).
    "kaiser_club.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "kaiser_club.urls"
WSGI_APPLICATION = "kaiser_club.wsgi.application"
ASGI_APPLICATION = "kaiser_club.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# DATABASE_URL picks the engine: SQLite for the quick start, postgres://... in production and CI
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Keep connections between requests (a new one per request cost ~80 ms per hand under load),
# checked before reuse so a restarted PostgreSQL costs one retry, not an error.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("DJANGO_CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
# On PostgreSQL, Django's engine with a health check that costs no round trip (kaiser_club/db/).
if DATABASES["default"].get("ENGINE") == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "kaiser_club.db"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",  # locks out repeated failed sign-ins
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env("DJANGO_TIME_ZONE", default="America/Regina")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env("DJANGO_STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = Path(env("DJANGO_MEDIA_ROOT", default=str(BASE_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "kaiser_club.staticfiles.GzipManifestStaticFilesStorage"},
}

REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "kaiser_club.api.schema.KaiserAutoSchema",
    "DEFAULT_PARSER_CLASSES": [
        "kaiser_club.api.parsers.StorableJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "kaiser_club.api.authentication.BasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "kaiser_club.api.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "kaiser_club.api.exceptions.kaiser_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Kaiser Club API",
    "DESCRIPTION": "Record Kaiser hands, read games and their state, run clubs and tournaments.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # Served from our own static files: the hall may have no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Fields named "kind" and "status" mean different things in different apps: name each set.
    "ENUM_NAME_OVERRIDES": {
        "SeatEnum": "scoring.choices.SeatChoice",
        "TeamEnum": "scoring.choices.TeamChoice",
        "HandKindEnum": "scoring.choices.HandKindChoice",
        "HandStatusEnum": "scoring.choices.HandStatus",
        "GameStatusEnum": "scoring.choices.GameStatus",
        "EventKindEnum": "tournaments.choices.EventKind",
        "EventStatusEnum": "tournaments.choices.EventStatus",
        "EntryStatusEnum": "tournaments.choices.EntryStatus",
        "RoundStatusEnum": "tournaments.choices.RoundStatus",
        "ResultKindEnum": "tournaments.choices.ResultKind",
        "JobStatusEnum": "tournaments.choices.JobStatus",
        "ReportKindEnum": "tournaments.models.reports.ReportKind",
        "WinnerSideEnum": "tournaments.choices.SlotSide",  # home or away, whatever the field
        "ActionEnum": "scoring.choices.HandAction",
    },
}

# The largest request body taken at all, refused unread from its Content-Length with a sentence
# (kaiser_club/request_limits.py): an exported event (20 MiB at most, tournaments/transfer/
# limits.py) and the form around it. Each upload has its own smaller limit; fields other than
# files stay within Django's DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MiB).
# How long a worker reuses an event's version it read for the public pages (seconds; 0: every
# request reads it): a change shows within this plus the pages' 3-second poll.
PUBLIC_VERSION_SECONDS = env.float("DJANGO_PUBLIC_VERSION_SECONDS", default=1.0)

MAX_REQUEST_BYTES = env.int("DJANGO_MAX_REQUEST_BYTES", default=21 * 1024 * 1024)

# Celery: with no broker configured (the quick start) tasks run eagerly in the web process.
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default="")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_RESULT_BACKEND = None
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "django_celery_beat.schedulers:DatabaseScheduler"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A Redis that hangs (stopped, swapping, a dead peer) must not hang a web request that queues a
# job: without a socket timeout, a send to a Redis that accepts but never answers waits forever
# (measured: still waiting after 40 s). With these, report_send gives up after a few seconds and
# the job waits in PostgreSQL for the sweep (tests/reliability/test_redis_down.py).
REDIS_SOCKET_TIMEOUT = env.float("REDIS_SOCKET_TIMEOUT", default=3.0)
CELERY_BROKER_CONNECTION_TIMEOUT = REDIS_SOCKET_TIMEOUT
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": REDIS_SOCKET_TIMEOUT,
    "socket_timeout": REDIS_SOCKET_TIMEOUT,
}
# Once a send has failed, the next ones in this process for this long do without the broker
# at once (kaiser_club/broker.py: the standings computed in the request, a round generated in
# the request, a PDF left for the sweep) rather than each wait for the timeouts above.
BROKER_OUTAGE_SECONDS = env.float("BROKER_OUTAGE_SECONDS", default=5.0)
# The cache (standings, stored public pages, rate limits) is a convenience: with Redis away
# every page is computed directly (kaiser_club/cache.py answers as an empty cache). Redis on
# the same host or network answers in a millisecond; a hung one costs the first request of
# an outage these timeouts, and the requests of the next OUTAGE_SECONDS nothing (Redis is not
# asked again until then). Measured, every page of an event with Redis hung: 1 s per cache
# call (up to 10 s a page) without the pause; with it, 0.29 s for the outage's first page and
# the others as fast as with no cache at all (tests/reliability/test_cache_unreachable.py).
REDIS_CACHE_OPTIONS = {
    "socket_connect_timeout": env.float("REDIS_CACHE_CONNECT_TIMEOUT", default=0.25),
    "socket_timeout": env.float("REDIS_CACHE_SOCKET_TIMEOUT", default=0.25),
}
REDIS_CACHE_OUTAGE_SECONDS = env.float("REDIS_CACHE_OUTAGE_SECONDS", default=5.0)

REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "kaiser_club.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "OPTIONS": REDIS_CACHE_OPTIONS,
            "OUTAGE_SECONDS": REDIS_CACHE_OUTAGE_SECONDS,
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions in the database, read with one statement written once (kaiser_club/sessions.py).
SESSION_ENGINE = "kaiser_club.sessions"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="INFO")},
}

# The clock sweep: every game past its deadline gets time called, tablet or not.
CELERY_BEAT_SCHEDULE = {
    "clock-sweep": {
        "task": "scoring.clock_sweep",
        "schedule": env.float("CLOCK_SWEEP_SECONDS", default=5.0),
    },
    # PDF reports: re-send jobs queued but never started (the broker was down or lost them) and
    # take back jobs whose worker died mid-render.
    "reports-sweep": {
        "task": "reports.sweep",
        "schedule": env.float("REPORT_SWEEP_SECONDS", default=30.0),
    },
    # Events: a finished game whose pairing missed its result (a crash between the game's
    # commit and the bracket's advance) is carried on.
    "events-results-sweep": {
        "task": "tournaments.sync_results",
        "schedule": env.float("EVENTS_SWEEP_SECONDS", default=30.0),
    },
    # Players' e-mails and notifications still queued (the broker was away, a try failed).
    "outbox-sweep": {
        "task": "outbox.sweep",
        "schedule": env.float("OUTBOX_SWEEP_SECONDS", default=60.0),
    },
}
# A report job queued this long without starting is sent again; one whose worker has not
# renewed its lease (every quarter of the timeout, while it renders) for this long is taken
# back (its worker died); after this many starts it fails and waits for a rerun.
REPORT_RESEND_AFTER = env.int("REPORT_RESEND_AFTER", default=60)
REPORT_RUNNING_TIMEOUT = env.int("REPORT_RUNNING_TIMEOUT", default=120)
REPORT_MAX_ATTEMPTS = env.int("REPORT_MAX_ATTEMPTS", default=3)
# E-mail to players who signed up, by Django's own settings (SMTP unless EMAIL_BACKEND says).
EMAIL_BACKEND = env("EMAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = env("EMAIL_HOST", default="localhost")
EMAIL_PORT = env.int("EMAIL_PORT", default=25)
EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=False)
EMAIL_TIMEOUT = env.int("EMAIL_TIMEOUT", default=20)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Kaiser Club <kaiser-club@localhost>")
# Browser notifications (Web Push): off unless both VAPID keys are set.
WEBPUSH_VAPID_PRIVATE_KEY = env("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_VAPID_PUBLIC_KEY = env("WEBPUSH_VAPID_PUBLIC_KEY", default="")
WEBPUSH_VAPID_SUBJECT = env("WEBPUSH_VAPID_SUBJECT", default="mailto:kaiser-club@localhost")
# Sign-ups by players (anonymous writes): counted per client address, as wrong table codes are.
REGISTRATION_RATE = env("REGISTRATION_RATE", default="30/m")
# Where table cards' QR codes point when the job was not asked for from a page (a script).
REPORTS_BASE_URL = env("REPORTS_BASE_URL", default="http://127.0.0.1:8000")

# Security: lock out repeated failed sign-ins (django-axes, in the database, so it keeps working
# when Redis is down); rate-limit table codes (django-ratelimit on the cache, failing open so a
# Redis outage never stops hands being recorded); a Content-Security-Policy with no inline script.
#
# Both count the client's own address (kaiser_club/client_address.py): the forwarded one when
# the request comes from a proxy named in DJANGO_TRUSTED_PROXIES (addresses, networks or host
# names; compose names its proxy service), the connecting one otherwise. Behind a proxy that
# is not named, everyone is the proxy's address: one person's wrong passwords or table codes
# would stop everyone.
TRUSTED_PROXIES = env.list("DJANGO_TRUSTED_PROXIES", default=[])
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=8)
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "kaiser_club.client_address.client_address"
RATELIMIT_USE_CACHE = "default"
RATELIMIT_FAIL_OPEN = True
RATELIMIT_IP_META_KEY = "kaiser_club.client_address.client_address"
# One address, not its /64: the tablets of a hall on IPv6 share a /64, and one guesser among
# them must not stop the others (a table's code has 100 random bits; the limit only slows).
RATELIMIT_IPV6_MASK = 128
TABLE_CODE_RATE = env("TABLE_CODE_RATE", default="30/m")

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}


def prepare_threshold(value: str) -> int | None:
    """``DATABASE_PREPARE_THRESHOLD``: the runs after which psycopg prepares a statement (0: at
    its first run), or off."""
    value = value.strip().lower()
    if value in ("off", "none", ""):
        return None
    if value.isdigit():
        return int(value)
    raise ImproperlyConfigured(
        f"DATABASE_PREPARE_THRESHOLD={value!r}: a whole number of runs, or off."
    )


def statement_timeout(value: str) -> str | None:
    """``DATABASE_STATEMENT_TIMEOUT``: how long one statement may run ("30s", "2min",
    "500ms"; a number alone is milliseconds), or off."""
    value = value.strip().lower().replace(" ", "")
    if value in ("off", "none", "", "0"):
        return None
    if re.fullmatch(r"\d+(ms|s|min|h)?", value):
        return value
    raise ImproperlyConfigured(
        f"DATABASE_STATEMENT_TIMEOUT={value!r}: a duration such as 30s or 2min, or off."
    )


if DATABASES["default"].get("ENGINE") == "kaiser_club.db":  # PostgreSQL (set above)
    # Values sent beside the statement, not quoted into it, and a statement a connection
    # runs again and again prepared (after 5 runs: psycopg's threshold, which Django turns off
    # unless asked), so the hand's game read and its write are planned once per connection,
    # not at every hand (1-3 ms of planning each). Behind PgBouncer in transaction mode set
    # DATABASE_PREPARE_THRESHOLD=off: a pooled server connection does not keep them.
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options["server_side_binding"] = True
    options["prepare_threshold"] = prepare_threshold(
        env.str("DATABASE_PREPARE_THRESHOLD", default="5")
    )
    # gunicorn's threaded workers do not stop a request that runs past --timeout: PostgreSQL
    # stops a statement that does (a lock never released, a runaway query), so a stuck
    # request gives its thread and its connection back with an error. Off behind PgBouncer
    # (it refuses the startup option: set it on the database role there).
    timeout = statement_timeout(env.str("DATABASE_STATEMENT_TIMEOUT", default="30s"))
    if timeout is not None:
        given = str(options.get("options", ""))
        options["options"] = f"{given} -c statement_timeout={timeout}".strip()
