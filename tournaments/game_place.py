"""The event a game was played at, for scoring's lists of games (``scoring.places``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db.models import prefetch_related_objects
from django.urls import reverse

from scoring.models import Game
from scoring.places import Place

from .models import Event, Pairing


def event_places(games: Sequence[Game]) -> Mapping[int, Place]:
    """Each event game's event, linked to its public pages where it has them. The pairings
    are those read with the games for their results (``game_result.RESULT_RELATED``: no
    query; read together if not); the events, one query when any game is an event's."""
    listed = list(games)
    prefetch_related_objects(listed, "pairing")
    event_of: dict[int, int] = {}
    unread: list[int] = []  # pairings read for their result's columns only
    for game in listed:
        try:
            pairing = game.pairing
        except Pairing.DoesNotExist:
            continue  # a game of its club
        if "event_id" in pairing.get_deferred_fields():
            unread.append(game.id)
        else:
            event_of[game.id] = pairing.event_id
    if unread:
        rows = Pairing.objects.filter(game_id__in=unread).values_list("game_id", "event_id")
        event_of.update({game_id: event_id for game_id, event_id in rows if game_id is not None})
    if not event_of:
        return {}
    events = Event.objects.only("name", "public_pages").in_bulk(set(event_of.values()))
    return {
        game_id: Place(
            events[event_id].name,
            reverse("public:event", args=[event_id]) if events[event_id].public_pages else "",
        )
        for game_id, event_id in event_of.items()
    }
