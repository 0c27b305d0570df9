"""Another club's id is answered as an id that does not exist, and a refusal names nothing of a
club the requester is not in.

Club A's organiser (or club admin) sends every door of the site that takes an id (the write
routes of ``tests/test_cross_club.py``, the reads below, and the ids a body or a form names:
a record chosen, a CSV row, an entry's club, a filter) once naming club B's things and once
naming ids that do not exist (every ``b_…`` id replaced by one no row has, club B's slug by
one no club has). The two answers must be the same, byte for byte once the ids are put back:
the status, the JSON body, the page (its per-request tokens aside), the redirect and its
messages. Then no refusal may carry club B's name, its event's, its players' or its teams',
unless the request itself said it (an imported file names its own club).

A guard fails when a route reading an id from its address has no row here and is not in
``READ_EXEMPT`` with its reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.db import transaction
from django.test import Client
from django.urls import resolve
from rest_framework.test import APIClient

from kaiser_club.request_limits import ID_IN_PATH
from tests.test_cross_club import (
    ROWS,
    MirrorIds,
    Row,
    _event_file,
    _patterns,
    client_for,
    send,
)
from tests.two_clubs import TwoClubs, two_clubs
from tournaments.models import Registrant, Table

Ids = dict[str, Any]
NO_SUCH_SLUG = "no-such-club"
NO_SUCH_SECRET = "NoSuchSecret" + "0" * 31  # a private link's secret no registrant has
FIRST_MISSING_ID = 987_600_001  # far beyond any row of the test; fits an id's column


def _read(path: str, *, actor: str = "organiser", ok: int | None = 200) -> Row:
    door = "api" if path.startswith("/api/") else "page"
    return Row(f"read {path} ({actor})", door, "get", path, 0, actor=actor, ok=ok)


# GET routes naming an id in their address or their query, with club B's ids.
AE, BE, PE, PB = (
    "/api/events/{a_event}/",
    "/api/events/{b_event}/",
    "/events/{a_event}/",
    "/events/{b_event}/",
)
READS: list[Row] = [
    _read("/api/clubs/{b_club}/"),
    _read("/api/clubs/{b_club}/members/"),
    _read("/api/teams/{b_team}/"),
    _read("/api/games/{b_game}/"),
    _read("/api/games/{b_game}/history/"),
    _read("/api/players/{b_player}/stats/"),
    _read(BE),
    _read(BE + "rules/", ok=None),  # PATCH only: 405 for a GET, the same for any id
    _read(BE + "export/"),
    _read(BE + "standings/"),
    _read(BE + "jobs/{b_job}/"),
    _read(AE + "jobs/{b_job}/"),
    _read(BE + "entries/"),
    _read(AE + "entries/{b_entry}/", ok=None),  # PATCH only
    _read(BE + "rounds/"),
    _read(BE + "rounds/1/"),
    _read(BE + "bracket/"),
    _read(AE + "pairings/{b_pairing}/"),
    _read(BE + "tables/"),
    _read(AE + "tables/{b_table}/qr.svg"),
    _read("/api/seasons/{b_season}/"),
    _read("/api/seasons/{b_season}/leaderboard/"),
    # Filters: another club's id is refused as an unknown one (it was answered with []).
    _read("/api/games/?club={b_club}"),
    _read("/api/teams/?club={b_club}"),
    _read("/api/events/?club={b_club}"),
    _read("/api/events/?season={b_season}"),
    _read("/api/seasons/?club={b_club}"),
    # Pages.
    _read("/games/{b_game}/"),
    _read("/games/?club={b_club}"),
    _read("/events/?club={b_club}"),
    _read("/events/seasons/{b_season}/"),
    _read(PB),
    _read(PB + "settings/"),
    _read(PB + "export.json"),
    _read(PB + "jobs/{b_job}/"),
    _read(PE + "jobs/{b_job}/"),
    _read(PB + "bracket/", ok=None),  # a Swiss event has no bracket page
    _read(PB + "entries/"),
    _read(PE + "entries/{b_entry}/edit/"),
    _read(PB + "rounds/1/"),
    _read(PB + "rounds/1/playing/"),
    _read(PE + "games/{b_pairing}/"),
    _read(PB + "tables/"),
    _read(PB + "reports/"),
    _read(PB + "reports/jobs"),
    _read(PE + "reports/{b_report}/pdf", ok=None),  # A's report failed: no file
    _read("/clubs/{b_slug}/"),
    _read("/clubs/{b_slug}/members/export.csv", actor="club_admin"),
    _read("/clubs/{b_slug}/members/past/", actor="club_admin"),
    _read("/clubs/{b_slug}/members/merge/", actor="club_admin"),
    _read("/clubs/{b_slug}/members/add/", actor="club_admin", ok=None),  # POST only
    _read(
        "/clubs/{a_slug}/members/merge/?keep={a_player}&duplicate={b_player}", actor="club_admin"
    ),
    _read("/players/{b_player}/"),
    _read("/players/ratings/{b_slug}/"),
    _read("/players/{b_player}/partners/{b_player2}/"),
    _read("/players/{a_player}/partners/{b_player}/", ok=None),  # not A's partners
    _read("/table/{b_table}/", actor="tablet"),
    _read("/table/{b_table}/board", actor="tablet"),
    _read("/table/{b_table}/state", actor="tablet"),
    _read("/table/{b_table}/"),
    _read("/table/{b_table}/board"),
    # Sign-ups: the organiser's list, the API's and the page; a player's own page (the
    # signed-in player's "My page", and the private link's: club B's registrant's secret under
    # club A's event, club A's under club B's).
    _read(BE + "registrations/"),
    _read(PB + "sign-ups/"),
    _read("/e/{b_event}/me/", ok=302),  # A's organiser signed up for A's event
    _read("/e/{a_event}/me/{b_secret}/", ok=200),
    _read("/e/{b_event}/me/{a_secret}/", ok=None),  # A's link is A's event's only
    _read("/e/{a_event}/me/{b_secret}/stop-emails/", ok=200),
]

# Ids a body or a form names, beyond the rows of tests/test_cross_club.py.
BODIES: list[Row] = [
    Row(
        "an entry's home club",
        "api",
        "post",
        AE + "entries/",
        400,
        body=lambda i: {
            "player_one": i["a_player"],
            "player_two": i["a_player2"],
            "club": i["b_club"],
        },
        ok=201,
    ),
    Row(
        "a member's record chosen (API)",
        "api",
        "post",
        "/api/clubs/{a_club}/members/",
        400,
        body=lambda i: {"name": "B Player 1", "player_id": i["b_player"]},
        actor="club_admin",
    ),
    Row(
        "a member's record chosen (page)",
        "page",
        "post",
        "/clubs/{a_slug}/members/add/",
        200,
        body=lambda i: {"new-name": "Zed", "new-role": "player", "new-choice": i["b_player"]},
        actor="club_admin",
    ),
    Row(
        "an entry's record chosen (page)",
        "page",
        "post",
        PE + "entries/add/",
        200,
        body=lambda i: {
            "player_one": "Xavier",
            "player_one_record": i["b_player"],
            "player_two": "Yolanda",
        },
    ),
    Row(
        "an entries CSV naming a record (API)",
        "api",
        "post",
        AE + "entries/import/",
        400,
        body=lambda i: {"csv": f"player_one,player_two,player_one_id\nX,Y,{i['b_player']}\n"},
    ),
    Row(
        "an entries CSV naming a record (page)",
        "page",
        "post",
        PE + "entries/import/",
        200,
        body=lambda i: {"csv": f"player_one,player_two,player_one_id\nX,Y,{i['b_player']}\n"},
    ),
    Row(
        "a members CSV naming a record",
        "page",
        "post",
        "/clubs/{a_slug}/members/import/",
        400,
        body=lambda i: {"text": f"id,name,email,role\n{i['b_player']},X,,player\n"},
        actor="club_admin",
    ),
    Row(
        "an imported event's person chosen",
        "api",
        "post",
        "/api/events/import/?dry_run=1&people=1:{b_player}",
        400,
        body=lambda i: _event_file(i),
    ),
    Row(
        "a substitute chosen by id (page)",
        "page",
        "post",
        PE + "games/{a_pairing}/substitute/",
        400,
        body=lambda i: {"replaced": i["a_pairing_north"], "substitute": i["b_player"]},
    ),
    Row(
        "a substitute's record chosen among the names asked back (page)",
        "page",
        "post",
        PE + "games/{a_pairing}/substitute/",
        400,
        body=lambda i: {
            "replaced": i["a_pairing_north"],
            "substitute_name": "Zed",
            "substitute_record": i["b_player"],
        },
        ok=302,  # club A's member is seated
    ),
    Row(
        "a team of the admin's other club's player and club B's",
        "api",
        "post",
        "/api/teams/",
        400,
        body=lambda i: {
            "club": i["a_club"],
            "player_one_id": i["c_player"],
            "player_two_id": i["b_player"],
        },
        actor="club_admin",
    ),
]

# Routes reading an id from the address that need no row, each for its reason.
READ_EXEMPT: dict[str, str] = {
    "invitations/<str:token>/": "the token is the secret: an unknown one and a used one alike",
    "t/<str:code>/": "a table's code is the secret (tests/table/test_access.py)",
    "e/<int:event_id>/": "public pages: an event whose pages are public is public by design",
    "e/<int:event_id>/standings/": "public pages",
    "e/<int:event_id>/standings.csv": "public pages",
    "e/<int:event_id>/bracket/": "public pages",
    "e/<int:event_id>/rounds/<int:number>/": "public pages",
    "e/<int:event_id>/games/<int:pairing_id>/": "public pages",
    "e/<int:event_id>/live/": "public pages",
    "e/<int:event_id>/teams/<int:entry_id>/": "public pages",
    "e/<int:event_id>/players/<int:player_id>/": "public pages (a player says if theirs is)",
    "e/<int:event_id>/projector/": "public pages",
    "e/seasons/<int:season_id>/": "public pages",
}
ALL_ROWS = [row for row in ROWS if not row.through] + READS + BODIES


@pytest.fixture
def world(db: None) -> TwoClubs:
    return two_clubs()


def missing(ids: Ids) -> tuple[Ids, dict[str, str]]:
    """The ids with club B's replaced by ids no row has (its slug by one no club has, its
    registrant's private link by one no registrant has), and how to put B's back into an
    answer."""
    gone: Ids = dict(ids)
    back: dict[str, str] = {NO_SUCH_SLUG: ids["b_slug"]}
    numbered = sorted(k for k, v in ids.items() if k.startswith("b_") and type(v) is int)
    for n, key in enumerate(numbered):
        gone[key] = FIRST_MISSING_ID + n
        back[str(FIRST_MISSING_ID + n)] = str(ids[key])
    gone["b_slug"] = NO_SUCH_SLUG
    gone["b_secret"] = NO_SUCH_SECRET
    back[NO_SUCH_SECRET] = ids["b_secret"]
    return gone, back


def put_back(text: str, back: dict[str, str]) -> str:
    return re.sub("|".join(rf"\b{re.escape(k)}\b" for k in back), lambda m: back[m.group(0)], text)


def answer_of(world: TwoClubs, row: Row, ids: Ids) -> dict[str, Any]:
    """What the door answers, nothing written (each request in a savepoint rolled back)."""
    client = client_for(world, row)
    point = transaction.savepoint()
    try:
        answer = send(client, row, ids)
    finally:
        transaction.savepoint_rollback(point)
    text = answer.content.decode(errors="replace")
    # The page's own per-request tokens (CSRF, a script's nonce, the fresh idempotency key of
    # a paper hand's form: a random UUID, scoring/forms.py) differ on every answer.
    text = re.sub(
        r'(csrfmiddlewaretoken" value=|"X-CSRFToken": |nonce=|name="client_id" value=)"[^"]*"',
        r"\1_",
        text,
    )
    return {
        "status": answer.status_code,
        "location": answer.get("Location", ""),
        "messages": [str(m.message) for m in get_messages(answer.wsgi_request)],
        "body": text,
    }


def where(row: Row, ids: Ids) -> str:
    return f"{row.method.upper()} {row.path.format_map(ids)} ({row.name})"


@pytest.mark.parametrize("row", [pytest.param(r, id=r.name) for r in ALL_ROWS])
def test_another_clubs_id_is_answered_as_an_id_that_does_not_exist(
    world: TwoClubs, row: Row
) -> None:
    ids = world.ids()
    gone, back = missing(ids)
    theirs = answer_of(world, row, ids)
    nobodys = answer_of(world, row, gone)
    nobodys = {
        key: put_back(value, back)
        if isinstance(value, str)
        else [put_back(str(v), back) for v in value]
        if isinstance(value, list)
        else value
        for key, value in nobodys.items()
    }
    assert theirs == nobodys, (
        f"{where(row, ids)} tells club B's from none:\n"
        f"club B's: {theirs['status']} {theirs['messages']} {theirs['body'][:800]}\n"
        f"none's:   {nobodys['status']} {nobodys['messages']} {nobodys['body'][:800]}"
    )


def club_bs_names(world: TwoClubs) -> list[str]:
    from scoring.models import Team

    b = world.b
    names = [b.club.name, b.event.name, *(p.name for p in b.players)]
    names += list(Team.objects.filter(club=b.club).values_list("name", flat=True))
    names += list(
        Registrant.objects.filter(registration__event=b.event).values_list("name", flat=True)
    )
    return sorted(set(names), key=len, reverse=True)  # "B Player 10" before "B Player 1"


def _text(value: Any) -> str:
    """A body's value as the request said it (an uploaded file: its content)."""
    read = getattr(value, "read", None)
    return read().decode() if read is not None else str(value)


@pytest.mark.parametrize("row", [pytest.param(r, id=r.name) for r in ALL_ROWS])
def test_no_refusal_names_club_bs_things(world: TwoClubs, row: Row) -> None:
    ids = world.ids()
    answer = answer_of(world, row, ids)
    asked = row.path.format_map(ids) + json.dumps(row.body(ids) if row.body else {}, default=_text)
    said = answer["body"] + " ".join(str(m) for m in answer["messages"])
    told = [name for name in club_bs_names(world) if name in said and name not in asked]
    assert not told, f"{where(row, ids)} told club A's {row.actor}: {told}"


@pytest.mark.parametrize(
    "row", [pytest.param(r, id=r.name) for r in READS + BODIES if r.ok is not None]
)
def test_the_same_door_with_club_as_own_ids_answers(world: TwoClubs, row: Row) -> None:
    """The rows above reach a door that works: with club A's own ids it answers (the refusal
    comes from club B's id, not from a bad path)."""
    ids = MirrorIds.of(world.ids())
    answer = send(client_for(world, row), row, ids)
    assert answer.status_code == row.ok, f"{where(row, ids)}: {answer.content[:300]!r}"


def test_an_import_of_club_bs_event_is_said_in_the_files_words_not_the_servers(
    world: TwoClubs,
) -> None:
    """The event's club of a file the importer does not organise is said with the file's name
    for it: the server's name for club B never comes out."""
    ids = world.ids()
    data = _event_file(ids, club="b")
    for club in data["clubs"]:
        if club["slug"] == ids["b_slug"]:
            club["name"] = "A name the file gives"
    client = APIClient()
    client.force_login(world.users["organiser"])
    answer = client.post("/api/events/import/", data, format="json")
    assert answer.status_code == 403
    assert answer.json()["detail"].startswith(
        f"The event's club, A name the file gives ({ids['b_slug']}), is not a club you organise"
    )
    assert ids["b_club_name"] not in answer.content.decode()


def test_a_refusal_in_french_says_the_same_for_another_clubs_id(world: TwoClubs) -> None:
    ids = world.ids()
    client = APIClient()
    client.force_login(world.users["organiser"])
    body = {"club": ids["b_club"], "name": "Spring Open", "date": "2027-04-03"}
    answer = client.post("/api/events/", body, format="json", HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.status_code == 400
    assert answer.json() == {
        "club": [f"Il n’y a pas de club {ids['b_club']} dont vous êtes membre."]
    }


def test_a_table_that_does_not_exist_is_refused_as_one_the_device_may_not_open(
    world: TwoClubs,
) -> None:
    tablet = Client()
    assert tablet.get(f"/t/{Table.objects.get(id=world.a.table.id).code}/").status_code == 302
    answer = tablet.get(f"/table/{FIRST_MISSING_ID}/")
    assert answer.status_code == 403
    assert "This device may not write this table" in answer.content.decode()
    organiser = Client()
    organiser.force_login(world.users["organiser"])
    own = organiser.get(f"/table/{world.a.table.id}/", HTTP_ACCEPT_LANGUAGE="en")
    assert own.status_code == 200  # a tournament's organiser opens its tables


# --- The guard: every route reading an id from its address has a row ----------------------------


def _routes_with_ids() -> Iterator[str]:
    from django.urls import get_resolver

    for route, _callback in _patterns(get_resolver().url_patterns):
        route = route.replace("^", "")
        if route.startswith("admin/") or "format" in route:
            continue
        if re.search(r"<(int|slug|str):|\(\?P<", route):
            yield route


class AnyId(dict[str, Any]):
    def __missing__(self, key: str) -> Any:
        return "x" if key.endswith("slug") else 1


def _covered() -> set[str]:
    found = set()
    for row in ALL_ROWS:
        path = row.path.format_map(AnyId()).split("?")[0]
        found.add(resolve(path).route.replace("^", ""))
    return found


def test_every_route_reading_an_id_has_a_row_or_a_reason() -> None:
    routes = set(_routes_with_ids())
    assert f"api/games/(?P<pk>{ID_IN_PATH})/$" in routes  # the guard sees the API's routes
    assert "e/<int:event_id>/" in routes
    missing_rows = routes - _covered() - set(READ_EXEMPT)
    assert not missing_rows, (
        "Routes reading an id with no row in tests/test_cross_club_not_found.py (or a reason in "
        "READ_EXEMPT): " + ", ".join(sorted(missing_rows))
    )
    assert set(READ_EXEMPT) <= routes, sorted(set(READ_EXEMPT) - routes)
