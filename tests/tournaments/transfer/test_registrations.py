"""The players' sign-ups travel with the event: exported with their waiting list, entries and
players, imported back as the file has them (each player with a new private link), and every
value checked, a bad one refused with a sentence naming the row, nothing written."""

from __future__ import annotations

import copy
import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from kaiser_club.actors import Actor
from kaiser_club.roles import Role
from kaiser_club.sentences import stored
from tests.factories import member
from tests.tournaments.helpers import generate, make_event
from tests.tournaments.registrations.world import first, open_event, pair, sign_up
from tournaments.models import Event, OutboxMessage, Registrant, Registration
from tournaments.services import registrations as reg
from tournaments.transfer import event_export, event_import

from .reads import (
    assert_every_read_answers,
    post_import,
    refusal_is_a_sentence_about_the_file,
    row_counts,
)
from .test_round_trip import without_moment

pytestmark = pytest.mark.django_db

Change = Callable[[dict[str, Any]], Any]


def signed_up_event() -> Event:
    """Two places: two partnerships registered (one then withdrawn), two waiting (moved, so the
    list is not in the order they signed up), then the event asks for approval: one pending and
    one refused with a reason."""
    event = open_event(capacity=2)
    organiser = Actor.of(member(event.club, Role.ORGANISER))
    sign_up(event, pair("Ann", "ann@example.org", "Bob", "bob@example.org"), name="Aces")
    second = sign_up(event, pair("Cy", "cy@example.org", "Di", "di@example.org"))
    third = sign_up(event, pair("Ed", "ed@example.org", "Flo", "flo@example.org"), language="fr")
    fourth = sign_up(event, pair("Gus", "gus@example.org", "Hal", "hal@example.org"))
    reg.registration_move_by(actor=organiser, registration=fourth, place=1)
    assert [r.id for r in reg.waiting_list(event)] == [fourth.id, third.id]
    reg.registration_withdraw(registrant=first(second))
    reg.registrant_emails_stop(registrant=third.registrants.get(position=2))
    closes = dt.datetime(2099, 11, 27, 18, tzinfo=dt.UTC)
    Event.objects.filter(id=event.id).update(registration="approval", registration_closes_at=closes)
    event.refresh_from_db()
    sign_up(event, pair("Ivy", "ivy@example.org", "Jo", "jo@example.org"))
    refused = sign_up(event, pair("Kim", "kim@example.org", "Lu", "lu@example.org"))
    reg.registration_refuse_by(actor=organiser, registration=refused, reason="Members only")
    return event


def with_sign_ups(event: Event) -> Event:
    """The event (entered already) taking sign-ups on approval, with four: its first entry's,
    registered; one waiting; one pending; one refused with a reason. Written as rows, as an
    event whose draw has started takes no new entry by sign-up."""
    Event.objects.filter(id=event.id).update(
        registration="approval", capacity=event.entries.count()
    )
    event.refresh_from_db()
    entry = event.entries.select_related("team").order_by("id").first()
    assert entry is not None
    players = (
        [entry.player] if entry.team is None else [entry.team.player_one, entry.team.player_two]
    )
    for n, status in enumerate(["registered", "waiting", "pending", "refused"], start=1):
        row = Registration.objects.create(
            event=event,
            name="" if event.individual else f"Sign-up {n}",
            status=status,
            waiting_order=1 if status == "waiting" else None,
            entry=entry if status == "registered" else None,
            refusal_said=stored("Members only") if status == "refused" else None,
            language="fr" if n % 2 else "en",
        )
        for position, player in enumerate(players, start=1):
            assert player is not None
            Registrant.objects.create(
                registration=row,
                position=position,
                name=player.name if status == "registered" else f"Signer {n}.{position}",
                email=f"signer{n}.{position}@example.org",
                player=player if status == "registered" else None,
                emails_stopped=status == "refused",
            )
    return event


def statuses(document: dict[str, Any]) -> list[tuple[str, int | None]]:
    return [(r["status"], r["waiting_order"]) for r in document["registrations"]]


def test_sign_ups_round_trip_with_their_waiting_list_and_new_links():
    event = signed_up_event()
    first_export = event_export(event=event)
    assert first_export["event"]["registration"] == "approval"
    assert first_export["event"]["capacity"] == 2
    assert statuses(first_export) == [
        ("registered", None),
        ("withdrawn", None),
        ("waiting", 2),
        ("waiting", 1),
        ("pending", None),
        ("refused", None),
    ]
    registered = first_export["registrations"][0]
    assert registered["name"] == "Aces" and registered["entry"] is not None
    assert [p["player"] is not None for p in registered["registrants"]] == [True, True]
    assert first_export["registrations"][1]["entry"] is not None  # its entry, withdrawn
    assert first_export["registrations"][2]["language"] == "fr"
    assert first_export["registrations"][2]["registrants"][1]["emails_stopped"] is True
    assert first_export["registrations"][5]["refusal"] == "Members only"
    assert "secret" not in str(first_export["registrations"])

    copy_ = event_import(data=copy.deepcopy(first_export), actor=None).event
    assert without_moment(event_export(event=copy_)) == without_moment(first_export)
    # The waiting list in its order; each player a new private link; the new server's address.
    assert [r.registrants.get(position=1).name for r in reg.waiting_list(copy_)] == ["Gus", "Ed"]
    old = set(Registrant.objects.filter(registration__event=event).values_list("secret", flat=True))
    new = set(Registrant.objects.filter(registration__event=copy_).values_list("secret", flat=True))
    assert len(new) == 12 and not old & new
    assert {r.base_url for r in Registration.objects.filter(event=copy_)} == {
        "http://127.0.0.1:8000"
    }
    entered = Registration.objects.get(event=copy_, name="Aces")
    assert entered.entry is not None and entered.entry.event_id == copy_.id


def test_an_import_tells_no_one_and_moves_no_one_on(django_capture_on_commit_callbacks):
    """Its rounds, a finished event and withdrawn entries are the old server's news."""
    event = signed_up_event()
    document = event_export(event=event)
    document["event"]["status"] = "finished"
    document["rounds"] = [
        {"number": 1, "label": "", "status": "ready", "started_at": None},
    ]
    messages = OutboxMessage.objects.count()
    with django_capture_on_commit_callbacks(execute=True):
        copy_ = event_import(data=document, actor=None).event
    assert OutboxMessage.objects.count() == messages
    assert [r.status for r in Registration.objects.filter(event=copy_).order_by("id")] == [
        "registered",
        "withdrawn",
        "waiting",
        "waiting",
        "pending",
        "refused",
    ]


def test_a_document_without_sign_ups_still_imports_closed():
    event = signed_up_event()
    document = event_export(event=event)
    del document["registrations"]
    for name in ("registration", "capacity", "registration_closes_at"):
        del document["event"][name]
    copy_ = event_import(data=document, actor=None).event
    assert (copy_.registration, copy_.capacity, copy_.registration_closes_at) == (
        "closed",
        None,
        None,
    )
    assert not Registration.objects.filter(event=copy_).exists()


def in_sign_up(index: int, **values: Any) -> Change:
    return lambda d: d["registrations"][index].update(values)


def in_registrant(index: int, place: int, **values: Any) -> Change:
    return lambda d: d["registrations"][index]["registrants"][place - 1].update(values)


@pytest.mark.parametrize(
    ("change", "sentence"),
    [
        (
            in_sign_up(0, status="approved"),
            'Registration 1 of the file: the status "approved" is not one of: pending, '
            "registered, waiting, refused, withdrawn.",
        ),
        (
            in_sign_up(2, waiting_order=0),
            "Registration 3 of the file: the waiting_order 0 is not a whole number from 1 to "
            "1000000 (or empty).",
        ),
        (
            in_sign_up(2, waiting_order=1),
            "Registrations 3 and 4 of the file both have waiting order 1.",
        ),
        (
            in_sign_up(2, waiting_order=None),
            "Registration 3 of the file: a sign-up on the waiting list needs its waiting_order.",
        ),
        (
            in_sign_up(4, waiting_order=5),
            "Registration 5 of the file: only a sign-up on the waiting list has a waiting_order.",
        ),
        (
            in_sign_up(0, entry=99),
            "Registration 1 of the file: its entry 99 is not an entry of the file.",
        ),
        (
            lambda d: d["registrations"][5].update(entry=d["registrations"][0]["entry"]),
            "Registrations 1 and 6 of the file both became entry",
        ),
        (
            lambda d: d["registrations"][4].update(entry=d["registrations"][0]["entry"]),
            "Registration 5 of the file: a sign-up still pending or waiting holds no entry.",
        ),
        (
            in_sign_up(0, name="x" * 161),
            'Registration 1 of the file: the name "' + "x" * 38 + "… is longer than 160 "
            "characters.",
        ),
        (
            in_sign_up(0, language="xx"),
            'Registration 1 of the file: the language "xx" is not one this server speaks.',
        ),
        (
            in_sign_up(0, created_at="yesterday"),
            'Registration 1 of the file: the created_at "yesterday" is not a time',
        ),
        (
            in_registrant(0, 2, name="y" * 121),
            'Registration 1 of the file, player 2: the name "' + "y" * 38 + "… is longer than "
            "120 characters.",
        ),
        (
            in_registrant(0, 2, email="not an email"),
            'Registration 1 of the file, player 2: the email "not an email" is not an email '
            "address.",
        ),
        (
            in_registrant(0, 2, email=""),
            "Registration 1 of the file, player 2: the email is empty.",
        ),
        (
            in_registrant(0, 2, email="ANN@example.org"),
            'Registration 1 of the file: its players 1 and 2 have one email, "ann@example.org": '
            "each player signs up with their own.",
        ),
        (
            in_registrant(0, 2, position=1),
            "Registration 1 of the file, player 2: a sign-up's players must be numbered 1, 2 in "
            "order.",
        ),
        (
            in_registrant(0, 2, player=999),
            "Registration 1 of the file, player 2: its player 999 is not a player of the file.",
        ),
        (
            lambda d: d["registrations"][0]["registrants"].pop(),
            "Registration 1 of the file: its registrants [{",
        ),
        (
            in_registrant(4, 1, email="ed@example.org"),
            'Registrations 3 and 5 of the file both sign up "ed@example.org", and an email '
            "signs up once while its sign-up is pending, registered or waiting.",
        ),
        (
            lambda d: d["event"].update(capacity=0),
            "The event: the capacity 0 is not a whole number from 1 to 9999 (or empty).",
        ),
        (
            lambda d: d["event"].update(registration="always"),
            'The event: the registration "always" is not one of:',
        ),
        (
            lambda d: d.update(registrations={}),
            "The file: its 'registrations' {} is not a list.",
        ),
    ],
)
def test_a_bad_sign_up_is_refused_by_its_row_and_writes_nothing(change, sentence):
    event = signed_up_event()
    document = event_export(event=event)
    change(document)
    api = APIClient()
    api.force_authenticate(member(event.club, Role.ORGANISER))
    before = row_counts()
    answer = post_import(api, document)
    assert answer.status_code == 400, answer.content
    detail = answer.json()["detail"]
    refusal_is_a_sentence_about_the_file(detail)
    assert detail.startswith(sentence), detail
    assert row_counts() == before


def test_an_email_signed_up_again_after_a_refusal_is_imported():
    """A refused or withdrawn sign-up holds no place: its email may sign up again."""
    event = signed_up_event()
    document = event_export(event=event)
    document["registrations"][4]["registrants"][0]["email"] = "kim@example.org"
    copy_ = event_import(data=document, actor=None).event
    assert (
        Registrant.objects.filter(registration__event=copy_, email="kim@example.org").count() == 2
    )


@pytest.mark.parametrize(("format", "teams"), [("progressive", 8), ("double_elimination", 6)])
def test_sign_ups_of_a_drawn_event_round_trip_and_every_page_reads(format, teams):
    """The damaged-file fuzz's events with sign-ups: each one's own page, by its new link, and
    the organiser's list answer."""
    event = make_event(teams=teams, format=format)
    generate(event)
    event = with_sign_ups(event)
    document = event_export(event=event)
    assert [r["status"] for r in document["registrations"]] == [
        "registered",
        "waiting",
        "pending",
        "refused",
    ]
    api = APIClient()
    api.force_authenticate(member(event.club, Role.ORGANISER))
    answer = post_import(api, document)
    assert answer.status_code == 201, answer.content
    copy_ = Event.objects.get(id=answer.json()["id"])
    assert without_moment(event_export(event=copy_)) == without_moment(document)
    assert_every_read_answers(copy_)
