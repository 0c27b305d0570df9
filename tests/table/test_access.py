"""Reaching a table: its code grants this device that table only (a signed cookie scoped to the
table's path); a revoked or renewed code ends the grant; wrong codes are rate-limited; at a
club night a signed-in scorekeeper opens any table of the club, at a tournament an organiser.
And what the page's endpoints write: the table's current game, and nothing else."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from kaiser_club.actors import Actor
from kaiser_club.errors import NotAllowed
from kaiser_club.roles import Role
from scoring.gates import Step, rule_for
from scoring.models import Game, Hand
from tests.factories import member
from tests.table.helpers import add_table, make_event, make_table, opened
from tests.tournaments.helpers import staff_actor
from tournaments.choices import EventKind
from tournaments.game_gate import writer_role
from tournaments.services.tables import display_code, table_renew, table_revoke
from tournaments.table.access import member_may_open

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> None:
    cache.clear()


def hand_body(game: Game, **extra: Any) -> dict[str, Any]:
    body = {
        "game_id": game.id,
        "number": game.hand_count + 1,
        "client_id": str(uuid.uuid4()),
        "entry": {
            "bidder": 1,
            "bid": 7,
            "contract": "trump",
            "trump": "hearts",
            "bidding_team_tricks": 5,
            "five_hearts": "ew",
            "three_spades": "ns",
        },
    }
    body.update(extra)
    return body


def post(client: Client, table_id: int, what: str, body: dict[str, Any], **headers: Any) -> Any:
    return client.post(
        f"/table/{table_id}/{what}", body, content_type="application/json", **headers
    )


def test_the_code_opens_the_table_page_and_grants_this_table_only() -> None:
    setup = make_table()
    client = Client()
    answer = client.get(f"/t/{setup.code}/")
    assert answer.status_code == 302
    assert answer["Location"] == f"/table/{setup.table.id}/"
    cookie = answer.cookies[f"kaiser_table_{setup.table.id}"]
    assert cookie["path"] == f"/table/{setup.table.id}/"
    assert cookie["httponly"]
    assert setup.code not in cookie.value  # a digest of the code, signed
    page = client.get(f"/table/{setup.table.id}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Table 1" in text and "Alice" in text and "Chloé" in text


def test_a_typed_code_with_dashes_and_small_letters_opens_the_table() -> None:
    setup = make_table()
    typed = display_code(setup.code).lower()
    answer = Client().get("/t/", {"code": typed}, follow=True)
    assert answer.status_code == 200
    assert answer.redirect_chain[-1][0] == f"/table/{setup.table.id}/"


def test_without_the_code_the_page_and_the_writes_are_refused() -> None:
    setup = make_table()
    client = Client()
    assert client.get(f"/table/{setup.table.id}/").status_code == 403
    answer = post(client, setup.table.id, "hands", hand_body(setup.game))
    assert answer.status_code == 403
    assert "scan the table's QR code" in answer.json()["detail"]
    assert Hand.with_pending.count() == 0


def test_another_tables_code_is_refused() -> None:
    event = make_event()
    first = add_table(event, number=1)
    second = add_table(event, number=2)
    client = opened(first)
    assert client.get(f"/table/{second.table.id}/").status_code == 403
    answer = post(client, second.table.id, "hands", hand_body(second.game))
    assert answer.status_code == 403
    # Nor can the first table's grant write the second table's game through its own address.
    answer = post(client, first.table.id, "hands", hand_body(second.game))
    assert answer.status_code == 409
    assert answer.json()["code"] == "table_moved_on"
    assert Hand.with_pending.count() == 0
    assert post(client, first.table.id, "hands", hand_body(first.game)).status_code == 200


def test_an_unknown_code_is_refused_and_guessing_is_slowed_down(settings: Any) -> None:
    settings.TABLE_CODE_RATE = "3/m"
    setup = make_table()
    client = Client()
    for _ in range(3):
        answer = client.get("/t/NOTACODE00000000000/")
        assert answer.status_code == 404
        assert "No table has this code" in answer.content.decode()
    assert client.get("/t/NOTACODE00000000000/").status_code == 429
    assert client.get(f"/t/{setup.code}/").status_code == 429  # even the right one, for a while


def test_good_codes_are_not_counted_so_a_whole_hall_gets_in(settings: Any) -> None:
    settings.TABLE_CODE_RATE = "3/m"
    event = make_event()
    tables = [add_table(event, number=n) for n in range(1, 6)]
    for setup in tables:
        assert Client().get(f"/t/{setup.code}/").status_code == 302


def test_revoking_or_renewing_the_code_ends_the_grant() -> None:
    setup = make_table()
    client = opened(setup)
    table_renew(actor=staff_actor(), table=setup.table)
    assert client.get(f"/table/{setup.table.id}/").status_code == 403
    assert Client().get(f"/t/{setup.code}/").status_code == 404  # the old code
    setup.table.refresh_from_db()
    client = opened(setup)  # the new code
    assert client.get(f"/table/{setup.table.id}/").status_code == 200
    table_revoke(actor=staff_actor(), table=setup.table)
    assert client.get(f"/table/{setup.table.id}/").status_code == 403


@pytest.mark.parametrize(
    ("kind", "role", "status"),
    [
        (EventKind.CLUB_NIGHT, Role.PLAYER, 403),
        (EventKind.CLUB_NIGHT, Role.SCOREKEEPER, 200),
        (EventKind.CLUB_NIGHT, Role.ORGANISER, 200),
        (EventKind.TOURNAMENT, Role.SCOREKEEPER, 403),
        (EventKind.TOURNAMENT, Role.ORGANISER, 200),
        (EventKind.TOURNAMENT, Role.CLUB_ADMIN, 200),
    ],
)
def test_signed_in_members_open_the_clubs_tables(kind: str, role: Role, status: int) -> None:
    setup = make_table(kind=kind)
    client = Client()
    client.force_login(member(setup.event.club, role))
    assert client.get(f"/table/{setup.table.id}/").status_code == status
    answer = post(client, setup.table.id, "hands", hand_body(setup.game))
    assert answer.status_code == (200 if status == 200 else 403)


def test_a_member_of_another_club_opens_nothing() -> None:
    setup = make_table(kind=EventKind.CLUB_NIGHT)
    other = make_table(kind=EventKind.CLUB_NIGHT)
    client = Client()
    client.force_login(member(other.event.club, Role.CLUB_ADMIN))
    assert client.get(f"/table/{setup.table.id}/").status_code == 403


def test_the_open_page_lists_the_tables_a_member_may_open() -> None:
    setup = make_table(kind=EventKind.CLUB_NIGHT)
    client = Client()
    client.force_login(member(setup.event.club, Role.SCOREKEEPER))
    text = client.get("/t/").content.decode()
    assert f"/table/{setup.table.id}/" in text


def test_a_write_by_code_is_labelled_with_the_table_in_the_history() -> None:
    setup = make_table()
    client = opened(setup)
    assert post(client, setup.table.id, "hands", hand_body(setup.game)).status_code == 200
    change = setup.game.changes.get(action="record")
    assert (change.by, change.by_label) == (None, "Table 1 (tablet)")


def test_a_typed_code_that_is_only_punctuation_is_unknown() -> None:
    answer = Client().get("/t/", {"code": "- / -"})
    assert answer.status_code == 404


@pytest.mark.parametrize("kind", [EventKind.CLUB_NIGHT, EventKind.TOURNAMENT])
def test_the_open_page_costs_the_same_for_2_or_8_tables(kind: str) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for size in (2, 8):
        event = make_event(kind=kind)
        for number in range(1, size + 1):
            add_table(event, number=number)
        client = Client()
        client.force_login(member(event.club, Role.ORGANISER))
        with CaptureQueriesContext(connection) as captured:
            text = client.get("/t/").content.decode()
        assert text.count('href="/table/') == size
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


@pytest.mark.parametrize("kind", list(EventKind))
@pytest.mark.parametrize("role", list(Role))
def test_the_page_the_list_and_the_gate_read_one_writer_role(kind: str, role: Role) -> None:
    """Who enters an event's hands without a code is said once (``WRITER_ROLES``): the member
    opens the table's page, finds it on /t/ and enters a hand through the games API alike."""
    setup = make_table(kind=kind)
    event = setup.event
    user = member(event.club, role)
    client = Client()
    client.force_login(user)
    writes = role.includes(writer_role(event))
    assert (client.get(f"/table/{setup.table.id}/").status_code == 200) == writes
    assert (f"/table/{setup.table.id}/" in client.get("/t/").content.decode()) == writes
    assert member_may_open(user, setup.table) == writes
    try:
        rule_for(game=setup.game, actor=Actor.of(user), step=Step.ENTER)
    except NotAllowed:
        assert not writes
    else:
        assert writes


def test_the_json_endpoints_answer_every_refusal_as_the_api_does() -> None:
    """A refusal, a wrong method and an address no endpoint answers come as JSON with a
    sentence and its code, as the API's refusals; the page itself stays a page."""
    setup = make_table()
    stranger = Client()
    board = stranger.get(f"/table/{setup.table.id}/board")
    assert (board.status_code, board["Content-Type"]) == (403, "application/json")
    assert board.json()["code"] == "not_allowed"
    assert "scan the table's QR code" in board.json()["detail"]
    device = opened(setup)
    wrong_method = device.get(f"/table/{setup.table.id}/hands")
    assert wrong_method.status_code == 405 and wrong_method["Allow"] == "POST"
    assert wrong_method.json() == {
        "detail": "This address answers POST requests only.",
        "code": "method_not_allowed",
    }
    assert device.post(f"/table/{setup.table.id}/state").json()["code"] == "method_not_allowed"
    for address in (f"/table/{setup.table.id}/nothing", "/table/abc/hands"):
        missing = device.post(address, {}, content_type="application/json")
        assert (missing.status_code, missing["Content-Type"]) == (404, "application/json")
        assert missing.json() == {
            "detail": "There is nothing at this address of the table page.",
            "code": "not_found",
        }
    page = stranger.get(f"/table/{setup.table.id}/")
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")
    french = device.get(f"/table/{setup.table.id}/undo", HTTP_ACCEPT_LANGUAGE="fr")
    assert french.json()["detail"] == "Cette adresse ne répond qu’aux requêtes POST."
