"""Odd input the fuzzers found: digits that are not ASCII, text no database can store, a
header that is not a number. Each is refused with a sentence (or cleaned), never a 500, and a
refusal writes nothing."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from kaiser_club.request_limits import whole_number_text
from scoring.models import GameChange, Hand, Team
from tests.limits.test_value_limits import csv_rows, organiser, page_organiser
from tests.table.helpers import make_table, opened
from tests.table.test_access import hand_body, post
from tests.tournaments.helpers import generate, make_event
from tournaments.models import ReportJob

pytestmark = pytest.mark.django_db

NOT_TEXT = (
    "The data sent holds text that is not valid Unicode (a lone surrogate such as \\ud800), "
    "which cannot be stored: send the text as UTF-8."
)
ODD_DIGITS = ["²", "١٢", "１２", "𝟙𝟚", "12\u0663"]  # superscript, Arabic-Indic, full-width, …


@pytest.mark.parametrize(
    ("text", "number"),
    [("12", 12), (" 7 ", 7), ("0", 0), ("2147483647", 2**31 - 1), ("2147483648", None)]
    + [("9" * 400, None), ("-1", None), ("+1", None), ("1.0", None), ("", None)]
    + [(odd, None) for odd in ODD_DIGITS],
)
def test_a_number_is_read_only_in_ascii_digits(text: str, number: int | None) -> None:
    assert whole_number_text(text) == number


@pytest.mark.parametrize("odd", ODD_DIGITS)
@pytest.mark.parametrize("field", ["game_id", "number", "seat"])
def test_table_numbers_in_other_digits_are_refused(odd: str, field: str) -> None:
    setup = make_table(verification=True)
    client = opened(setup)
    body = hand_body(setup.game, entered_by_seat=1)
    assert post(client, setup.table.id, "hands", body).status_code == 200
    confirm = {"game_id": setup.game.id, "number": 1, "seat": 2, field: odd}
    answer = post(client, setup.table.id, "confirm", confirm)
    assert answer.status_code == 400
    assert answer.json()["detail"] == f"The page sent no {field}."
    assert Hand.with_pending.get(game=setup.game).status == "pending"


def test_table_numbers_as_ascii_digits_are_read() -> None:
    setup = make_table()
    client = opened(setup)
    body = hand_body(setup.game, game_id=str(setup.game.id), number=" 1 ")
    assert post(client, setup.table.id, "hands", body).status_code == 200
    assert Hand.objects.filter(game=setup.game).count() == 1


@pytest.mark.parametrize("odd", [*ODD_DIGITS, "99999999999999999999"])
@pytest.mark.parametrize("field", ["round", "table", "game"])
def test_the_reports_form_refuses_odd_ids_with_a_sentence(odd: str, field: str) -> None:
    event = make_event(teams=4)
    generate(event)
    client = page_organiser(event)
    kind = {"round": "round_tables", "table": "table_cards", "game": "score_sheet"}[field]
    answer = client.post(f"/events/{event.id}/reports/", {"kind": kind, field: odd}, follow=True)
    assert answer.status_code == 200
    said = [str(m) for m in answer.context["messages"]]
    assert said in (
        ["That is not part of this event; reload the page and choose again."],
        ["That game is not part of this event."],
    )
    assert ReportJob.objects.count() == 0


@pytest.mark.parametrize("odd", ODD_DIGITS)
def test_a_csv_seed_in_other_digits_is_a_row_error(odd: str) -> None:
    event = make_event(teams=0)
    rows = csv_rows(event, f"player_one;player_two;seed\nA;B;{odd}\n")
    assert rows[0]["errors"] == [f"Seed {odd!r} is not a whole number from 1 to 9999."]


def test_a_csv_rating_in_other_digits_is_a_row_error() -> None:
    event = make_event(teams=0)
    rows = csv_rows(event, "player_one;player_two;rating\nA;B;١٢\n")
    assert rows[0]["errors"] == ["Rating '١٢' is not a number from 0 to 10000."]


def pending_discard(reason: Any) -> tuple[Any, Any]:
    setup = make_table(verification=True)
    client = opened(setup)
    body = hand_body(setup.game, entered_by_seat=1)
    assert post(client, setup.table.id, "hands", body).status_code == 200
    discard = {
        "game_id": setup.game.id,
        "number": 1,
        "client_id": body["client_id"],
        "reason": reason,
    }
    raw = json.dumps(discard)  # "\ud800" stays an escape, as a page could send it
    answer = client.generic(
        "POST", f"/table/{setup.table.id}/discard", raw, content_type="application/json"
    )
    return setup, answer


@pytest.mark.parametrize(
    ("reason", "stored"),
    [
        ("wrong\x00 bid", "wrong bid"),
        ("r" * 5000, "r" * 300),
        ("r" * 299 + " bid", "r" * 299),  # cut just after a space: no space kept at its end
        ("\u202egnorw", "gnorw"),
        (["not", "text"], "['not', 'text']"),
        (1e308, "1e+308"),
    ],
)
def test_a_discard_reason_is_stored_as_clean_text_of_its_column(reason: Any, stored: str) -> None:
    setup, answer = pending_discard(reason)
    assert answer.status_code == 200, answer.content
    assert Hand.with_pending.filter(game=setup.game).count() == 0
    assert GameChange.objects.get(game=setup.game, action="discard").reason == stored


@pytest.mark.parametrize("reason", ["\ud800", "a\udfffb"])
def test_a_discard_reason_with_a_lone_surrogate_is_refused(reason: str) -> None:
    setup, answer = pending_discard(reason)
    assert answer.status_code == 400
    assert answer.json() == {"detail": NOT_TEXT, "code": "not_text"}
    assert Hand.with_pending.get(game=setup.game).status == "pending"
    assert not GameChange.objects.filter(game=setup.game, action="discard").exists()


def test_a_lone_surrogate_in_an_api_body_is_refused() -> None:
    event = make_event(teams=0)
    raw = json.dumps({"name": "\udc80 team", "player_one": 1, "player_two": 2})
    answer = organiser(event).generic("POST", "/api/teams/", raw, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {"detail": NOT_TEXT, "code": "not_text"}
    assert Team.objects.count() == 0


def test_a_lone_surrogate_in_an_imported_file_is_refused() -> None:
    """The import says which row (tests/tournaments/transfer/test_stored_values.py)."""
    event = make_event(teams=0)
    upload = SimpleUploadedFile(
        "event.json", json.dumps({"format": "\ud800"}).encode(), "application/json"
    )
    answer = organiser(event).post("/api/events/import/", {"file": upload}, format="multipart")
    assert answer.status_code == 400


@pytest.mark.parametrize("length", ["²", "abc", "-5"])
def test_a_content_length_that_is_not_ascii_digits_is_refused(length: str) -> None:
    event = make_event(teams=0)
    client = organiser(event)
    answer = client.generic(
        "POST",
        "/api/events/import/",
        "{}",
        content_type="application/json",
        CONTENT_LENGTH=length,
    )
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "The request's Content-Length header is not a number of bytes.",
        "code": "bad_length",
    }


def test_a_table_body_with_a_uuid_in_other_digits_is_refused() -> None:
    setup = make_table()
    client: Client = opened(setup)
    body = hand_body(setup.game, client_id=str(uuid.uuid4()).replace("1", "١"))
    answer = post(client, setup.table.id, "hands", body)
    assert answer.status_code in (200, 400)
