"""Every read of an event, for the tests that import one: each page, part and API answer that
shows the event or anything made from it (its games, players, ratings, season), as the public,
the organiser and a table's tablet see them. "Stored stays readable": each must answer 200
(a public page 404 when the event hides its public pages)."""

from __future__ import annotations

import json
from typing import Any

from django.test import Client

from kaiser_club.roles import Role
from scoring.models import Game
from tests.factories import member
from tournaments.models import Event, Pairing, Table

# SQL and driver words that must never reach the person importing a file.
DATABASE_WORDS = (
    "constraint",
    "violates",
    "duplicate key",
    "unique",
    "integrity",
    "not null",
    "null value",
    "out of range for type",
    "sqlite",
    "psycopg",
    "postgres",
    "relation ",
    "column ",
    "detail:",
    "traceback",
    "error:",
)
# Every refusal of an import starts by naming the file or one of its rows.
ROW_NAMES = (
    "This file ",
    "The file",
    "The event",
    "The season",
    "Club",
    "Player",
    "Team",
    "Entr",
    "Round",
    "Table",
    "Game",
    "Pairing",
    "Substitution",
    "Registration",
)


def refusal_is_a_sentence_about_the_file(detail: str) -> None:
    assert detail.startswith(ROW_NAMES), f"names no row of the file: {detail!r}"
    lowered = detail.lower()
    quoted = [word for word in DATABASE_WORDS if word in lowered]
    assert not quoted, f"speaks of the database ({quoted}): {detail!r}"
    assert detail.rstrip().endswith((".", ")", "…")), f"not a sentence: {detail!r}"


def event_urls(event: Event) -> tuple[list[str], list[str], list[str]]:
    """(public, organiser, staff) URLs of everything the event shows."""
    e = event.id
    pairings = list(Pairing.objects.filter(event=event).select_related("round"))
    rounds = sorted(
        {p.round.number for p in pairings} | set(event.round_set.values_list("number", flat=True))
    )
    games = list(Game.objects.filter(pairing__event=event))
    players = {p for g in games for p in (g.north_id, g.east_id, g.south_id, g.west_id)}
    entries = list(event.entries.values_list("id", flat=True))
    public = [
        f"/e/{e}/",
        f"/e/{e}/standings/",
        f"/e/{e}/standings.csv",
        f"/e/{e}/live/",
        f"/e/{e}/projector/",
        *[f"/e/{e}/rounds/{n}/" for n in rounds],
        *[f"/e/{e}/games/{p.id}/" for p in pairings if p.game_id],
        *[f"/e/{e}/teams/{entry}/" for entry in entries],
    ]
    public.append(f"/e/{e}/bracket/")
    if event.season_id and event.kind == "club_night":  # a club night's season is public
        public.append(f"/e/seasons/{event.season_id}/")
    organiser = [
        f"/events/{e}/",
        f"/events/{e}/settings/",
        f"/events/{e}/export.json",
        f"/events/{e}/entries/",
        f"/events/{e}/tables/",
        f"/events/{e}/reports/",
        *[f"/events/{e}/rounds/{n}/" for n in rounds],
        *[f"/events/{e}/rounds/{n}/playing/" for n in rounds],
        *[f"/events/{e}/games/{p.id}/" for p in pairings],
        f"/api/events/{e}/",
        f"/api/events/{e}/standings/",
        f"/api/events/{e}/export/",
        f"/api/events/{e}/entries/",
        f"/api/events/{e}/rounds/",
        f"/api/events/{e}/tables/",
        *[f"/api/events/{e}/rounds/{n}/" for n in rounds],
        *[f"/api/events/{e}/pairings/{p.id}/" for p in pairings],
        *[f"/games/{g.id}/" for g in games],
        *[f"/api/games/{g.id}/" for g in games],
        f"/players/ratings/{event.club.slug}/",
    ]
    # A player's page shows every game of theirs, their statistics and rating: staff see all.
    staff = [
        *[f"/players/{p}/" for p in sorted(players)],
        *[f"/api/players/{p}/stats/" for p in sorted(players)],
    ]
    organiser += [f"/events/{e}/bracket/", f"/api/events/{e}/bracket/"]
    if event.season_id:
        organiser.append(f"/api/seasons/{event.season_id}/leaderboard/")
    return public, organiser, staff


def _staff_user() -> Any:
    from django.contrib.auth import get_user_model

    user, _ = get_user_model().objects.get_or_create(
        username="reads-staff", defaults={"is_staff": True, "is_superuser": True}
    )
    return user


def _get(client: Client, url: str, **extra: Any) -> int:
    try:
        return client.get(url, **extra).status_code
    except Exception as exc:  # a 500, with the test's context
        raise AssertionError(f"GET {url} raised {exc!r}") from exc


def assert_every_read_answers(event: Event, organiser: Any = None) -> int:
    """Reads everything the event shows; fails on any answer but 200 (404 for public pages the
    event hides). Returns how many reads were made."""
    event = Event.objects.select_related("club").get(id=event.id)
    public, organiser_urls, staff_urls = event_urls(event)
    anonymous = Client()
    signed_in = Client()
    signed_in.force_login(organiser or member(event.club, Role.ORGANISER))
    wrong = []
    for url in public:
        status = _get(anonymous, url)
        if status != (200 if event.public_pages else 404):
            wrong.append((url, status))
    for url in organiser_urls:
        status = _get(signed_in, url)
        if status != 200:
            wrong.append((url, status))
    staff = Client()
    staff.force_login(_staff_user())
    for url in staff_urls:
        status = _get(staff, url)
        if status != 200:
            wrong.append((url, status))
    # The sign-ups: the organiser's list, each player's own page (by its new private link),
    # and the sign-up form of an event that takes sign-ups.
    from tournaments.models import Registrant

    e = event.id
    for url in (f"/events/{e}/sign-ups/", f"/api/events/{e}/registrations/"):
        status = _get(signed_in, url)
        if status != 200:
            wrong.append((url, status))
    owns = [
        f"/e/{e}/me/{secret}/"
        for secret in Registrant.objects.filter(registration__event=event)
        .order_by("id")
        .values_list("secret", flat=True)[:4]
    ]
    if event.registration != "closed":
        owns.append(f"/e/{e}/register/")
    for url in owns:
        status = _get(anonymous, url)
        if status != 200:
            wrong.append((url, status))
    # A table's tablet: its code opens its page, which shows the table's current game.
    tablet = Client()
    reads = len(public) + len(organiser_urls) + len(staff_urls) + 2 + len(owns)
    for table in Table.objects.filter(event=event, code__isnull=False)[:3]:
        opened = tablet.get(f"/t/{table.code}/")
        reads += 1
        if opened.status_code not in (200, 302):
            wrong.append((f"/t/{table.code}/", opened.status_code))
        for part in ("", "board", "state"):
            url = f"/table/{table.id}/{part}"
            reads += 1
            status = _get(tablet, url)
            if status != 200:
                wrong.append((url, status))
    assert not wrong, f"reads of event {event.id} that did not answer: {wrong}"
    return reads


def row_counts() -> dict[str, int]:
    """How many rows each table an import writes to holds: a refusal leaves them all alone."""
    from kaiser_club.models import Club, Player
    from scoring.models import Hand
    from scoring.models import Team as ScoringTeam
    from tournaments.models import Entry, Registrant, Registration, Round, Season, Substitution

    models = [Club, Player, ScoringTeam, Season, Event, Entry, Round, Table, Game, Hand, Pairing]
    counts = {model.__name__: model._default_manager.count() for model in models}
    counts["Hand"] = Hand.with_pending.count()
    counts["Substitution"] = Substitution.objects.count()
    counts["Registration"] = Registration.objects.count()
    counts["Registrant"] = Registrant.objects.count()
    return counts


def post_import(client: Any, document: Any, **query: str) -> Any:
    """POSTs the document as the JSON body of /api/events/import/ (escaped to ASCII, so that a
    lone surrogate travels as JSON writes it: "\\ud800")."""
    suffix = "?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""
    return client.post(
        f"/api/events/import/{suffix}",
        data=json.dumps(document, ensure_ascii=True),
        content_type="application/json",
    )
