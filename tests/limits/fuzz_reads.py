"""What the stateful fuzzer (``test_stateful_fuzz.py``) reads after each accepted write, and the
snapshot it compares after each refused one.

Every page and endpoint of an event, as the one who reads it: the organiser's pages and the
API (the organiser), the public pages under /e/ (anyone), the projector, the table page and its
board and state (the organiser, who may open any table of a tournament), the standings CSV and
the JSON export. Each must answer 200, but where a page says otherwise by design:

- the public pages are 404 while the event's public pages are off (``public_pages``);
- a table's QR code is 400 while its code is revoked ("renew it first");
- a player's page is 404 unless the player's page is public (``Player.is_public``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.apps import apps

from kaiser_club.models import Player
from kaiser_club.text import clean_text
from tournaments.models import Entry, Event, GenerationJob, Pairing, Round, Table

APPS = ("kaiser_club", "scoring", "tournaments")


@dataclass(frozen=True)
class Read:
    who: str  # "api" (organiser, DRF), "page" (organiser, signed in), "public" (anonymous)
    url: str
    allowed: tuple[int, ...] = (200,)


def event_reads(event_id: int) -> list[Read]:
    event = Event.objects.get(id=event_id)
    e = event.id
    public = (200,) if event.public_pages else (404,)
    rounds = list(Round.objects.filter(event=event).values_list("number", flat=True))
    pairings = list(Pairing.objects.filter(event=event).values_list("id", flat=True))
    tables = list(Table.objects.filter(event=event).values_list("id", "code"))
    entries = list(Entry.objects.filter(event=event).values_list("id", flat=True))
    games = list(
        Pairing.objects.filter(event=event, game__isnull=False).values_list("game_id", flat=True)
    )
    jobs = list(GenerationJob.objects.filter(event=event).values_list("id", flat=True))
    players = _players(event)

    reads = [
        # The API, as the event's organiser
        Read("api", f"/api/events/{e}/"),
        Read("api", "/api/events/"),
        Read("api", f"/api/events/{e}/standings/"),
        Read("api", f"/api/events/{e}/entries/"),
        Read("api", f"/api/events/{e}/rounds/"),
        Read("api", f"/api/events/{e}/bracket/"),
        Read("api", f"/api/events/{e}/tables/"),
        Read("api", f"/api/events/{e}/export/"),
        Read("api", "/api/teams/"),
        Read("api", "/api/games/"),
        # The organiser's pages
        Read("page", "/events/"),
        Read("page", f"/events/{e}/"),
        Read("page", f"/events/{e}/settings/"),
        Read("page", f"/events/{e}/export.json"),
        Read("page", f"/events/{e}/bracket/"),
        Read("page", f"/events/{e}/entries/"),
        Read("page", f"/events/{e}/tables/"),
        Read("page", f"/events/{e}/reports/"),
        Read("page", f"/events/{e}/reports/jobs"),
        Read("page", "/games/"),
        # The public pages and the projector
        Read("public", "/e/"),
        Read("public", f"/e/{e}/", public),
        Read("public", f"/e/{e}/standings/", public),
        Read("public", f"/e/{e}/standings/?part=1", public),
        Read("public", f"/e/{e}/standings.csv", public),
        Read("public", f"/e/{e}/bracket/", public),
        Read("public", f"/e/{e}/live/", public),
        Read("public", f"/e/{e}/live/?part=1", public),
        Read("public", f"/e/{e}/projector/", public),
    ]
    for number in rounds:
        reads += [
            Read("api", f"/api/events/{e}/rounds/{number}/"),
            Read("page", f"/events/{e}/rounds/{number}/"),
            Read("page", f"/events/{e}/rounds/{number}/playing/"),
            Read("public", f"/e/{e}/rounds/{number}/", public),
        ]
    for pairing in pairings:
        reads += [
            Read("api", f"/api/events/{e}/pairings/{pairing}/"),
            Read("page", f"/events/{e}/games/{pairing}/"),
            Read("public", f"/e/{e}/games/{pairing}/", public),
        ]
    for table, code in tables:
        reads += [
            Read("api", f"/api/events/{e}/tables/{table}/qr.svg", (200,) if code else (400,)),
            Read("page", f"/table/{table}/"),
            Read("page", f"/table/{table}/board"),
            Read("page", f"/table/{table}/state"),
        ]
    for game in games:
        reads += [
            Read("api", f"/api/games/{game}/"),
            Read("api", f"/api/games/{game}/history/"),
            Read("page", f"/games/{game}/"),
        ]
    reads += [Read("api", f"/api/events/{e}/jobs/{job}/") for job in jobs]
    reads += [Read("public", f"/e/{e}/teams/{entry}/", public) for entry in entries]
    reads += [
        Read("public", f"/e/{e}/players/{player}/", public if shown else (404,))
        for player, shown in players
    ]
    return reads


def _players(event: Event) -> list[tuple[int, bool]]:
    """The event's players, each with whether their page may be public."""
    ids: set[int] = set()
    for one, two, alone in Entry.objects.filter(event=event).values_list(
        "team__player_one_id", "team__player_two_id", "player_id"
    ):
        ids.update(i for i in (one, two, alone) if i is not None)
    return list(Player.objects.filter(id__in=ids).order_by("id").values_list("id", "is_public"))


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the project's apps' tables (the base manager: pending hands too)."""
    rows: dict[str, list[tuple[Any, ...]]] = {}
    for label in APPS:
        for model in apps.get_app_config(label).get_models():
            rows[model._meta.db_table] = list(model._base_manager.order_by("pk").values_list())
    return rows


def snapshot_changes(
    before: dict[str, list[tuple[Any, ...]]], after: dict[str, list[tuple[Any, ...]]]
) -> dict[str, Any]:
    """The tables whose rows differ, with the rows only one side has."""
    changed = {}
    for table, rows in after.items():
        old = before.get(table, [])
        if rows != old:
            changed[table] = {
                "gone": [r for r in old if r not in rows][:3],
                "new": [r for r in rows if r not in old][:3],
            }
    return changed


# Text people type, which the app stores cleaned (``kaiser_club.text``: one line, no control or
# bidi formatting characters, single spaces), by model and field.
TYPED_TEXT = {
    "kaiser_club.Club": ("name", "town"),
    "kaiser_club.Player": ("name",),
    "scoring.Team": ("name",),
    "scoring.GameChange": ("reason", "by_label"),
    "tournaments.Season": ("name",),
    "tournaments.Event": ("name", "venue"),
    "tournaments.Entry": ("name",),
    "tournaments.Substitution": ("reason",),
    "tournaments.Round": ("label",),
    "tournaments.Pairing": ("reason",),
    "tournaments.Rollback": ("reason",),
}


def unclean_texts() -> list[tuple[str, str, Any, str]]:
    """Every stored typed text that is not as ``clean_text`` leaves it."""
    found = []
    for label, names in TYPED_TEXT.items():
        model = apps.get_model(label)
        for pk, *values in model._base_manager.values_list("pk", *names):
            for name, value in zip(names, values, strict=True):
                if value and value != clean_text(value):
                    found.append((label, name, pk, value[:80]))
    return found
