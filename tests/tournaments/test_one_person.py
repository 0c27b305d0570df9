"""One person, one record, as an organiser meets it: an event moved between servers, a visitor
typed in at a late entry, an import and "Add member", two records one name could be (entries,
substitutes, an import), a merge and the public season page, a partnership's name. Each case of
the issue is a plain test here."""

from __future__ import annotations

import datetime as dt
import json
import re
from html import unescape
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from kaiser_club.actors import Actor
from kaiser_club.members import services as members_services
from kaiser_club.members.merge import player_merge
from kaiser_club.models import Membership, Player
from kaiser_club.people import ChooseRecord
from kaiser_club.roles import Role
from scoring.models import Team
from scoring.rules import Side
from tests.factories import member
from tournaments import services
from tournaments.models import Entry, Event, Pairing, Round
from tournaments.transfer import event_export

from .helpers import game_of, generate, win_game
from .people_world import club_night, club_with_admin, members, records_named, totals

pytestmark = pytest.mark.django_db


def api_as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


# --- An event moved between servers ------------------------------------------------------------


def test_a_pools_event_imported_on_the_same_server_keeps_its_players() -> None:
    """The bug report: 16 players, two with an email; the import made 14 new records."""
    club, admin = club_with_admin()
    organiser = member(club, Role.ORGANISER, username="otto")
    people = members(club, [f"Member {n:02d}" for n in range(16)])
    for person in people[:2]:
        person.email = f"{person.name.replace(' ', '').lower()}@example.org"
        person.save()
    event = services.event_create(
        club=club,
        name="Pools",
        date=dt.date(2026, 11, 1),
        format="pools",
        pool_count=2,
        pool_advance=2,
    )
    for n in range(8):
        services.entry_register_team_unchecked(
            event=event, player_one=people[2 * n], player_two=people[2 * n + 1], name=f"T{n}"
        )
    generate(event)
    for row in Pairing.objects.filter(event=event, game__isnull=False).order_by("id")[:3]:
        win_game(row.game_id, Side.NS)
    before = {p.id: totals(p) for p in people}
    counts = (Player.objects.count(), Team.objects.count())

    answer = api_as(organiser).post("/api/events/import/", event_export(event=event), format="json")

    assert answer.status_code == 201, answer.json()
    assert (Player.objects.count(), Team.objects.count()) == counts
    found = {p["name"]: (p["how"], p["record"]) for p in answer.json()["people"]}
    assert found == {p.name: ("email" if p.email else "name", p.id) for p in people}
    # The imported games count for the real players: each played game now counts twice.
    for person in people:
        games, wins, _rating = totals(person)
        assert (games, wins) == (2 * before[person.id][0], 2 * before[person.id][1])
    # And the players stay the club's: members, on its pages.
    assert Membership.objects.filter(club=club, player__in=people).count() == 16
    client = Client()
    client.force_login(admin)
    assert client.get(reverse("players:detail", args=[people[5].id])).status_code == 200


def test_a_visitor_typed_at_a_late_entry_an_import_and_add_member_is_one_record() -> None:
    """One name had three records after a late entry, an import and 'Add member'."""
    club, admin = club_with_admin()
    regulars = members(club, ["Ann Amyot", "Bob Bear", "Cy Cote", "Dot Dion"])
    event = services.event_create(
        club=club,
        name="Swiss",
        date=dt.date(2026, 11, 2),
        format="swiss",
        rounds=3,
        check_in_required=False,
    )
    services.entry_register_team_unchecked(
        event=event, player_one=regulars[0], player_two=regulars[1]
    )
    services.entry_register_team_unchecked(
        event=event, player_one=regulars[2], player_two=regulars[3]
    )
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    late = services.entry_register_team_by_names(
        actor=Actor.of(admin),
        event=event,
        player_one="Stan Melnyk",
        player_two="Lise Roy",
        name="Latecomers",
    )
    assert late.late
    stan = records_named("Stan Melnyk")[0]
    assert stan.host_club_id == club.id  # a visitor of the club

    organiser = member(club, Role.ORGANISER, username="otto")
    answer = api_as(organiser).post("/api/events/import/", event_export(event=event), format="json")
    assert answer.status_code == 201, answer.json()
    with pytest.raises(ChooseRecord) as asked:
        members_services.member_add(club=club, name="Stan Melnyk", actor=Actor.of(admin))
    assert [c["id"] for c in asked.value.extra["choices"]["name"]] == [stan.id]
    members_services.member_add(
        club=club, name="Stan Melnyk", actor=Actor.of(admin), choice=stan.id
    )

    assert records_named("Stan Melnyk") == [stan]
    assert Membership.objects.filter(club=club, player=stan).exists()


# --- Two records one name could be -------------------------------------------------------------


def two_stans(club: Any) -> tuple[Player, Player]:
    """A member and a visitor of the club, both Stan Melnyk."""
    (member_stan,) = members(club, ["Stan Melnyk"])
    return member_stan, Player.objects.create(name="Stan Melnyk", host_club=club)


def test_the_entries_page_asks_which_record_and_enters_the_one_chosen() -> None:
    club, _admin = club_with_admin()
    member_stan, visitor_stan = two_stans(club)
    members(club, ["Lise Roy"])
    event = services.event_create(
        club=club,
        name="Night",
        date=dt.date(2026, 11, 3),
        format="swiss",
        rounds=3,
        check_in_required=False,
    )
    client = Client()
    client.force_login(member(club, Role.ORGANISER, username="otto"))
    url = reverse("tournaments:entry-add", args=[event.id])
    form = {"player_one": "stan melnyk", "player_two": "lise roy", "name": ""}
    asked = client.post(url, form)
    assert asked.status_code == 409
    html = asked.content.decode()
    for stan in (member_stan, visitor_stan):
        assert f'name="player_one_record" value="{stan.id}"' in html
    assert 'name="player_one_record" value="new"' in html and "player_two_record" not in html
    assert f"#{visitor_stan.id}, visitor of Saskatoon Kaiser, no games" in html
    assert not Entry.objects.filter(event=event).exists()

    done = client.post(url, {**form, "player_one_record": visitor_stan.id}, follow=True)
    entry = Entry.objects.get(event=event)
    assert entry.team is not None and entry.team.player_one_id == visitor_stan.id
    # Announced by the names as stored, not as typed.
    assert "Stan Melnyk &amp; Lise Roy is entered." in done.content.decode()
    assert len(records_named("Stan Melnyk")) == 2


def test_a_typed_player_is_announced_by_the_matched_name() -> None:
    club, _admin = club_with_admin()
    members(club, ["Stan Melnyk"])
    event = services.event_create(
        club=club,
        name="Progressive",
        date=dt.date(2026, 11, 4),
        format="progressive",
        rounds=3,
    )
    client = Client()
    client.force_login(member(club, Role.ORGANISER, username="otto"))
    answer = client.post(
        reverse("tournaments:entry-add", args=[event.id]), {"player": "stan  melnyk"}, follow=True
    )
    assert "Stan Melnyk is entered." in answer.content.decode()
    assert len(records_named("Stan Melnyk")) == 1


def test_a_substitute_two_records_could_be_is_asked_about() -> None:
    club, _admin = club_with_admin()
    member_stan, visitor_stan = two_stans(club)
    regulars = members(club, ["Ann Amyot", "Bob Bear", "Cy Cote", "Dot Dion"])
    event = services.event_create(
        club=club,
        name="Swiss",
        date=dt.date(2026, 11, 5),
        format="swiss",
        rounds=3,
        check_in_required=False,
    )
    services.entry_register_team_unchecked(
        event=event, player_one=regulars[0], player_two=regulars[1]
    )
    services.entry_register_team_unchecked(
        event=event, player_one=regulars[2], player_two=regulars[3]
    )
    generate(event)
    pairing = Pairing.objects.get(event=event)
    api = api_as(member(club, Role.ORGANISER, username="otto"))
    url = f"/api/events/{event.id}/pairings/{pairing.id}/substitute/"
    body = {"replaced": game_of(pairing).north_id, "substitute_name": "Stan Melnyk"}
    asked = api.post(url, body, format="json")
    assert asked.status_code == 409 and asked.json()["code"] == "choose_player"
    offered = [c["id"] for c in asked.json()["choices"]["substitute"]]
    assert offered == [member_stan.id, visitor_stan.id]
    chosen = api.post(
        url, {"replaced": body["replaced"], "substitute": visitor_stan.id}, format="json"
    )
    assert chosen.status_code == 200, chosen.json()
    assert game_of(pairing).north_id == visitor_stan.id
    # On the game page: the record by its id, or new.
    client = Client()
    client.force_login(member(club, Role.ORGANISER, username="olive"))
    page = reverse("tournaments:pairing-action", args=[event.id, pairing.id, "substitute"])
    answer = client.post(
        page,
        {
            "replaced": game_of(pairing).east_id,
            "substitute_name": "Stan Melnyk",
            "substitute_record": "new",
        },
    )
    assert answer.status_code in (200, 302), answer.content.decode()[:500]
    assert len(records_named("Stan Melnyk")) == 3 and game_of(pairing).east.name == "Stan Melnyk"


def test_an_import_asks_which_record_a_player_two_could_be_is() -> None:
    club, _admin = club_with_admin()
    member_stan, visitor_stan = two_stans(club)
    regulars = members(club, ["Ann Amyot", "Bob Bear", "Cy Cote"])
    event = services.event_create(
        club=club,
        name="Swiss",
        date=dt.date(2026, 11, 6),
        format="swiss",
        rounds=3,
        check_in_required=False,
    )
    services.entry_register_team_unchecked(
        event=event, player_one=member_stan, player_two=regulars[0]
    )
    services.entry_register_team_unchecked(
        event=event, player_one=regulars[1], player_two=regulars[2]
    )
    document = event_export(event=event)
    ref = next(p["ref"] for p in document["players"] if p["name"] == "Stan Melnyk")
    api = api_as(member(club, Role.ORGANISER, username="otto"))
    events = Event.objects.count()

    preview = api.post("/api/events/import/?dry_run=true", document, format="json").json()
    (stan_line,) = [p for p in preview["people"] if p["ref"] == ref]
    assert stan_line["how"] == "choose"
    assert [c["id"] for c in stan_line["choices"]] == [member_stan.id, visitor_stan.id]
    refused = api.post("/api/events/import/", document, format="json")
    assert refused.status_code == 409 and f"player {ref}" in refused.json()["choices"]
    assert Event.objects.count() == events

    done = api.post(f"/api/events/import/?people={ref}:{visitor_stan.id}", document, format="json")
    assert done.status_code == 201, done.json()
    copy_ = Event.objects.get(id=done.json()["id"])
    assert copy_.entries.filter(team__player_one=visitor_stan).exists()
    assert len(records_named("Stan Melnyk")) == 2

    # The page's preview offers the same choice, and imports the one chosen.
    client = Client()
    client.force_login(member(club, Role.ORGANISER, username="olive"))
    upload = json.dumps(document).encode()
    page = client.post(
        "/events/import/",
        {"file": SimpleUploadedFile("e.json", upload, "application/json"), "preview": "1"},
    ).content.decode()
    assert f'name="person-{ref}" value="{member_stan.id}"' in page
    carried = re.search(r'name="document" value="([^"]*)"', page)
    assert carried is not None
    client.post(
        "/events/import/",
        {"document": unescape(carried.group(1)), f"person-{ref}": member_stan.id},
    )
    assert Event.objects.count() == events + 2
    newest = Event.objects.latest("id")
    assert newest.entries.filter(team__player_one=member_stan).exists()


def test_csv_entries_name_the_record_by_id_when_two_could_be() -> None:
    club, admin = club_with_admin()
    member_stan, visitor_stan = two_stans(club)
    members(club, ["Lise Roy"])
    event = services.event_create(
        club=club,
        name="Night",
        date=dt.date(2026, 11, 7),
        format="swiss",
        rounds=3,
        check_in_required=False,
    )
    text = "player_one,player_two\nStan Melnyk,Lise Roy\n"
    (row,) = services.parse(event=event, text=text).rows
    assert row.errors and row.errors[0].startswith("More than one player could be Stan Melnyk: ")
    assert f"#{member_stan.id}" in row.errors[0] and "player_one_id column" in row.errors[0]
    chosen = f"player_one,player_one_id,player_two\nStan Melnyk,{visitor_stan.id},Lise Roy\n"
    (entry,) = services.entries_import(actor=Actor.of(admin), event=event, text=chosen).created
    assert entry.team is not None and entry.team.player_one_id == visitor_stan.id
    assert len(records_named("Stan Melnyk")) == 2


# --- A merge and every page --------------------------------------------------------------------


def test_the_public_season_leaderboard_follows_a_merge() -> None:
    club, admin = club_with_admin()
    members(club, ["Stan Melnyk", "Ann Amyot", "Bob Bear", "Cy Cote"])
    season = services.season_create_unchecked(club=club, name="2026")
    club_night(
        club,
        season,
        [("Stan Melnyk", "Ann Amyot"), ("Bob Bear", "Cy Cote")],
        day=1,
        winners=[Side.NS],
    )
    # The second night, Stan is typed as "S Melnyk": a new visitor record.
    club_night(
        club,
        season,
        [("S Melnyk", "Ann Amyot"), ("Bob Bear", "Cy Cote")],
        day=8,
        winners=[Side.NS],
    )
    stan, copy_ = records_named("Stan Melnyk")[0], records_named("S Melnyk")[0]
    client = Client()
    url = reverse("public:season", args=[season.id])

    def leaderboard() -> dict[str, tuple[int, int]]:
        rows = client.get(url).context["table"].data.data
        return {row.name: (row.games, row.wins) for row in rows}

    assert leaderboard()["S Melnyk"] == (1, 1) and leaderboard()["Stan Melnyk"] == (1, 1)
    etag = client.get(url + "?part=1")["ETag"]

    player_merge(actor=Actor.of(admin), keep_id=stan.id, duplicate_id=copy_.id)

    board = leaderboard()
    assert "S Melnyk" not in board and board["Stan Melnyk"] == (2, 2)
    assert board["Stan Melnyk"] == totals(stan)[:2]
    assert client.get(url + "?part=1", HTTP_IF_NONE_MATCH=etag).status_code == 200
    # The organiser's page and the API said so already; they still agree.
    api = api_as(admin).get(f"/api/seasons/{season.id}/leaderboard/").json()
    assert {r["name"]: (r["games"], r["wins"]) for r in api}["Stan Melnyk"] == (2, 2)


def test_a_reused_partnership_takes_the_name_it_is_entered_under() -> None:
    club, admin = club_with_admin()
    marie, ron = members(club, ["Marie Desjardins", "Ron Bear"])
    team = Team.objects.create(
        club=club, player_one=marie, player_two=ron, name="Desjardins & Bear"
    )
    event = services.event_create(
        club=club,
        name="Night",
        date=dt.date(2026, 11, 9),
        format="swiss",
        rounds=3,
        check_in_required=False,
    )
    entry = services.entry_register_team_by_names(
        actor=Actor.of(admin),
        event=event,
        player_one="marie desjardins",
        player_two="RON BEAR",
        name="Aces High",
    )
    assert entry.team_id == team.id and entry.name == "Aces High"
    answer = api_as(admin).get(f"/api/teams/{team.id}/").json()
    assert answer["name"] == "Aces High"


def test_a_former_member_typed_in_at_an_event_is_the_same_record() -> None:
    """A removed member typed in at an event (an entry, a CSV row) is found, not remade."""
    club, admin = club_with_admin()
    ann, bob = members(club, ["Ann Amyot", "Bob Bear"])
    for person in (ann, bob):
        members_services.member_remove(membership=Membership.objects.get(player=person))
    event = services.event_create(
        club=club, name="Progressive", date=dt.date(2026, 11, 10), format="progressive", rounds=3
    )
    entry = services.entry_register_player_by_name(
        actor=Actor.of(admin), event=event, player="ann amyot"
    )
    (imported,) = services.entries_import(
        actor=Actor.of(admin), event=event, text="player\nBob Bear\n"
    ).created
    assert (entry.player_id, imported.player_id) == (ann.id, bob.id)
    assert Player.objects.count() == 2 + 1  # and the club admin
