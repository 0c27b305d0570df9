"""A representative refusal of each kind reads in the reader's language: French on a French
page or with ``Accept-Language: fr`` on the API, English otherwise. Each is raised once and
rendered where it is shown (``kaiser_club.sentences``), so a job a worker ran reads in the
language of whoever looks at it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from kaiser_club.errors import InvalidInput
from kaiser_club.roles import Role
from kaiser_club.sentences import render
from scoring import services as scoring
from scoring.rules import Side
from tests.factories import member
from tests.table.helpers import make_table, opened
from tests.table.test_access import hand_body, post
from tests.tournaments.helpers import make_event
from tournaments import services
from tournaments.choices import JobStatus
from tournaments.models import GenerationJob

pytestmark = pytest.mark.django_db

FR: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "fr"}
EN: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_a_rule_set_refused_by_the_rules_reads_in_the_language_where_it_is_shown() -> None:
    with pytest.raises(InvalidInput) as refused:
        scoring.rules_from(preset_name="club", changes={"min_bid": 0})
    with translation.override("fr"):
        assert refused.value.message == "La mise minimale doit être de 1 à 12, pas 0."
        assert refused.value.field_errors == {
            "rules": ["La mise minimale doit être de 1 à 12, pas 0."]
        }
    with translation.override("en"):
        assert refused.value.message == "The minimum bid must be from 1 to 12, not 0."


def test_a_role_refusal_on_the_api(api_client: APIClient) -> None:
    event = make_event(teams=4)
    api_client.force_login(member(event.club, Role.PLAYER))
    url = f"/api/events/{event.id}/generate/"
    french = api_client.post(url, {}, format="json", **FR)
    assert french.status_code == 403
    assert french.json()["detail"] == f"Votre rôle dans {event.club.name} ne le permet pas."
    english = api_client.post(url, {}, format="json", **EN)
    assert english.json()["detail"] == f"Your role in {event.club.name} does not allow this."


@pytest.mark.parametrize(
    ("body", "english", "french"),
    [
        (
            b'\xff\xfe{"name": 1}',
            "The body is not JSON: it is not UTF-8 text. Send JSON encoded as UTF-8.",
            "Le corps n’est pas du JSON\u00a0: ce n’est pas du texte UTF-8. Envoyez du JSON "
            "encodé en UTF-8.",
        ),
        (
            b'{"name": "Aces",',
            "The body is not JSON: it stops making sense at line 1, column 17.",
            "Le corps n’est pas du JSON\u00a0: il perd son sens à la ligne 1, colonne 17.",
        ),
        (
            b'{"name": NaN}',
            "The body is not JSON: NaN and Infinity are not JSON numbers.",
            "Le corps n’est pas du JSON\u00a0: NaN et Infinity ne sont pas des nombres JSON.",
        ),
    ],
)
@pytest.mark.parametrize("endpoint", ["entries", "import"])
def test_a_body_that_is_not_json_on_the_api(
    api_client: APIClient, endpoint: str, body: bytes, english: str, french: str
) -> None:
    """Python's own words ("'utf-8' codec can't decode byte 0xff") are not an answer, on the
    endpoints that store what they read and on the event import alike."""
    event = make_event(teams=0)
    api_client.force_login(member(event.club, Role.ORGANISER))
    url = f"/api/events/{event.id}/entries/" if endpoint == "entries" else "/api/events/import/"
    raw: Any = body  # sent as these bytes (the stubs type a body as str)
    for language, said in ((FR, french), (EN, english)):
        answer = api_client.generic("POST", url, raw, "application/json", **language)
        assert answer.status_code == 400
        assert answer.json() == {"detail": said, "code": "parse_error"}


def test_a_number_python_will_not_read_is_refused_as_a_number() -> None:
    """A 5,000-digit integer is valid JSON that Python refuses to convert."""
    event = make_event(teams=0)
    client = APIClient()
    client.force_login(member(event.club, Role.ORGANISER))
    body: Any = b'{"name": ' + b"9" * 5000 + b"}"
    answer = client.generic("POST", f"/api/events/{event.id}/entries/", body, "application/json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "not_number"


def test_a_csv_row_error_on_the_api(api_client: APIClient) -> None:
    event = make_event(teams=0)
    api_client.force_login(member(event.club, Role.ORGANISER))
    url = f"/api/events/{event.id}/entries/import/"
    body = {"csv": "player_one,player_two\nAnn,\n"}
    french = api_client.post(url, body, format="json", **FR)
    assert french.status_code == 400
    assert french.json()["detail"] == (
        "1 ligne a des problèmes, donc rien n’a été importé. Corrigez le fichier et réessayez."
    )
    english = api_client.post(url, body, format="json", **EN)
    assert english.json()["detail"] == (
        "1 row has problems, so nothing was imported. Fix the file and try again."
    )


def test_an_import_error_on_the_api_and_on_the_page(api_client: APIClient) -> None:
    event = make_event(teams=0)
    user = member(event.club, Role.ORGANISER)
    api_client.force_login(user)
    french = api_client.post("/api/events/import/", {"not": "an export"}, format="json", **FR)
    assert french.status_code == 400
    assert french.json()["detail"] == "Ce fichier n’est pas un export d’événement Kaiser Club."
    english = api_client.post("/api/events/import/", {"not": "an export"}, format="json", **EN)
    assert english.json()["detail"] == "This file is not a Kaiser Club event export."
    client = Client()
    client.force_login(user)
    upload = SimpleUploadedFile("event.json", json.dumps({"not": "an export"}).encode())
    page = client.post("/events/import/", {"file": upload}, **FR)
    assert "Ce fichier n’est pas un export d’événement Kaiser Club." in page.content.decode()


def _failed_job(language: str) -> GenerationJob:
    """A generation the worker runs in ``language`` and that fails: one entry to pair."""
    event = make_event(teams=1)
    with translation.override(language):
        job = services.generation_request(event=event)  # runs eagerly on commit
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED
    return job


@pytest.mark.django_db(transaction=True)
def test_a_generation_error_reads_in_the_readers_language_not_the_workers(
    api_client: APIClient,
) -> None:
    job = _failed_job("fr")  # the worker's language must not matter
    assert job.error == "Pairing needs at least two entries; this event has 1."  # the log's
    api_client.force_login(member(job.event.club, Role.ORGANISER))
    url = f"/api/events/{job.event_id}/jobs/{job.id}/"
    assert api_client.get(url, **EN).json()["error"] == (
        "Pairing needs at least two entries; this event has 1."
    )
    assert api_client.get(url, **FR).json()["error"] == (
        "L’appariement demande au moins deux inscriptions\u00a0; cet événement en a 1."
    )
    client = Client()
    client.force_login(member(job.event.club, Role.ORGANISER))
    page = client.get(f"/events/{job.event_id}/jobs/{job.id}/", **FR).content.decode()
    assert "L’appariement demande au moins deux inscriptions\u00a0; cet événement en a 1." in page


@pytest.mark.django_db(transaction=True)
def test_a_generation_summary_reads_in_the_readers_language() -> None:
    event = make_event(teams=4)
    with translation.override("en"):
        job = services.generation_request(event=event)
    job.refresh_from_db()
    assert job.summary == "Round 1: 2 games."
    with translation.override("fr"):
        assert job.summary_text == "Ronde 1\u00a0: 2 parties."


def test_a_table_endpoint_refusal() -> None:
    setup = make_table()
    client = opened(setup)
    body = hand_body(setup.game)
    post(client, setup.table.id, "hands", body)
    scoring.game_forfeit(game_id=setup.game.id, forfeited_by=Side.EW)
    undo: dict[str, Any] = {"game_id": setup.game.id, "number": 1, "client_id": body["client_id"]}
    french = post(client, setup.table.id, "undo", undo, **FR)
    assert french.status_code == 400
    english = post(client, setup.table.id, "undo", undo, **EN)
    assert english.json()["detail"] == FORFEITED_EN
    assert french.json()["detail"] == FORFEITED_FR


FORFEITED_EN = "This game ended by forfeit; its hands can no longer be undone."
FORFEITED_FR = (
    "Cette partie s’est terminée par forfait\u00a0; ses donnes ne peuvent plus être annulées."
)


def test_a_refusal_keeps_its_sentence_until_it_is_shown() -> None:
    """The service raises once; the same error reads in each language it is shown in, and a
    sentence kept as JSON (a job's) renders in the reader's language. (Sentences built here
    without the N_ marker, so makemessages does not take the tests' words.)"""
    from kaiser_club.sentences import Sentence, render

    rows = Sentence(
        "%(count)s row has problems, so nothing was imported. Fix the file and try again.",
        {"count": 2},
        "%(count)s rows have problems, so nothing was imported. Fix the file and try again.",
    )
    error = InvalidInput(rows, field_errors={"seed": [Sentence("Taken.")]})
    with translation.override("fr"):
        assert error.message.startswith("2 lignes ont des problèmes")
        assert error.field_errors == {"seed": ["Déjà prise."]}
    with translation.override("en"):
        assert error.message.startswith("2 rows have problems")
        assert error.field_errors == {"seed": ["Taken."]}
    kept = json.loads(json.dumps(Sentence("Round %(n)s", {"n": 3}).to_json()))
    with translation.override("fr"):
        assert render(Sentence.from_json(kept)) == "Ronde 3"


def test_a_pairing_refusal_lists_its_teams_in_the_readers_language() -> None:
    from kaiser_club.sentences import of, render
    from tournaments.pairing.model import NoValidPairing
    from tournaments.pairing.swiss import _STUCK

    refused = NoValidPairing(_STUCK[(False, False)], round_number=4, names=("Aces", "Kings"))
    assert str(refused) == (  # the pure module's own text: English
        "No pairing for round 4 avoids a rematch: teams Aces and Kings have played everyone left."
    )
    with translation.override("fr"):
        assert render(of(refused)) == (
            "Aucun appariement de la ronde 4 n’évite de rejouer un adversaire\u00a0: "
            "les équipes Aces et Kings ont joué contre toutes les équipes restantes."
        )


def test_a_report_job_that_failed_reads_in_the_readers_language() -> None:
    from tournaments.models import ReportJob
    from tournaments.reports import services as reports

    event = make_event(teams=2)  # Swiss: no bracket (a job row made by hand, past the checks)
    made = ReportJob.objects.create(event=event, kind="bracket", language="fr")
    with translation.override("fr"):  # the worker's language must not matter
        reports.report_run(job_id=made.id)
    made.refresh_from_db()
    assert made.error == "This event has no bracket yet: generate it first."
    with translation.override("fr"):
        assert (
            made.error_text == "Cet événement n’a pas encore de tableau\u00a0: générez-le d’abord."
        )
    with translation.override("en"):
        assert made.error_text == "This event has no bracket yet: generate it first."


@pytest.mark.django_db(transaction=True)
def test_a_bracket_round_is_named_in_the_readers_language_inside_a_refusal() -> None:
    """A bracket's rounds keep their codes as label ("Round 1 (W1)"); a sentence names the
    round in words, by its number and the name the pages give it, so a French refusal reads
    all in French. A label the organiser typed is theirs, in any language."""
    event = make_event(teams=4, format="single_elimination")
    services.generation_request(event=event)
    round_ = event.round_set.get(number=1)
    assert "W1" in round_.label
    services.round_start_unchecked(round_=round_)
    with pytest.raises(InvalidInput) as refused:
        services.round_start_unchecked(round_=round_)
    with translation.override("fr"):
        assert render(refused.value.message) == "Ronde 1 (Demi-finales) a déjà commencé."
    with translation.override("en"):
        assert render(refused.value.message) == "Round 1 (Semi-finals) has already started."
    round_.label = "Finale du club"
    round_.save(update_fields=["label"])
    with pytest.raises(InvalidInput) as refused, translation.override("en"):
        services.round_start_unchecked(round_=round_)
    with translation.override("en"):
        assert render(refused.value.message) == "Finale du club has already started."
