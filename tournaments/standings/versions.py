"""Version stamps of an event (or a season): what the standings cache, the stored public
pages and their ETags are checked against.

An event's stamp is read from its two counters (``tournaments.models.EventVersion``), which
the database moves in the same transaction as every change to a row the pages read: one
look-up by primary key, the same at 16 teams or 512 (it was a scan of every pairing).
``results`` covers what standings read (pairings and their results, entries, the event's
settings, the people of the partnerships); ``live`` adds what the live pages show (games,
rounds, tables). A hand waiting for confirmation writes its game's row too (so ``live``
moves) but changes no score shown anywhere: a page rendered again shows the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, QuerySet, Sum

from ..choices import EventKind
from ..models import Event, EventVersion, Season


def with_versions(qs: QuerySet[Event]) -> QuerySet[Event]:
    """Events read with their counters (no further query for ``event_versions``)."""
    return qs.annotate(
        v_results=F("counter__results"), v_live=F("counter__live"), v_epoch=F("counter__epoch")
    )


@dataclass(frozen=True)
class Versions:
    results: str  # what standings read changed
    live: str  # what any public page shows changed


def versions_of(
    event_id: int, results: int | None, live: int | None, epoch: int | None
) -> Versions:
    stamp = f"{event_id}.{epoch or 0}"
    return Versions(results=f"{stamp}.r{results or 0}", live=f"{stamp}.l{live or 0}")


def event_versions(event: Event) -> Versions:
    """The versions of an event read through ``with_versions`` (no query), or with one
    look-up by primary key when the event was read without them."""
    found: Any = event
    if hasattr(found, "v_live"):
        return versions_of(event.id, found.v_results, found.v_live, found.v_epoch)
    return live_versions(event.id) or versions_of(event.id, 0, 0, 0)


def live_versions(event_id: int) -> Versions | None:
    """The event's versions from its counters (one look-up), None if there is no event."""
    row = (
        EventVersion.objects.filter(event_id=event_id)
        .values_list("results", "live", "epoch")
        .first()
    )
    return versions_of(event_id, *row) if row is not None else None


def season_version(season: Season) -> str:
    """The version of a season's leaderboard (one query over its club nights, not their
    pairings): their results counters, which of them count, and the season's tie-breaks."""
    found = Event.objects.filter(season=season, kind=EventKind.CLUB_NIGHT).aggregate(
        n=Count("id"), results=Sum("counter__results"), epochs=Sum("counter__epoch")
    )
    return f"{season.id}.{found['n']}.{found['epochs']}.{found['results']}.{season.tiebreaks}"
