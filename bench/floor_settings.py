"""The production settings as bench/record_hands.py measures them, with one more URL: the
framework's own floor for an API write (``bench/floor_urls.py``). Used only by that benchmark,
as the settings module of the gunicorn it measures."""

from kaiser_club.settings.production import *  # noqa: F403  (the settings measured, as deployed)

ROOT_URLCONF = "bench.floor_urls"
