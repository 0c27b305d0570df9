"""What schemathesis found, each pinned by a plain test so it stays fixed whatever the fuzzer
draws next time."""

from __future__ import annotations

import base64
import datetime as dt

import pytest
from django.db.models import Q
from rest_framework.test import APIClient

from kaiser_club.roles import Role
from scoring.models import GameChange
from tests.factories import member, start_game
from tests.tournaments.helpers import generate, make_event, player
from tournaments import services
from tournaments.models import Pairing
from tournaments.services.rounds import round_start_unchecked

pytestmark = pytest.mark.django_db


def _basic(username: str, password: str) -> dict[str, str]:
    token = base64.b64encode(f"{username}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


@pytest.mark.parametrize(("username", "password"), [("a\x00b", "pw"), ("someone", "p\x00w")])
def test_a_nul_in_basic_credentials_is_refused_not_a_500(username: str, password: str) -> None:
    client = APIClient(raise_request_exception=False)
    response = client.get("/api/games/", headers=_basic(username, password))
    assert response.status_code == 403
    assert response.json()["detail"] == "Invalid username/password."


def test_an_unknown_api_address_is_a_json_404_and_a_page_elsewhere() -> None:
    client = APIClient()
    api = client.get("/api/games/not-a-number/")
    assert api.status_code == 404
    assert api["Content-Type"] == "application/json"
    assert api.json()["code"] == "not_found"
    page = client.get("/no-such-page/")
    assert page.status_code == 404
    assert page["Content-Type"].startswith("text/html")


def test_an_event_id_that_is_not_a_number_is_404_not_500() -> None:
    event = make_event(teams=4)
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(member(event.club, Role.ORGANISER))
    for response in (
        client.patch("/api/events/4x/", {"name": "x"}, format="json"),
        client.get("/api/seasons/4x/"),
    ):
        assert response.status_code == 404
        assert response.json()["code"] == "not_found"


def test_events_filter_by_format_instead_of_picking_a_renderer() -> None:
    swiss = make_event(teams=4, format="swiss")
    services.event_create(
        club=swiss.club, name="RR", date=dt.date(2026, 12, 1), format="round_robin"
    )
    client = APIClient()
    client.force_authenticate(member(swiss.club, Role.PLAYER))
    response = client.get("/api/events/", {"format": "swiss"})
    assert response.status_code == 200  # was 404: DRF read ?format=swiss as a renderer
    assert [e["id"] for e in response.json()["results"]] == [swiss.id]


def test_a_game_without_a_clock_has_a_null_deadline_as_the_schema_says() -> None:
    game = start_game(preset_name="standard")
    client = APIClient()
    client.force_authenticate(member(game.club, Role.PLAYER))
    row = client.get("/api/games/").json()["results"][0]
    assert row["deadline"] is None
    schema = client.get("/api/schema/", {"format": "json"}).json()
    deadline = schema["components"]["schemas"]["Game"]["properties"]["deadline"]
    assert deadline.get("nullable") is True


# Found by the stateful fuzzer (tests/limits/test_stateful_fuzz.py): an event's name and venue
# changed through the API were stored as typed, bidi override and control characters included,
# while the same name given at creation was cleaned.
@pytest.mark.parametrize(
    ("typed", "stored"),
    [("\u202egnorw Open", "gnorw Open"), ("Spring\x07 Open\n", "Spring Open")],
)
def test_an_event_name_changed_through_the_api_is_stored_cleaned(typed: str, stored: str) -> None:
    event = make_event(teams=0)
    client = APIClient()
    client.force_authenticate(member(event.club, Role.ORGANISER))
    answer = client.patch(
        f"/api/events/{event.id}/", {"name": typed, "venue": f"Hall {typed}"}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    event.refresh_from_db()
    assert (event.name, event.venue) == (stored, f"Hall {stored}")


def test_an_event_name_of_invisible_characters_only_is_refused() -> None:
    event = make_event(teams=0)
    client = APIClient()
    client.force_authenticate(member(event.club, Role.ORGANISER))
    answer = client.patch(f"/api/events/{event.id}/", {"name": "\u202e\u202e\u2066"}, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == "An event needs a name."
    event.refresh_from_db()
    assert event.name == "swiss event"


def test_a_withdrawal_reason_is_stored_cleaned_on_the_forfeited_game() -> None:
    """Found by the stateful fuzzer: the reason reached the game's history as typed, control
    characters included."""
    event = make_event(teams=4)
    generate(event)
    round_start_unchecked(round_=event.round_set.get(number=1))
    client = APIClient()
    client.force_authenticate(member(event.club, Role.ORGANISER))
    entry = event.entries.get(seed=1)
    answer = client.post(
        f"/api/events/{event.id}/entries/{entry.id}/withdraw/",
        {"reason": "Eve\x07\x1b ill\u202e"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    pairing = Pairing.objects.get(Q(home=entry) | Q(away=entry))
    assert pairing.game_id is not None
    change = GameChange.objects.get(game_id=pairing.game_id, action="forfeit")
    assert change.reason == "Eve ill"


def test_an_adjusted_result_needs_a_reason_that_is_not_only_invisible() -> None:
    event = make_event(teams=4)
    generate(event)
    client = APIClient()
    client.force_authenticate(member(event.club, Role.ORGANISER))
    pairing = event.pairings.first()
    assert pairing is not None
    body = {"winner": "home", "home_points": 52, "away_points": 10, "reason": "\u202e\x07"}
    answer = client.post(
        f"/api/events/{event.id}/pairings/{pairing.id}/adjust/", body, format="json"
    )
    assert answer.status_code == 400
    assert answer.json()["detail"] == "Give the reason for the adjusted result."
    pairing.refresh_from_db()
    assert pairing.result == "pending"


# Found while fuzzing: U+0958 is one character as typed and two once in Unicode's standard
# form (NFC), which the app stores; 160 of them passed the 160-character check and broke the
# column (a 500 on PostgreSQL).
QA = "\u0958"


def test_a_team_name_longer_than_its_column_once_cleaned_is_refused() -> None:
    event = make_event(teams=0)
    client = APIClient()
    client.force_authenticate(member(event.club, Role.ORGANISER))
    body = {"player_one": player("A").id, "player_two": player("B").id, "name": QA * 160}
    answer = client.post(f"/api/events/{event.id}/entries/", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == "A team's name has at most 160 characters; this one has 320."
    assert not event.entries.exists()


def test_an_event_name_longer_than_its_column_once_cleaned_is_refused() -> None:
    event = make_event(teams=0)
    client = APIClient()
    client.force_authenticate(member(event.club, Role.ORGANISER))
    answer = client.patch(f"/api/events/{event.id}/", {"name": QA * 100}, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        "An event's name has at most 160 characters; this one has 200."
    )
    answer = client.patch(f"/api/events/{event.id}/", {"name": QA * 80}, format="json")
    assert answer.status_code == 200


def test_a_season_name_longer_than_its_column_once_cleaned_is_refused() -> None:
    event = make_event(teams=0)
    client = APIClient()
    client.force_authenticate(member(event.club, Role.ORGANISER))
    body = {"club": event.club.id, "name": QA * 100}
    answer = client.post("/api/seasons/", body, format="json")
    assert answer.status_code == 400
    assert (
        answer.json()["detail"] == "A season's name has at most 120 characters; this one has 200."
    )


def test_a_number_too_large_for_a_float_is_refused_by_the_parser_not_a_500() -> None:
    """Found by the stateful fuzzer: ``1e999`` reads as infinity, and an id of infinity made
    the team's lookup fail with OverflowError (a 500) when a game was created."""
    game = start_game()
    client = APIClient()
    client.force_authenticate(member(game.club, Role.ORGANISER))
    raw = (
        f'{{"club": {game.club.id}, "ns_team": {game.ns_team_id}, "ew_team": 1e999, '
        '"first_dealer": 1}'
    )
    answer = client.generic("POST", "/api/games/", raw, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "The data sent holds a number too large to be read (such as 1e999): send "
        "numbers as the API documentation shows.",
        "code": "not_number",
    }
