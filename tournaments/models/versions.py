"""The version of what an event's public pages and standings show: two counters, moved by the
database itself in the same transaction as any change to the rows those pages read.

Triggers (migration 0007) add one to ``live`` on every insert, update or delete of the event,
its entries, rounds, tables and pairings, of a game of its pairings (every confirmed hand,
undo, correction, forfeit and clock change writes the game's row), and of a team or player
playing in it (a merge re-points teams; a rename or a privacy change). ``results`` moves with
what standings read: the event, its entries and pairings, and the people in them. Every path
that writes (a service, an import, a rollback, the admin, a bulk update) moves them, and a
reader learns an event's version with one look-up by primary key, however big the event.
"""

from __future__ import annotations

from django.db import models

from .events import Event


class EventVersion(models.Model):
    event = models.OneToOneField(
        Event, primary_key=True, on_delete=models.CASCADE, related_name="counter"
    )
    results = models.BigIntegerField(default=0)
    live = models.BigIntegerField(default=0)
    # A random number drawn when the event is made: a version names it, so that a stamp of an
    # event made again with the same id (a database restored, a test's) is never one kept.
    epoch = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.event_id}: results {self.results}, live {self.live}"
