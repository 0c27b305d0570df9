"""Every value an import accepts is storable, and everything it stores stays readable.

Each case is an export changed in one place and sent to the API as the organiser: either a
400 whose sentence names the file's row (and never the database's words) with no row written
anywhere, or a 201 after which every page, part and API answer of the new event is a 200.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from kaiser_club.roles import Role
from scoring import services as scoring
from scoring.models import Hand
from scoring.rules import HandEntry, HandKind, MisdealReason
from tests.factories import member
from tests.tournaments.helpers import generate, gid, make_event
from tournaments.models import Entry, Event, Pairing
from tournaments.transfer import document as document_module
from tournaments.transfer import event_export

from .reads import (
    assert_every_read_answers,
    post_import,
    refusal_is_a_sentence_about_the_file,
    row_counts,
)
from .test_round_trip import swiss_event, without_moment

pytestmark = [pytest.mark.django_db, pytest.mark.long]

Change = Callable[[dict[str, Any]], Any]


@pytest.fixture
def exported() -> tuple[Event, dict[str, Any], APIClient]:
    event = swiss_event()
    api = APIClient()
    api.force_authenticate(member(event.club, Role.ORGANISER))
    return event, event_export(event=event), api


def refused(api: APIClient, document: dict[str, Any]) -> str:
    """Imports the document, which must be refused (400) with nothing written; the sentence."""
    before = row_counts()
    answer = post_import(api, document)
    assert answer.status_code == 400, answer.content
    assert row_counts() == before
    detail = answer.json()["detail"]
    refusal_is_a_sentence_about_the_file(detail)
    return str(detail)


def imported(api: APIClient, document: dict[str, Any]) -> Event:
    """Imports the document, which must be accepted (201); the new event, every read of it
    answering."""
    answer = post_import(api, document)
    assert answer.status_code == 201, answer.content
    event = Event.objects.get(id=answer.json()["id"])
    assert_every_read_answers(event)
    return event


def changed(document: dict[str, Any], change: Change) -> dict[str, Any]:
    document = copy.deepcopy(document)
    change(document)
    return document


def in_event(**values: Any) -> Change:
    return lambda d: d["event"].update(values)


def in_row(key: str, index: int, **values: Any) -> Change:
    return lambda d: d[key][index].update(values)


def in_hand(game: int, hand: int, **values: Any) -> Change:
    return lambda d: d["games"][game]["hands"][hand].update(values)


# --- the issue's cases ------------------------------------------------------------------------

TIEBREAK_CHOICES = "wins, win_pct, point_difference, points_for, head_to_head, buchholz, seed"


@pytest.mark.parametrize(
    ("tiebreaks", "quoted"),
    [([[]], "[[]]"), ([None], "[null]"), ([], "[]"), (["wins", "wins"], '["wins", "wins"]')],
)
def test_a_tiebreak_order_that_is_no_list_of_metrics_is_refused(exported, tiebreaks, quoted):
    """It was stored (201), then every page reading the standings answered 500."""
    _, document, api = exported
    detail = refused(api, changed(document, in_event(tiebreaks=tiebreaks)))
    assert detail == (
        f"The event: the tie-break order {quoted} is not a list of these, each at most once: "
        f"{TIEBREAK_CHOICES}."
    )


def test_a_season_tiebreak_order_is_read_as_the_events(exported):
    _, document, api = exported
    season: dict[str, Any] = {
        "name": "Winter",
        "starts_on": None,
        "ends_on": None,
        "tiebreaks": [{}],
    }
    detail = refused(api, changed(document, in_event(season=season)))
    assert detail.startswith("The season: the tie-break order [{}] is not a list of these")


def test_registered_tiebreaks_in_any_order_are_imported(exported):
    _, document, api = exported
    order = ["head_to_head", "buchholz", "seed", "wins"]
    event = imported(api, changed(document, in_event(tiebreaks=order)))
    assert event.tiebreaks == order


def test_an_event_with_a_misdeal_round_trips():
    """'Game 4, hand 1: made: This field cannot be blank.': a misdeal has no "made"."""
    event = make_event(teams=4, format="round_robin", preset_name="club")
    generate(event)
    game_id = gid(Pairing.objects.filter(event=event).order_by("id")[1])
    misdeal = HandEntry(kind=HandKind.MISDEAL, misdeal_reason=MisdealReason.NO_FACE_CARD)
    scoring.hand_record(game_id=game_id, entry=misdeal, client_id=uuid.uuid4())
    api = APIClient()
    api.force_authenticate(member(event.club, Role.ORGANISER))
    document = event_export(event=event)
    copy_ = imported(api, document)
    assert without_moment(event_export(event=copy_)) == without_moment(document)
    hand = Hand.objects.get(game__pairing__event=copy_, kind="misdeal")
    assert hand.made is None and hand.number == 1


def test_two_tables_of_one_number_are_named_by_their_place_in_the_file(exported):
    """The database's 'duplicate key value violates unique constraint "table_number_once"'
    reached the organiser."""
    _, document, api = exported
    numbers = [1, 3, 2, 4, 3]
    tables = [{"number": n, "has_code": True} for n in numbers]
    detail = refused(api, changed(document, lambda d: d.update(tables=tables)))
    assert detail == "Tables 2 and 5 of the file both have number 3."


def test_a_clash_the_reading_missed_is_told_in_the_files_terms(exported, monkeypatch):
    """Should the database refuse a row after all, the answer names the file's rows that clash
    (found again in the file), and quotes nothing of the database's."""
    _, document, api = exported
    tables = [{"number": n, "has_code": True} for n in [1, 3, 2, 4, 3]]
    document = changed(document, lambda d: d.update(tables=tables))
    # The reading misses the clash: the table_number_once constraint refuses the 5th table.
    monkeypatch.setattr(document_module, "first_clash", lambda _document: None)
    assert refused(api, document) == "Tables 2 and 5 of the file both have number 3."


def test_a_refusal_by_the_database_names_the_row_being_written(exported, monkeypatch):
    _, document, api = exported
    tables = [{"number": n, "has_code": True} for n in [1, 3, 2, 4, 3]]
    document = changed(document, lambda d: d.update(tables=tables))
    monkeypatch.setattr(document_module, "first_clash", lambda _document: None)
    monkeypatch.setattr("tournaments.transfer.import_.first_clash", lambda _document: None)
    assert refused(api, document) == (
        "Table 3: this row cannot be stored with the rest of the file (it repeats or "
        "contradicts another row, or a record already on this server)."
    )


# --- every value against its column and the app's ranges --------------------------------------


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        (
            in_row("entries", 2, seed=99999999999),
            "Entry 3 (Team 3): the seed 99999999999 is not a whole number from 1 to 9999 "
            "(or empty).",
        ),
        (
            in_row("entries", 2, seed=True),
            "Entry 3 (Team 3): the seed true is not a whole number from 1 to 9999 (or empty).",
        ),
        (
            in_row("entries", 2, rating="NaN"),
            'Entry 3 (Team 3): the rating "NaN" is not a number from 0 to 10000 (or empty).',
        ),
        (
            in_row("entries", 2, rating=1e308),
            "Entry 3 (Team 3): the rating 1e+308 is not a number from 0 to 10000 (or empty).",
        ),
        (
            in_row("entries", 2, name="x" * 161),
            'Entry 3: the name "' + "x" * 38 + "… is longer than 160 characters.",
        ),
        (in_row("entries", 2, name=" \u202e "), "Entry 3: the name is empty."),
        (
            in_row("entries", 2, name="Aces\ud800"),
            'Entry 3: the name "Aces\\ud800" has characters that cannot be stored.',
        ),
        (
            in_row("entries", 2, name=[["Aces"]]),
            'Entry 3: the name [["Aces"]] is not text.',
        ),
        (
            in_row("entries", 2, pool=-1),
            "Entry 3 (Team 3): the pool -1 is not a whole number from 1 to 64 (or empty).",
        ),
        (
            in_row("entries", 2, registered_at="2026-02-30T10:00:00+00:00"),
            'Entry 3 (Team 3): the registered_at "2026-02-30T10:00:00+00:00" is not a time '
            "(ISO 8601, as 2026-11-28T19:30:00+00:00) from 1900 to 2999.",
        ),
        (
            in_event(minutes_per_game=100000),
            "The event: the minutes_per_game 100000 is not a whole number from 1 to 600 "
            "(or empty).",
        ),
        (
            in_event(forfeit_winner_score=-(2**63)),
            "The event: the forfeit_winner_score -9223372036854775808 is not a whole number "
            "from -500 to 500.",
        ),
        (
            in_event(date="9999-12-31"),
            'The event: the date "9999-12-31" is not a date (YYYY-MM-DD) from 1900 to 2999.',
        ),
        (in_event(format="knockout"), 'The event: the format "knockout" is not one of:'),
        (
            in_event(rules={"target": 10**6}),
            "The event: the rules: The target can be at most 500 points, not 1000000.",
        ),
        (in_event(club=None), "The event: the club null is not a slug"),
        (
            in_row("players", 0, email="not an email"),
            'Player 1 (Sub Stitute): the email "not an email" is not an email address.',
        ),
        (
            in_row("rounds", 0, number=40000),
            "Round 1 of the file: the number 40000 is not a whole number from 1 to 9999.",
        ),
        (
            in_row("tables", 0, number=0),
            "Table 1 of the file: the number 0 is not a whole number from 1 to 999.",
        ),
        (
            lambda d: d["games"][0].update(paused_seconds=2**31),
            "Game 1: the paused_seconds 2147483648 is not a whole number from 0 to 2147483647.",
        ),
        (
            lambda d: d["games"][0].update(first_dealer="north"),
            'Game 1: the first_dealer "north" is not a seat: 0 (north), 1 (east), 2 (south), '
            "3 (west).",
        ),
        (
            lambda d: d["games"][0].update(added_minutes=-70, time_limit_minutes=60),
            "Game 1: the added_minutes -70 take away more than the game's 60 minutes.",
        ),
        (
            in_hand(0, 0, bid=40000),
            "Game 1, hand 1: the bid 40000 is not a whole number from 1 to 12 (or empty).",
        ),
        (in_hand(0, 0, client_id=17), "Game 1, hand 1: the client_id 17 is not a UUID."),
        (
            in_hand(0, 0, bidder=True),
            "Game 1, hand 1: the bidder true is not a seat: 0 (north), 1 (east), 2 (south), "
            "3 (west), or empty.",
        ),
        (
            in_row("pairings", 0, code="W\u00b2-1"),
            'Pairing 1: the code "W\\u00b2-1" is not a match code (letters, digits and -, at '
            "most 12).",
        ),
        (
            in_row("pairings", 0, reason=["a"] * 3),
            'Pairing 1: the reason ["a", "a", "a"] is not text.',
        ),
        (
            in_row("pairings", 0, round=[1]),
            "Pairing 1: its round [1] is not a round's number of the file.",
        ),
        (
            in_row("substitutions", 0, seat=4),
            "Substitution 1 of the file: the seat 4 is not a seat: 0 (north), 1 (east), "
            "2 (south), 3 (west).",
        ),
        (
            lambda d: d["players"].append({"ref": 1.5, "name": "X", "email": ""}),
            "Player 14 of the file: its ref 1.5 is not a whole number of 1 or more.",
        ),
        (lambda d: d.update(entries={}), "The file: its 'entries' {} is not a list."),
        (lambda d: d["teams"].append(None), "Team 7 of the file: it is null, not an object."),
    ],
)
def test_a_value_out_of_its_column_or_range_is_refused_by_its_row(exported, change, sentence):
    _, document, api = exported
    assert refused(api, changed(document, change)).startswith(sentence)


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        (
            lambda d: d["players"].append({**d["players"][0], "name": "Again"}),
            "Players 1 and 14 of the file both have ref 1.",
        ),
        (
            lambda d: d["rounds"].append({**d["rounds"][0]}),
            "Rounds 1 and 3 of the file both have number 1.",
        ),
        (in_row("entries", 4, seed=2), "Entries 2 and 5 both have seed 2."),
        (in_row("entries", 4, team=2), "Entries 2 and 5 both enter team 2."),
        (in_row("pairings", 4, game=2), "Pairings 2 and 5 both play game 2."),
        (
            lambda d: [p.update(match_number=7) for p in d["pairings"][:2]],
            "Pairings 1 and 2 both have match number 7.",
        ),
        (
            in_row("pairings", 1, table=1),
            "Pairings 1 and 2 both play at table 1 in round 1.",
        ),
        (
            in_hand(0, 1, client_id="00000000-0000-0000-0000-000000000001"),
            None,
        ),
        (in_row("pairings", 0, winner_to=1), "Pairing 1: its winner_to 1 is the pairing itself."),
        (
            lambda d: d["pairings"][0].update(home=d["pairings"][0]["away"]),
            "Pairing 1: its home and away are the same",
        ),
        (
            lambda d: d["games"][0].update(ew_team=d["games"][0]["ns_team"]),
            "Game 1: team",
        ),
        (
            lambda d: d["games"][0].update(east=d["games"][0]["north"]),
            "Game 1: player",
        ),
        (
            lambda d: d["teams"][0].update(player_two=d["teams"][0]["player_one"]),
            "Team 1",
        ),
    ],
)
def test_rows_the_event_cannot_hold_both_of_are_named(exported, change, sentence):
    _, document, api = exported
    document = changed(document, change)
    if sentence is None:  # two hands of one game with one client id
        document["games"][0]["hands"][0]["client_id"] = "00000000-0000-0000-0000-000000000001"
        sentence = "Game 1, hands 1 and 2: they have the same client_id."
    assert refused(api, document).startswith(sentence)


def test_a_pending_hand_confirmed_by_a_seat_is_refused(exported):
    _, document, api = exported
    game = next(
        g for g in document["games"] if g["hands"] and g["hands"][-1]["status"] == "pending"
    )
    game["hands"][-1]["confirmed_by_seat"] = 0
    detail = refused(api, document)
    assert detail == (
        f"Game {game['ref']}, hand {len(game['hands'])}: a hand waiting for confirmation has "
        "no confirmed_by_seat."
    )


def test_names_lose_control_and_bidi_characters(exported):
    _, document, api = exported
    document = changed(document, in_row("entries", 2, name="\u202eAces\x00\n  High\u2066"))
    document = changed(document, in_event(name="Open\u202e \x07 2026", venue="Hall\r\nB"))
    event = imported(api, document)
    assert event.name == "Open 2026" and event.venue == "Hall B"
    assert Entry.objects.filter(event=event, name="Aces High").exists()


def test_extreme_values_the_columns_hold_are_imported_and_read(exported):
    _, document, api = exported
    document = changed(
        document,
        in_event(
            name="É" * 160,
            minutes_per_game=600,
            forfeit_winner_score=500,
            forfeit_loser_score=-500,
            date="2999-12-31",
        ),
    )
    document = changed(document, in_row("entries", 0, seed=9999, rating=10000.0, name="名" * 160))
    document["games"][0].update(paused_seconds=2**31 - 1, added_minutes=600)
    imported(api, document)


# --- the file itself --------------------------------------------------------------------------


def test_an_upload_with_nan_or_too_deep_is_refused(exported):
    api = exported[2]
    before = row_counts()
    for body, sentence in [
        (b'{"format": NaN}', "The file is not JSON: NaN is not a JSON number."),
        (b"[" * 5000 + b"]" * 5000, "The file: The data sent is nested more than 32"),
        (b"[" * 40 + b"]" * 40, "The file: The data sent is nested more than 32"),
    ]:
        upload = SimpleUploadedFile("event.json", body, content_type="application/json")
        answer = api.post("/api/events/import/", {"file": upload}, format="multipart")
        assert answer.status_code == 400
        assert answer.json()["detail"].startswith(sentence)
    assert row_counts() == before


# --- valid values that do not fit together -------------------------------------------------------


def each_pairing(**values: Any) -> Change:
    return lambda d: [p.update(values) for p in d["pairings"]]


def bracket_event() -> Event:
    from .test_bad_files import bracket_event as build

    return build()


@pytest.mark.parametrize(
    ("change", "outcome"),
    [
        (in_event(format="double_elimination"), 201),
        (in_event(format="pools", pool_count=2, pool_advance=1), 201),
        (lambda d: [e.update(pool=64) for e in d["entries"]], 201),
        (
            lambda d: [p.update(result="played") for p in d["pairings"] if p["result"] == "bye"],
            201,
        ),
        (in_row("pairings", 0, result="adjusted", winner_side="", home_points=None), 201),
        (in_row("pairings", 0, stage="third_place", match_number=1), "Pairing 1: a third-place"),
        (lambda d: d["substitutions"][0].update(entry=1, game=1, seat=3), 201),
        (lambda d: [g.update(from_paper=True) for g in d["games"]], 201),
        (in_event(kind="club_night", season={"name": "Winter", "tiebreaks": ["seed"]}), 201),
        (
            lambda d: [g.update(time_called_at="1900-01-01T00:00:00Z") for g in d["games"]],
            "Game 1, hand 2: Time is up",
        ),
    ],
)
def test_valid_values_that_do_not_fit_together_are_refused_or_readable(exported, change, outcome):
    _, document, api = exported
    document = changed(document, change)
    if outcome == 201:
        imported(api, document)
    else:
        assert refused(api, document).startswith(outcome)


@pytest.mark.parametrize(
    ("change", "outcome"),
    [
        (each_pairing(stage="third_place"), "Pairing 1: a third-place match follows a winners'"),
        (lambda d: [p.update(winner_to=1) for p in d["pairings"] if p["ref"] != 1], 201),
        (lambda d: [p.update(loser_to=2) for p in d["pairings"] if p["ref"] != 2], 201),
        (each_pairing(stage="grand_final"), 201),
        (each_pairing(code="W99999999-1"), 201),
        (each_pairing(cancelled=True, conditional=True), 201),
        (each_pairing(result="bye", winner_side="away", game=None, away=None), 201),
        (each_pairing(home=None), 201),
        (in_event(format="swiss", rounds=3), 201),
    ],
)
def test_a_bracket_that_does_not_fit_together_is_refused_or_drawn(change, outcome):
    event = bracket_event()
    api = APIClient()
    api.force_authenticate(member(event.club, Role.ORGANISER))
    document = changed(event_export(event=event), change)
    if outcome == 201:
        imported(api, document)
    else:
        assert refused(api, document).startswith(outcome)
