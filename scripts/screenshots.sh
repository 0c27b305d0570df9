#!/bin/sh
# Refreshes docs/screenshots/ (the README's pictures, English and French) from the demo data,
# with Debian's chromium through Playwright. Needs PostgreSQL, as the browser tests do:
#   DATABASE_URL=postgres://postgres@127.0.0.1:5432/kaiser scripts/screenshots.sh
set -eu
cd "$(dirname "$0")/.."
KAISER_SCREENSHOTS=docs CI=true DJANGO_SETTINGS_MODULE=kaiser_club.settings.test \
  "${PYTHON:-python}" -m pytest -q --reuse-db tests/browser/test_screenshots.py "$@"
