# One image for web (gunicorn), worker and beat. curl and procps (pgrep) are for the health
# checks of docker-compose.yml; tests/reliability/test_production_stack.py checks that every
# program a health check runs is installed here, and runs this image's settings module,
# collectstatic line and CMD (web's gunicorn) on the CI machine.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=kaiser_club.settings.production
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core gettext curl \
      procps \
 && rm -rf /var/lib/apt/lists/*
RUN useradd --create-home --uid 1000 kaiser
WORKDIR /app
COPY pyproject.toml README.md ./
COPY kaiser_club ./kaiser_club
COPY scoring ./scoring
COPY tournaments ./tournaments
RUN pip install --no-cache-dir .
COPY . .
RUN DJANGO_SECRET_KEY=build-only python manage.py collectstatic --noinput \
 && (python manage.py compilemessages >/dev/null 2>&1 || true) \
 && mkdir -p /app/media && chown -R kaiser /app/media
USER kaiser
EXPOSE 8000
CMD ["gunicorn", "kaiser_club.wsgi:application", "--bind", "0.0.0.0:8000", "--workers", "3", "--threads", "4", "--access-logfile", "-"]
