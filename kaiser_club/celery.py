import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kaiser_club.settings.local")

app = Celery("kaiser_club")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Packages whose tasks module is not an app's top-level "tasks" (autodiscover misses them).
app.autodiscover_tasks(["tournaments.reports", "tournaments.outbox"])
