"""The cases of the bad-input issue that no other plain test pinned through the door the issue
named: each with its status and its sentence (the others are in this folder,
tests/reliability/test_found_by_fuzzing.py and tests/tournaments/transfer/)."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from kaiser_club.models import Player
from kaiser_club.roles import Role
from scoring.models import Game, GameChange, Hand, Team
from tests.factories import member
from tests.limits.test_parse_limits import NESTED, TOO_DEEP
from tests.scoring.hands import EW, NS, N, make_club, played, record
from tests.table.helpers import make_table, opened
from tests.tournaments.helpers import make_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def api_organiser(club: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(member(club, Role.ORGANISER))
    return client


def test_a_nested_file_given_to_the_import_is_refused_before_the_role_check() -> None:
    club = make_club()
    client = APIClient()
    client.force_authenticate(member(club, Role.PLAYER))  # may not import: would be a 403
    upload = SimpleUploadedFile("event.json", NESTED.encode(), "application/json")
    answer = client.post("/api/events/import/", {"file": upload}, format="multipart")
    assert answer.status_code == 400
    assert answer.json()["detail"] == f"The file: {TOO_DEEP}"
    assert Event.objects.count() == 0


@pytest.mark.parametrize(
    ("tiebreaks", "field_error"),
    [
        ([[]], '"[]" is not a valid choice.'),
        ([None], "This field may not be null."),
        (["wins", "nonsense"], '"nonsense" is not a valid choice.'),
    ],
)
def test_a_tiebreak_order_that_is_no_list_of_metrics_is_refused_by_the_api(
    tiebreaks: list[Any], field_error: str
) -> None:
    event = make_event(teams=4)
    client = api_organiser(event.club)
    answer = client.patch(f"/api/events/{event.id}/", {"tiebreaks": tiebreaks}, format="json")
    assert answer.status_code == 400
    errors = answer.json()["tiebreaks"]
    assert field_error in json.dumps(errors, ensure_ascii=False).replace('\\"', '"')
    event.refresh_from_db()
    assert all(isinstance(name, str) for name in event.tiebreaks)
    assert client.get(f"/api/events/{event.id}/standings/").status_code == 200


def test_a_repeated_tiebreak_is_refused_by_the_api() -> None:
    event = make_event(teams=4)
    client = api_organiser(event.club)
    before = list(event.tiebreaks)
    answer = client.patch(
        f"/api/events/{event.id}/", {"tiebreaks": ["wins", "wins"]}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        "The tie-break order takes each of these at most once: wins, win_pct, "
        "point_difference, points_for, head_to_head, buchholz, seed."
    )
    event.refresh_from_db()
    assert event.tiebreaks == before


def test_the_settings_page_refuses_an_unknown_tiebreak_and_still_opens() -> None:
    event = make_event(teams=4)
    client = Client()
    client.force_login(member(event.club, Role.ORGANISER))
    answer = client.post(
        f"/events/{event.id}/settings/",
        {
            "settings": "1",
            "name": event.name,
            "date": "2026-11-28",
            "format": event.format,
            "tiebreaks": "null",
        },
    )
    assert answer.status_code == 200  # the form again, with its error
    assert "null: not a tie-break this app knows." in answer.content.decode()
    before = list(event.tiebreaks)
    event.refresh_from_db()
    assert event.tiebreaks == before
    assert client.get(f"/events/{event.id}/settings/").status_code == 200


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("Ann\u202e nosirraH", "Ann nosirraH"), ("Bo\u0007b", "Bo b"), ("\u2066Cy\u2069", "Cy")],
)
def test_names_sent_to_the_api_lose_control_and_bidi_characters(typed: str, stored: str) -> None:
    event = make_event(teams=0)
    client = api_organiser(event.club)
    one, two = Player.objects.create(name="A"), Player.objects.create(name="B")
    answer = client.post(
        f"/api/events/{event.id}/entries/",
        {"player_one": one.id, "player_two": two.id, "name": typed},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert answer.json()["name"] == stored
    team = client.post(
        "/api/teams/",
        {"name": typed, "club": event.club.id, "player_one_id": one.id, "player_two_id": two.id},
        format="json",
    )
    assert team.status_code == 201, team.json()
    assert Team.objects.get(id=team.json()["id"]).name == stored
    joined = client.post(
        f"/api/clubs/{event.club.id}/members/", {"name": typed, "new": True}, format="json"
    )
    assert joined.status_code in (201, 403), joined.json()  # an organiser may not add members
    assert not Player.objects.filter(name=typed).exists()


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Fall \u202enepO", "Fall nepO"),
        ("Legion\u0007 Hall", "Legion Hall"),
        ("\u2067Open", "Open"),
    ],
)
def test_an_events_name_and_venue_lose_control_and_bidi_characters(typed: str, stored: str):
    """Shown on every public page of the event: a U+202E in them turned the page's line around."""
    event = make_event(teams=0)
    client = api_organiser(event.club)
    changed = client.patch(
        f"/api/events/{event.id}/", {"name": typed, "venue": typed}, format="json"
    )
    assert changed.status_code == 200, changed.json()
    event.refresh_from_db()
    assert (event.name, event.venue) == (stored, stored)
    made = client.post(
        "/api/events/",
        {
            "club": event.club.id,
            "name": typed,
            "venue": typed,
            "date": "2026-11-28",
            "format": "round_robin",
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert (made.json()["name"], made.json()["venue"]) == (stored, stored)


def test_an_event_renamed_to_nothing_but_control_characters_is_refused() -> None:
    event = make_event(teams=0)
    answer = api_organiser(event.club).patch(
        f"/api/events/{event.id}/", {"name": "\u202e\u0007"}, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == "An event needs a name."
    name = event.name
    event.refresh_from_db()
    assert event.name == name


def test_minutes_taken_away_on_the_organisers_page_stop_at_the_last_hand() -> None:
    """The issue's case: "Add minutes" with -59 on a game with hands. The clock stops at the
    last hand recorded (time is called there, not before it): the table previews and
    records the hand in play, which is the game's last unless it is tied."""
    setup = make_table()
    game = setup.game
    Game.objects.filter(id=game.id).update(started_at=timezone.now() - timedelta(minutes=30))
    record(game, played(N, 7, 5, NS, EW))
    organiser = Client()
    organiser.force_login(member(setup.event.club, Role.ORGANISER))
    answer = organiser.post(
        f"/events/{setup.event.id}/games/{setup.pairing.id}/add/", {"minutes": "-59"}
    )
    assert answer.status_code == 302
    assert [str(m) for m in get_messages(answer.wsgi_request)] == ["Clock updated."]
    game.refresh_from_db()
    assert game.added_minutes == -59
    last = Hand.objects.get(game=game, number=1)
    device = opened(setup)
    entry = {
        "bidder": 1,
        "bid": 7,
        "trump": "clubs",
        "bidding_team_tricks": 5,
        "five_hearts": "ew",
        "three_spades": "ns",
    }
    body: dict[str, Any] = {"game_id": game.id, "number": 2, "entry": entry}
    url = f"/table/{setup.table.id}"
    preview = device.post(f"{url}/preview", json.dumps(body), content_type="application/json")
    assert preview.status_code == 200, preview.content
    body["client_id"] = str(uuid.uuid4())
    recorded = device.post(f"{url}/hands", json.dumps(body), content_type="application/json")
    assert recorded.status_code == 200, recorded.content
    game.refresh_from_db()
    assert game.time_called_at is not None and last.completed_at is not None
    assert game.time_called_at >= last.completed_at  # never before a hand already recorded
    assert GameChange.objects.filter(game=game, action="call_time").count() == 1
    assert game.hand_count == 2


ODD_REASON = "Late\u202e \u0007arrival"


def test_an_organisers_reasons_lose_control_and_bidi_characters() -> None:
    """An adjustment's, a withdrawal's (its games' forfeits) and a substitution's reasons were
    stored as typed (a hand's discard and correction reasons were already cleaned)."""
    from tests.tournaments.test_two_doors import make_world, seated
    from tournaments.models import Pairing, Substitution

    world = make_world()
    client = APIClient()
    client.force_authenticate(world.organiser)
    games = f"/api/events/{world.event.id}/pairings/"
    adjusted = client.post(
        f"{games}{world.first.id}/adjust/",
        {"winner": "home", "home_points": 52, "away_points": 10, "reason": ODD_REASON},
        format="json",
    )
    assert adjusted.status_code == 200, adjusted.json()
    substituted = client.post(
        f"{games}{world.second.id}/substitute/",
        {
            "replaced": seated(world.second).north_id,
            "substitute_name": "Walk-in Wanda",
            "reason": ODD_REASON,
        },
        format="json",
    )
    assert substituted.status_code == 200, substituted.json()
    entry = world.second.away
    assert entry is not None
    withdrawn = client.post(
        f"/api/events/{world.event.id}/entries/{entry.id}/withdraw/",
        {"reason": ODD_REASON},
        format="json",
    )
    assert withdrawn.status_code == 200, withdrawn.json()
    assert Pairing.objects.get(id=world.first.id).reason == "Late arrival"
    forfeited = [row["id"] for row in withdrawn.json()]
    assert forfeited
    forfeited_games = Pairing.objects.filter(id__in=forfeited).values_list("game_id", flat=True)
    forfeits = GameChange.objects.filter(game_id__in=forfeited_games, action="forfeit")
    assert {change.reason for change in forfeits} == {"Late arrival"}
    assert Substitution.objects.get().reason == "Late arrival"


@pytest.mark.parametrize("path", ["/api/games/", "/api/teams/", "/api/events/"])
def test_a_huge_page_limit_alone_is_capped_to_a_page(path: str) -> None:
    """The issue's exact request (no offset): a page of at most 500 rows, not an overflow."""
    from kaiser_club.api.pagination import MAX_LIMIT
    from tests.factories import start_game

    game = start_game(club=make_club())
    make_event(teams=0, club=game.club)
    answer = api_organiser(game.club).get(f"{path}?limit=99999999999999999999")
    assert answer.status_code == 200
    body = answer.json()
    assert 1 <= len(body["results"]) <= MAX_LIMIT
    assert body["next"] is None
