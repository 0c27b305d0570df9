"""Parse limits: a request the app cannot read is a 400 (or 413) with a sentence, checked
before any role is looked up, never a 500."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from kaiser_club.models import Club
from kaiser_club.request_limits import unreadable_value
from kaiser_club.roles import Role
from scoring.models import Game, Hand, Team
from tests.factories import member, start_game
from tests.scoring.hands import make_club
from tests.table.helpers import make_table, opened
from tournaments.models import Season

pytestmark = pytest.mark.django_db

TOO_DEEP = (
    "The data sent is nested more than 32 levels deep, which no request of this app needs: "
    "send it in the shape the API documentation shows."
)
NESTED = "[" * 100_000 + "]" * 100_000


def signed_in(club: Club, role: Role) -> APIClient:
    client = APIClient()
    client.force_authenticate(member(club, role))
    return client


@pytest.mark.parametrize("path", ["/api/games/", "/api/teams/", "/api/events/"])
def test_a_huge_page_limit_is_a_page_not_an_overflow(path: str) -> None:
    client = signed_in(make_club(), Role.ORGANISER)
    answer = client.get(f"{path}?limit=99999999999999999999&offset=99999999999999999999")
    assert answer.status_code == 200
    assert answer.json()["results"] == []


@pytest.mark.parametrize("path", ["/api/teams/", "/api/games/", "/api/events/import/"])
def test_json_nested_100000_deep_is_refused_before_the_role_check(path: str) -> None:
    club = make_club()
    client = signed_in(club, Role.PLAYER)  # a player: the role check would answer 403
    answer = client.generic("POST", path, NESTED, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {"detail": TOO_DEEP, "code": "too_deep"}


def test_json_33_levels_deep_is_refused_32_are_read() -> None:
    club = make_club()
    client = signed_in(club, Role.ORGANISER)
    deep = json.dumps({"name": "x", "club": club.id, "extra": json.loads("[" * 32 + "]" * 32)})
    assert (
        client.generic("POST", "/api/teams/", deep, content_type="application/json").json()["code"]
        == "too_deep"
    )
    shallow = json.dumps({"name": "x", "club": club.id, "extra": json.loads("[" * 30 + "]" * 30)})
    answer = client.generic("POST", "/api/teams/", shallow, content_type="application/json")
    assert answer.status_code == 400 and "player_one_id" in answer.json()  # read, then judged
    assert Team.objects.count() == 0


@pytest.mark.parametrize("endpoint", ["hands", "preview", "confirm", "undo"])
def test_table_endpoint_nested_body_is_refused(endpoint: str) -> None:
    setup = make_table()
    device = opened(setup)
    answer = device.generic(
        "POST", f"/table/{setup.table.id}/{endpoint}", NESTED, content_type="application/json"
    )
    assert answer.status_code == 400
    assert answer.json() == {"detail": TOO_DEEP, "code": "too_deep"}


@pytest.mark.parametrize(
    ("endpoint", "field"),
    [
        ("hands", "game_id"),
        ("preview", "game_id"),
        ("confirm", "seat"),
        ("confirm", "number"),
        ("undo", "number"),
    ],
)
@pytest.mark.parametrize("value", ["1e999", "-1e999", "1e30", "true", "-1", "2.5"])
def test_table_numbers_beyond_any_column_are_refused(endpoint: str, field: str, value: str) -> None:
    setup = make_table(verification=True)
    device = opened(setup)
    body = {
        "game_id": setup.game.id,
        "client_id": str(uuid.uuid4()),
        "number": 1,
        "seat": 1,
        "entry": {"bidder": 0, "bid": 7, "bidding_team_tricks": 6},
    }
    text = json.dumps(body).replace(f'"{field}": {json.dumps(body[field])}', f'"{field}": {value}')
    answer = device.post(
        f"/table/{setup.table.id}/{endpoint}", text, content_type="application/json"
    )
    assert answer.status_code == 400, answer.content
    assert answer.json()["detail"] == f"The page sent no {field}."
    assert Hand.with_pending.count() == 0


def test_a_good_table_body_is_still_read() -> None:
    setup = make_table()
    device = Client()
    opened(setup, device)
    body = {
        "game_id": setup.game.id,
        "client_id": str(uuid.uuid4()),
        "number": 1,
        "entry": {
            "bidder": 0,
            "bid": 7,
            "trump": "clubs",
            "bidding_team_tricks": 6,
            "five_hearts": "ns",
            "three_spades": "ew",
        },
    }
    answer = device.post(
        f"/table/{setup.table.id}/hands", json.dumps(body), content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    assert Game.objects.get(id=setup.game.id).hand_count == 1


def test_a_game_page_query_never_overflows() -> None:
    game = start_game(club=make_club())
    client = signed_in(game.club, Role.PLAYER)
    assert client.get(f"/api/games/{10**30}/").status_code == 404


def arabic_indic(number: int) -> str:
    """The number in Arabic-Indic digits ("٣" for 3), which int() reads as the number."""
    return "".join(chr(0x660 + int(digit)) for digit in str(number))


ADDRESSES = {
    "game": "/api/games/{}/",
    "hands": "/api/games/{}/hands/",
    "event": "/api/events/{}/",
    "season": "/api/seasons/{}/",
}


@pytest.mark.parametrize(
    "pk",
    [
        lambda row: "9" * 5000,  # beyond what int() reads: a ValueError, not an id
        lambda row: arabic_indic(row),  # not ASCII: int() reads it as the row's id
        lambda row: f"{row}a",
        lambda row: str(2**31),  # past LARGEST_ID (an integer column's range)
        lambda row: "0",
    ],
    ids=["5000 digits", "arabic-indic digits", "a letter", "past the range", "zero"],
)
@pytest.mark.parametrize("kind", list(ADDRESSES))
def test_an_id_no_row_can_have_is_a_404(kind: str, pk: Any) -> None:
    setup = make_table()  # an event (of a season's club) with a game: a row of each kind
    season = Season.objects.create(club=setup.event.club, name="Autumn")
    row = {"game": setup.game.id, "hands": setup.game.id, "event": setup.event.id}.get(
        kind, season.id
    )
    client = signed_in(setup.event.club, Role.ORGANISER)
    send = client.post if kind == "hands" else client.get
    assert client.get(ADDRESSES[kind].format(row)).status_code in (200, 405)  # the row is there
    assert send(ADDRESSES[kind].format(pk(row)), {}, format="json").status_code == 404


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ('{"a": [1, 2.5, "x"]}', None),
        ('{"a": [1, 1e999]}', "not_number"),
        ('{"a": {"b": -1e999}}', "not_number"),
        ('[NaN, "ok"]', "not_number"),
        ('[1e999, "\\ud800"]', "not_text"),  # text first, wherever the number sits
        ('{"\\ud800": 1e999}', "not_text"),
    ],
)
def test_the_api_parser_finds_unreadable_text_before_an_unreadable_number(
    text: str, fault: str | None
) -> None:
    assert unreadable_value(json.loads(text)) == fault
