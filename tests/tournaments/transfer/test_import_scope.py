"""Who may import what: an event file naming another club, a club that is not here and another
club's members' emails, imported as an organiser and as staff, through every door (the API's
JSON body and multipart file, the organiser's page, the management command). The doors give the
same answer for the same document; a refusal writes nothing; an import never makes a team in a
club the importer does not organise nor links another club's player records, so other clubs'
ratings do not move and no answer shows their members' names."""

from __future__ import annotations

import copy
import io
import json
import re
from dataclasses import dataclass
from html import unescape
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from kaiser_club.models import Club, Membership, Player
from kaiser_club.roles import Role
from scoring.models import Game, Hand, Team
from scoring.ratings import current_ratings
from scoring.rules import Side
from tests.factories import UserFactory, member
from tests.tournaments.helpers import generate, make_event, new_club, win_game
from tournaments.models import Entry, Event, Pairing, Round, Season, Substitution, Table
from tournaments.transfer import event_export

pytestmark = pytest.mark.django_db

PRIVATE = "Private Regina"  # the names of Regina's members: no answer here may show them
HOME_EMAIL = "home.member@saskatoon.example"
UNKNOWN = {"slug": "moose-jaw", "name": "Moose Jaw Kaiser", "town": "", "default_preset": "club"}


@dataclass
class World:
    home: Club  # the event's club
    other: Club  # Regina Kaiser: its teams and members must stay its own
    event: Event
    document: dict[str, Any]  # the event's export, edited as in the bug report
    regina: list[Player]  # Regina's members whose emails the file gives
    home_member: Player  # a member of the event's club whose email the file gives
    team_other: int  # the file's team naming Regina
    team_unknown: int  # the file's team naming a club that is not here
    entry_unknown: int  # that team's entry


def build_world() -> World:
    home = new_club(name="Saskatoon Kaiser", slug="saskatoon")
    other = new_club(name="Regina Kaiser", slug="regina")
    # Regina's members, with a rating from a game played at home.
    at_regina = make_event(teams=2, format="round_robin", club=other)
    regina: list[Player] = []
    for entry in at_regina.entries.select_related("team__player_one", "team__player_two"):
        assert entry.team is not None
        for person in (entry.team.player_one, entry.team.player_two):
            n = len(regina) + 1
            person.name, person.email = f"{PRIVATE} {n}", f"r{n}@regina.example"
            person.save()
            Membership.objects.create(club=other, player=person)
            regina.append(person)
    generate(at_regina)
    win_game(Pairing.objects.get(event=at_regina).game_id, Side.NS)

    event = make_event(teams=4, format="round_robin", club=home)
    generate(event)
    for row in Pairing.objects.filter(event=event, game__isnull=False).order_by("id")[:2]:
        win_game(row.game_id, Side.NS)
    home_member = Player.objects.create(name="Home Member", email=HOME_EMAIL)
    Membership.objects.create(club=home, player=home_member)

    document = event_export(event=event)
    players = {p["ref"]: p for p in document["players"]}
    teams = {t["ref"]: t for t in document["teams"]}
    finished = next(g for g in document["games"] if g["hands"])
    # The bug report's file: one team of the finished game names Regina and its players carry
    # Regina's members' emails; the other names a club that is not on this server.
    team_other, team_unknown = finished["ns_team"], finished["ew_team"]
    teams[team_other]["club"] = "regina"
    for which, email in (("player_one", "r1@regina.example"), ("player_two", "r2@regina.example")):
        players[teams[team_other][which]]["email"] = email
    teams[team_unknown]["club"] = "moose-jaw"
    document["clubs"] += [
        {"slug": "regina", "name": "Regina Kaiser", "town": "", "default_preset": "club"},
        dict(UNKNOWN),
    ]
    for entry in document["entries"]:
        if entry["team"] == team_other:
            entry["club"] = "regina"
        if entry["team"] == team_unknown:
            entry["club"] = "moose-jaw"
            entry_unknown = entry["ref"]
    # And a player of a third team is known to the event's club by email.
    third = next(t for t in document["teams"] if t["ref"] not in (team_other, team_unknown))
    players[third["player_one"]]["email"] = HOME_EMAIL
    return World(
        home, other, event, document, regina, home_member, team_other, team_unknown, entry_unknown
    )


@pytest.fixture
def world() -> World:
    return build_world()


def team_label(w: World, ref: int) -> str:
    name = next(t["name"] for t in w.document["teams"] if t["ref"] == ref)
    return f"Team {ref} ({name})"


def entry_label(w: World, ref: int) -> str:
    name = next(e["name"] for e in w.document["entries"] if e["ref"] == ref)
    return f"Entry {ref} ({name})"


NOT_YOUR_CLUB = (
    "it is not one of your clubs: nothing of the file is put in it (only staff may add a club "
    "to this server)."
)


def organiser_notes(w: World, *, in_regina: bool = False) -> list[str]:
    """What an organiser of the event's club only is told, in the order of the file. A club
    the organiser is not in (Regina, unless ``in_regina``) is said as the club that is not on
    this server (Moose Jaw) is: the notes tell nothing of which clubs the server holds."""
    entry_other = next(e["ref"] for e in w.document["entries"] if e["team"] == w.team_other)
    regina_entry = (
        []
        if in_regina
        else [
            (
                entry_other,
                f"{entry_label(w, entry_other)}: club 'Regina Kaiser' is not one of your "
                "clubs; the entry's home club becomes Saskatoon Kaiser.",
            )
        ]
    )
    entries = sorted(
        [
            *regina_entry,
            (
                w.entry_unknown,
                f"{entry_label(w, w.entry_unknown)}: club 'Moose Jaw Kaiser' is not one of your "
                "clubs; the entry's home club becomes Saskatoon Kaiser.",
            ),
        ]
    )
    return [
        *([] if in_regina else [f"Club regina (Regina Kaiser): {NOT_YOUR_CLUB}"]),
        f"Club moose-jaw (Moose Jaw Kaiser): {NOT_YOUR_CLUB}",
        f"{team_label(w, w.team_other)}: club 'Regina Kaiser' is not one you organise; the team "
        "becomes a team of Saskatoon Kaiser.",
        f"{team_label(w, w.team_unknown)}: club 'Moose Jaw Kaiser' is not one you organise; the "
        "team becomes a team of Saskatoon Kaiser.",
        *[note for _ref, note in entries],
    ]


STAFF_NOTES = ["Club moose-jaw (Moose Jaw Kaiser): it is not on this server; it is created."]


def counts() -> dict[str, int]:
    """Every table an import writes to (or must not)."""
    models: list[Any] = [Club, Player, Membership, Team, Game, Event, Entry, Round, Table]
    models += [Pairing, Season, Substitution]
    found = {model.__name__: model.objects.count() for model in models}
    found["Hand"] = Hand.with_pending.count()
    return found


def regina_rows(w: World) -> list[tuple[Any, ...]]:
    return list(
        Player.objects.filter(id__in=[p.id for p in w.regina])
        .order_by("id")
        .values_list("id", "name", "email", "user_id", "is_public")
    )


def regina_links(w: World) -> dict[str, int]:
    """Rows pointing at Regina's members or at Regina: what an import must leave alone."""
    ids = [p.id for p in w.regina]
    seats = [
        Game.objects.filter(**{f"{seat}__in": ids}).count()
        for seat in ("north", "east", "south", "west")
    ]
    return {
        "teams of Regina": Team.objects.filter(club=w.other).count(),
        "teams of its members": Team.objects.filter(player_one__in=ids).count()
        + Team.objects.filter(player_two__in=ids).count(),
        "seats": sum(seats),
        "entries": Entry.objects.filter(player__in=ids).count(),
        "memberships": Membership.objects.filter(player__in=ids).count()
        + Membership.objects.filter(club=w.other).count(),
    }


def regina_ratings(w: World) -> list[float]:
    ratings = current_ratings()
    return [ratings.of(p.id) for p in w.regina]


# --- The doors ---------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int | None  # HTTP status; for the command, 201 when imported and None when refused
    sentence: str  # the refusal's sentence ("" when imported)
    notes: list[str]
    event: Event | None
    text: str  # everything the door answered, to look for names it must not show


def as_file(document: dict[str, Any]) -> SimpleUploadedFile:
    return SimpleUploadedFile("event.json", json.dumps(document).encode(), "application/json")


def api(user: Any, document: dict[str, Any], *, multipart: bool, dry_run: bool = False) -> Answer:
    client = APIClient()
    client.force_authenticate(user)
    url = "/api/events/import/" + ("?dry_run=true" if dry_run else "")
    if multipart:
        answer = client.post(url, {"file": as_file(document)}, format="multipart")
    else:
        answer = client.post(url, document, format="json")
    body = answer.json()
    event = Event.objects.get(id=body["id"]) if answer.status_code == 201 else None
    text = answer.content.decode()
    return Answer(answer.status_code, body.get("detail", ""), body.get("notes", []), event, text)


def _page_items(html: str, css: str) -> list[str]:
    return [unescape(item) for item in re.findall(rf'<li class="{css}">(.*?)</li>', html)]


def page(user: Any, document: dict[str, Any]) -> Answer:
    from django.test import Client

    client = Client()
    client.force_login(user)
    before = set(Event.objects.values_list("id", flat=True))
    answer = client.post("/events/import/", {"file": as_file(document)}, follow=True)
    html = answer.content.decode()
    if answer.redirect_chain:
        assert answer.redirect_chain[0][1] == 302
        event = Event.objects.exclude(id__in=before).get()
        assert answer.redirect_chain[0][0] == f"/events/{event.id}/"
        return Answer(201, "", _page_items(html, "info"), event, html)
    errors = _page_items(html, "error")
    assert len(errors) == 1 and errors[0].startswith("Nothing was imported. "), errors
    sentence = errors[0].removeprefix("Nothing was imported. ")
    return Answer(answer.status_code, sentence, [], None, html)


def command(user: Any, document: dict[str, Any], tmp_path: Any) -> Answer:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(document))
    before = set(Event.objects.values_list("id", flat=True))
    out = io.StringIO()
    try:
        call_command("import_event", str(path), "--user", user.username, stdout=out)
    except CommandError as exc:
        said = str(exc)
        assert said.startswith("Nothing was imported. ")
        return Answer(None, said.removeprefix("Nothing was imported. "), [], None, said)
    lines = out.getvalue().splitlines()
    event = Event.objects.exclude(id__in=before).get()
    assert lines[0] == f"Imported as event {event.id}: {event.name}."
    return Answer(201, "", lines[1:], event, out.getvalue())


DOORS = ["api-json", "api-file", "page", "command"]


def refused(door: str) -> int | None:
    """The status a door refuses with when the role does not allow the import."""
    return None if door == "command" else 403


def through(door: str, user: Any, document: dict[str, Any], tmp_path: Any) -> Answer:
    if door == "api-json":
        return api(user, document, multipart=False)
    if door == "api-file":
        return api(user, document, multipart=True)
    if door == "page":
        return page(user, document)
    return command(user, document, tmp_path)


def exported_names(event: Event) -> set[str]:
    return {p["name"] for p in event_export(event=event)["players"]}


def file_names(w: World) -> set[str]:
    """The players' names as the file gives them, the event's club's member by their record."""
    names = {p["name"] for p in w.document["players"] if p["email"] != HOME_EMAIL}
    return names | {w.home_member.name}


# --- An organiser of the event's club ----------------------------------------------------------


@pytest.mark.parametrize("door", DOORS)
def test_an_organiser_keeps_the_import_in_the_clubs_they_organise(
    world: World, door: str, tmp_path: Any
) -> None:
    w = world
    organiser = member(w.home, Role.ORGANISER)
    rows, links, ratings = regina_rows(w), regina_links(w), regina_ratings(w)
    clubs = set(Club.objects.values_list("slug", flat=True))
    players = Player.objects.count()

    answer = through(door, organiser, w.document, tmp_path)

    assert answer.status == 201, answer.text
    assert answer.notes == organiser_notes(w)
    event = answer.event
    assert event is not None and event.club == w.home
    # No club is made; every team of the event is the event's club's.
    assert set(Club.objects.values_list("slug", flat=True)) == clubs
    teams = Team.objects.filter(entries__event=event)
    assert teams.count() == 4 and {t.club_id for t in teams} == {w.home.id}
    # The entries naming Regina (a club the organiser is not in) and the missing club are of
    # the event's club (registration too takes only the registering user's clubs).
    home_clubs = dict(Entry.objects.filter(event=event).values_list("name", "club__slug"))
    assert sorted(home_clubs.values()) == ["saskatoon"] * 4
    # Regina's members are neither changed nor linked: the file's players who carry their
    # emails are the event's club's own records of those names (the file was exported from
    # them; a record without an email may be given one), and no record is made.
    assert regina_rows(w) == rows and regina_links(w) == links
    assert not Player.objects.filter(email__in=["r1@regina.example", "r2@regina.example"]).exclude(
        id__in=[p.id for p in w.regina]
    )
    assert Player.objects.count() == players
    # The event's club's own member is matched by email.
    assert Entry.objects.filter(event=event, team__player_one=w.home_member).exists()
    # Regina's ratings do not move; no answer, nor the export, shows its members' names.
    assert regina_ratings(w) == ratings
    assert PRIVATE not in answer.text
    assert exported_names(event) == file_names(w)
    assert PRIVATE not in json.dumps(event_export(event=event))


@pytest.mark.parametrize("door", DOORS)
def test_an_organiser_of_both_clubs_keeps_the_other_clubs_team_and_members(
    world: World, door: str, tmp_path: Any
) -> None:
    w = world
    organiser = member(w.home, Role.ORGANISER)
    Membership.objects.create(club=w.other, player=organiser.player, role=Role.ORGANISER)

    answer = through(door, organiser, w.document, tmp_path)

    assert answer.status == 201, answer.text
    assert answer.notes == [
        note for note in organiser_notes(w, in_regina=True) if "Regina" not in note
    ]
    event = answer.event
    assert event is not None
    regina_team = Team.objects.get(entries__event=event, club=w.other)
    assert regina_team.player_ids == {w.regina[0].id, w.regina[1].id}
    assert not Club.objects.filter(slug="moose-jaw").exists()


def test_a_player_record_of_another_club_is_not_matched_by_a_member_of_it(
    world: World, api_client: APIClient
) -> None:
    """Being a member (not an organiser) of Regina does not let its members be matched."""
    w = world
    organiser = member(w.home, Role.ORGANISER)
    Membership.objects.create(club=w.other, player=organiser.player, role=Role.SCOREKEEPER)
    links = regina_links(w)
    api_client.force_authenticate(organiser)
    answer = api_client.post("/api/events/import/", w.document, format="json")
    assert answer.status_code == 201, answer.json()
    assert answer.json()["notes"] == organiser_notes(w, in_regina=True)
    assert regina_links(w) == links


# --- Staff -------------------------------------------------------------------------------------


@pytest.mark.parametrize("door", DOORS)
def test_staff_import_everything_the_file_says(world: World, door: str, tmp_path: Any) -> None:
    w = world
    staff = UserFactory(is_staff=True)
    ratings = regina_ratings(w)

    answer = through(door, staff, w.document, tmp_path)

    assert answer.status == 201, answer.text
    assert answer.notes == STAFF_NOTES
    event = answer.event
    assert event is not None
    moose_jaw = Club.objects.get(slug="moose-jaw")
    assert moose_jaw.name == "Moose Jaw Kaiser"
    by_club = {t.club_id: t for t in Team.objects.filter(entries__event=event)}
    assert set(by_club) == {w.home.id, w.other.id, moose_jaw.id}
    assert by_club[w.other.id].player_ids == {w.regina[0].id, w.regina[1].id}
    # Staff may link Regina's members: the imported game now counts in their ratings.
    assert regina_ratings(w)[:2] != ratings[:2]


def test_the_command_without_a_user_imports_as_the_operator(world: World, tmp_path: Any) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(world.document))
    out = io.StringIO()
    call_command("import_event", str(path), stdout=out)
    assert out.getvalue().splitlines()[1:] == STAFF_NOTES
    assert Club.objects.filter(slug="moose-jaw").exists()


# --- Refusals ----------------------------------------------------------------------------------

NOT_YOURS = (
    "The event's club, Saskatoon Kaiser (saskatoon), is not a club you organise: only its "
    "organisers may import its events, and only staff an event of a club that is not on this "
    "server (the club is then created with the event)."
)


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("who", ["organiser of another club", "player of the club"])
def test_only_organisers_of_the_events_club_may_import(
    world: World, door: str, who: str, tmp_path: Any
) -> None:
    w = world
    if who == "player of the club":
        user = member(w.home, Role.PLAYER)
    else:
        user = member(w.other, Role.CLUB_ADMIN)
    before = counts()
    answer = through(door, user, w.document, tmp_path)
    assert (answer.status, answer.sentence) == (refused(door), NOT_YOURS)
    assert counts() == before
    assert PRIVATE not in answer.text


def unknown_event_club(document: dict[str, Any]) -> dict[str, Any]:
    """The file of an event of the club that is not on this server."""
    document = copy.deepcopy(document)
    document["event"]["club"] = "moose-jaw"
    return document


# Said as for a club of this server the importer does not organise (NOT_YOURS): the answer
# tells nothing of which clubs the server holds.
NOT_HERE_EVENT = (
    "The event's club, Moose Jaw Kaiser (moose-jaw), is not a club you organise: only its "
    "organisers may import its events, and only staff an event of a club that is not on this "
    "server (the club is then created with the event)."
)


@pytest.mark.parametrize("door", DOORS)
def test_an_event_of_a_club_not_here_needs_staff(world: World, door: str, tmp_path: Any) -> None:
    document = unknown_event_club(world.document)
    admin = member(world.home, Role.CLUB_ADMIN)
    before = counts()
    answer = through(door, admin, document, tmp_path)
    assert (answer.status, answer.sentence) == (refused(door), NOT_HERE_EVENT)
    assert counts() == before

    answer = through(door, UserFactory(is_staff=True), document, tmp_path)
    assert answer.status == 201, answer.text
    assert answer.event is not None and answer.event.club.slug == "moose-jaw"


# --- The preview -------------------------------------------------------------------------------


@pytest.mark.parametrize("multipart", [False, True])
def test_the_api_dry_run_lists_the_affected_rows_and_writes_nothing(
    world: World, multipart: bool
) -> None:
    w = world
    organiser = member(w.home, Role.ORGANISER)
    before = counts()
    preview = api(organiser, w.document, multipart=multipart, dry_run=True)
    assert preview.status == 200, preview.text
    assert preview.notes == organiser_notes(w)
    body = json.loads(preview.text)
    assert body["dry_run"] is True and body["club"] == "Saskatoon Kaiser"
    games = len(w.document["games"])
    hands = sum(len(g["hands"]) for g in w.document["games"])
    rounds = len(w.document["rounds"])
    assert body["counts"] == {"entries": 4, "rounds": rounds, "games": games, "hands": hands}
    assert counts() == before
    assert PRIVATE not in preview.text
    # The import then does what the preview said.
    done = api(organiser, w.document, multipart=multipart)
    assert done.status == 201 and done.notes == preview.notes
    # A dry run is refused as the import would be.
    refused = api(member(w.other, Role.ORGANISER), w.document, multipart=multipart, dry_run=True)
    assert (refused.status, refused.sentence) == (403, NOT_YOURS)


def test_the_page_previews_then_imports_the_carried_document(world: World, client: Any) -> None:
    w = world
    client.force_login(member(w.home, Role.ORGANISER))
    before, events = counts(), list(Event.objects.values_list("id", flat=True))
    answer = client.post("/events/import/", {"file": as_file(w.document), "preview": "1"})
    html = answer.content.decode()
    assert answer.status_code == 200
    assert _page_items(html, "error") == [] and counts() == before
    listed = re.search(r'<ul class="import-notes">(.*?)</ul>', html, re.DOTALL)
    assert listed is not None
    notes = [unescape(note) for note in re.findall(r"<li>(.*?)</li>", listed.group(1))]
    assert notes == organiser_notes(w)
    assert "Nothing is imported yet." in html and PRIVATE not in html
    carried = re.search(r'name="document" value="([^"]*)"', html)
    assert carried is not None
    done = client.post("/events/import/", {"document": unescape(carried.group(1))}, follow=True)
    event = Event.objects.exclude(id__in=events).get()
    assert done.redirect_chain == [(f"/events/{event.id}/", 302)]
    assert _page_items(done.content.decode(), "info") == organiser_notes(w)
    assert {t.club_id for t in Team.objects.filter(entries__event=event)} == {w.home.id}


def test_the_page_preview_of_a_refused_file_gives_the_refusal(world: World, client: Any) -> None:
    client.force_login(member(world.other, Role.ORGANISER))
    before = counts()
    answer = client.post("/events/import/", {"file": as_file(world.document), "preview": "1"})
    assert answer.status_code == 403
    assert _page_items(answer.content.decode(), "error") == [f"Nothing was imported. {NOT_YOURS}"]
    assert counts() == before


def test_a_document_too_big_for_a_form_is_chosen_again(
    world: World, client: Any, settings: Any
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 12 * 1024
    client.force_login(member(world.home, Role.ORGANISER))
    answer = client.post("/events/import/", {"file": as_file(world.document), "preview": "1"})
    html = answer.content.decode()
    assert answer.status_code == 200 and 'name="document"' not in html
    assert "choose it again below and press Import" in html


def test_the_command_dry_run_writes_nothing(world: World, tmp_path: Any) -> None:
    organiser = member(world.home, Role.ORGANISER)
    path = tmp_path / "event.json"
    path.write_text(json.dumps(world.document))
    before = counts()
    out = io.StringIO()
    call_command("import_event", str(path), "--user", organiser.username, "--dry-run", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"Would import {world.event.name} (Saskatoon Kaiser): entries 4,")
    assert lines[0].endswith(". Nothing was imported.")
    notes = organiser_notes(world)
    assert lines[1 : 1 + len(notes)] == notes
    # Then who is who: every player of the file, found here by email or by name.
    people = lines[1 + len(notes) :]
    assert len(people) == len(world.document["players"])
    assert all(", found by " in line for line in people), people
    assert counts() == before
    with pytest.raises(CommandError, match="There is no user nobody"):
        call_command("import_event", str(path), "--user", "nobody")
