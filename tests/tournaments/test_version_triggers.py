"""SQLite drops a table's triggers when a migration remakes the table: after every migrate the
event's version counters' triggers are made again where missing."""

from __future__ import annotations

import pytest
from django.db import connection

from tournaments.models import EventVersion
from tournaments.version_triggers import restore_sqlite_triggers

from .helpers import make_event

pytestmark = pytest.mark.django_db


@pytest.mark.skipif(connection.vendor != "sqlite", reason="PostgreSQL keeps a table's triggers")
def test_a_trigger_a_remade_table_lost_is_made_again_after_migrate():
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER kv_event_insert")  # as remaking tournaments_event does
    lost = make_event(teams=0)
    assert not EventVersion.objects.filter(event=lost).exists()
    restore_sqlite_triggers(using="default")
    assert EventVersion.objects.filter(event=lost).exists()  # the counters it missed
    made = make_event(teams=0)
    assert EventVersion.objects.filter(event=made).exists()  # and the trigger again
    restore_sqlite_triggers(using="default")  # once more: nothing to do, no error
    assert EventVersion.objects.filter(event__in=[lost, made]).count() == 2
