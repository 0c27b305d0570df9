"""A hand costs the same few queries at hand 1 and at hand 40, by either door, counted over the
whole request as a server runs it: a signed-in session (the API) or a table's code (the table
page), the transaction committed and its listeners run (no test savepoints: the test database
is emptied afterwards instead). And a warm public page costs one query at 16 and 512 teams."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from kaiser_club.roles import Role
from scoring.rows_and_rules import entry_as_json
from tests.factories import member
from tests.scoring.hands import filler, record_fillers
from tests.table.helpers import make_table, opened
from tests.tournaments.public.world import sized

pytestmark = pytest.mark.django_db(transaction=True)

# The hand applied to the state the game's row keeps: the game's row, the hand, its history
# line (scoring/services/hands.py), on every database.
WRITES = 3
# The API: the session and its user (2), the game with the writer's role and its event (1),
# the writes. The table page: the table with its event (1), its games (1), the writes, and
# the hands the answer's score sheet shows (1).
API_HAND = 3 + WRITES
TABLE_HAND = 3 + WRITES
# An undo replays the game (the hands, one query) and reads the table again for the answer.
TABLE_UNDO = 14


CONTROL = ("BEGIN", "COMMIT")


def counted(call: Any) -> tuple[Any, list[str]]:
    with CaptureQueriesContext(connection) as ctx:
        answer = call()
    # BEGIN and COMMIT are statements on SQLite, not on PostgreSQL: not counted.
    return answer, [q["sql"] for q in ctx.captured_queries if q["sql"] not in CONTROL]


def signed_in(club: Any) -> Client:
    client = Client()
    client.force_login(member(club, Role.ORGANISER))
    return client


@pytest.mark.parametrize("before", [0, 39])
def test_a_hand_through_the_api(before: int) -> None:
    setup = make_table()
    record_fillers(setup.game, before)
    client = signed_in(setup.event.club)
    body = {
        **entry_as_json(filler(before + 1)),
        "client_id": str(uuid.uuid4()),
        "number": before + 1,
    }
    body.pop("completed_at")
    answer, sql = counted(
        lambda: client.post(
            f"/api/games/{setup.game.id}/hands/", body, content_type="application/json"
        )
    )
    assert answer.status_code == 201, answer.content[:300]
    assert answer.json()["hand"]["number"] == before + 1
    assert len(sql) == API_HAND, sql


def _table_body(setup: Any, number: int) -> dict[str, Any]:
    entry = entry_as_json(filler(number))
    entry.pop("completed_at")
    return {
        "game_id": setup.game.id,
        "client_id": str(uuid.uuid4()),
        "number": number,
        "entry": entry,
    }


@pytest.mark.parametrize("before", [0, 39])
def test_a_hand_through_the_table_page(before: int) -> None:
    setup = make_table()
    record_fillers(setup.game, before)
    client = opened(setup)
    body = _table_body(setup, before + 1)
    answer, sql = counted(
        lambda: client.post(f"/table/{setup.table.id}/hands", body, content_type="application/json")
    )
    assert answer.status_code == 200, answer.content[:300]
    assert answer.json()["created"] is True
    assert len(sql) == TABLE_HAND, sql


@pytest.mark.parametrize("before", [1, 39])
def test_an_undo_at_the_table_costs_the_same_at_any_length(before: int) -> None:
    setup = make_table()
    record_fillers(setup.game, before)
    client = opened(setup)
    body = _table_body(setup, before + 1)
    client.post(f"/table/{setup.table.id}/hands", body, content_type="application/json")
    undo = {"game_id": setup.game.id, "number": before + 1, "client_id": body["client_id"]}
    answer, sql = counted(
        lambda: client.post(f"/table/{setup.table.id}/undo", undo, content_type="application/json")
    )
    assert answer.status_code == 200 and answer.json()["undone"] is True, answer.content[:300]
    assert len(sql) == TABLE_UNDO, sql


@pytest.mark.parametrize("teams", [16, 512])
def test_a_warm_public_page_is_one_query_at_any_size(teams: int) -> None:
    cache.clear()
    made = sized(teams, rounds=10 if teams > 16 else 3)
    client = Client()
    for url in (f"/e/{made.event.id}/standings/", f"/e/{made.event.id}/standings/?part=1"):
        first = client.get(url)
        assert first.status_code == 200
        answer, sql = counted(lambda url=url: client.get(url))
        assert answer.status_code == 200
        if "part" in url:
            assert answer.content == first.content
        assert len(sql) == 1, sql  # the event's counter, by primary key
        assert "tournaments_pairing" not in sql[0]
