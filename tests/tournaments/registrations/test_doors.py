"""The two doors of a sign-up (the API without an account, the public page) and the
organiser's API: the same service, the same answers; rate limits and robots refused; no
e-mail address shown to anyone but the organiser and its owner."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from kaiser_club.roles import Role
from tests.factories import member
from tournaments.models import Registration, RegistrationStatus

from .world import open_event, pair, sign_up

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()  # the rate limit's counts


def body(*people: tuple[str, str], name: str = "") -> str:
    return json.dumps({"players": [{"name": n, "email": e} for n, e in people], "name": name})


def post_api(client: Client, event_id: int, data: str, **extra: Any) -> Any:
    return client.post(
        f"/api/events/{event_id}/registrations/", data, content_type="application/json", **extra
    )


def test_the_api_signs_up_without_an_account_and_says_the_place(client: Client) -> None:
    event = open_event(capacity=1)
    first = post_api(client, event.id, body(("A", "a@x.org"), ("B", "b@x.org"), name="Aces"))
    assert first.status_code == 201, first.content
    assert first.json()["status"] == "registered"
    second = post_api(client, event.id, body(("C", "c@x.org"), ("D", "d@x.org")))
    assert second.json() | {"id": 0} == {
        "id": 0,
        "status": "waiting",
        "place": 1,
        "message": "On the waiting list",
        "refusal": "",
    }
    assert "c@x.org" not in second.content.decode()


def test_the_api_refuses_with_a_sentence_in_the_readers_language(client: Client) -> None:
    event = open_event(capacity=4)
    post_api(client, event.id, body(("A", "a@x.org"), ("B", "b@x.org")))
    again = post_api(
        client, event.id, body(("A", "a@x.org"), ("E", "e@x.org")), HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert again.status_code == 400
    assert again.json()["code"] == "already_signed_up"
    assert "est déjà inscrit" in again.json()["detail"]


@pytest.mark.parametrize(
    "data",
    [
        "{}",
        '{"players": []}',
        '{"players": "x"}',
        '{"players": [{"name": 1}]}',
        '{"players": [{"name": "a", "email": "a@x.org"}, {"name": "b", "email": ""}]}',
        json.dumps({"players": [{"name": "x" * 401, "email": "a@x.org"}] * 2}),
        "not json",
    ],
)
def test_bad_bodies_are_400_never_500(client: Client, data: str) -> None:
    event = open_event(capacity=4)
    answer = post_api(client, event.id, data)
    assert answer.status_code == 400
    assert not Registration.objects.filter(event=event).exists()


def test_a_closed_or_unknown_event_is_not_found(client: Client) -> None:
    closed = open_event(capacity=4, registration="closed")
    assert post_api(client, closed.id, body(("A", "a@x.org"), ("B", "b@x.org"))).status_code == 404
    assert post_api(client, 999999, body(("A", "a@x.org"), ("B", "b@x.org"))).status_code == 404
    assert client.get(f"/e/{closed.id}/register/").status_code == 404


@override_settings(REGISTRATION_RATE="3/m")
def test_sign_ups_are_rate_limited_per_client(client: Client) -> None:
    event = open_event(capacity=40)
    codes = [
        post_api(
            client, event.id, body((f"A{n}", f"a{n}@x.org"), (f"B{n}", f"b{n}@x.org"))
        ).status_code
        for n in range(4)
    ]
    assert codes == [201, 201, 201, 429]
    other = post_api(
        client, event.id, body(("Z", "z@x.org"), ("Y", "y@x.org")), REMOTE_ADDR="10.9.9.9"
    )
    assert other.status_code == 201


def test_the_organiser_lists_and_decides_a_player_may_not(client: Client) -> None:
    event = open_event(capacity=1, registration="approval")
    registration = sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    client.force_login(member(event.club, Role.PLAYER))
    url = f"/api/events/{event.id}/registrations/"
    assert client.get(url).status_code == 403
    refused = client.post(f"{url}{registration.id}/approve/")
    assert refused.status_code == 403
    client.force_login(member(event.club, Role.ORGANISER))
    listed = client.get(url).json()
    assert listed[0]["registrants"][0]["email"] == "a@x.org"  # the organiser sees e-mails
    approved = client.post(f"{url}{registration.id}/approve/")
    assert approved.json()["status"] == "registered"
    again = client.post(f"{url}{registration.id}/approve/")
    assert again.status_code == 400
    assert client.post(f"{url}{registration.id}/dance/").status_code == 404


def test_the_events_api_says_and_sets_the_registration(client: Client) -> None:
    event = open_event(capacity=None, registration="closed")
    client.force_login(member(event.club, Role.ORGANISER))
    changed = client.patch(
        f"/api/events/{event.id}/",
        {"registration": "open", "capacity": 12, "registration_closes_at": "2026-11-27T18:00Z"},
        content_type="application/json",
    )
    assert changed.status_code == 200, changed.content
    data = client.get(f"/api/events/{event.id}/").json()
    assert (data["registration"], data["capacity"]) == ("open", 12)
    assert data["registration_closes_at"].startswith("2026-11-27")
    bad = client.patch(f"/api/events/{event.id}/", {"capacity": 0}, content_type="application/json")
    assert bad.status_code == 400


def form(event_id: int, client: Client, **fields: str) -> dict[str, str]:
    page = client.get(f"/e/{event_id}/register/")
    assert page.status_code == 200
    data = {
        "player_1_name": "Anne",
        "player_1_email": "anne@x.org",
        "player_2_name": "Bob",
        "player_2_email": "bob@x.org",
        "stamp": page.context["form"].initial["stamp"],
        "website": "",
    }
    return data | fields


@pytest.fixture
def patient(monkeypatch: pytest.MonkeyPatch) -> None:
    """The form may be sent at once (the tests type faster than a person)."""
    monkeypatch.setattr("tournaments.registration_limits.FASTEST_SECONDS", -1)


@pytest.mark.usefixtures("patient")
def test_the_page_signs_up_and_waits_past_the_capacity(client: Client) -> None:
    event = open_event(capacity=1)
    answer = client.post(f"/e/{event.id}/register/", form(event.id, client))
    assert answer.status_code == 201
    assert b"You are registered." in answer.content
    second = form(event.id, client, player_1_email="c@x.org", player_2_email="d@x.org")
    answer = client.post(f"/e/{event.id}/register/", second, HTTP_ACCEPT_LANGUAGE="fr")
    assert "numéro 1 sur la liste d'attente" in answer.content.decode()
    assert Registration.objects.filter(status=RegistrationStatus.WAITING).count() == 1


@pytest.mark.usefixtures("patient")
def test_the_page_shows_a_refusal_under_its_field(client: Client) -> None:
    event = open_event(capacity=4)
    answer = client.post(
        f"/e/{event.id}/register/", form(event.id, client, player_2_email="anne@x.org")
    )
    assert answer.status_code == 400
    assert b"Each player needs their own e-mail address." in answer.content
    assert not Registration.objects.exists()


def test_a_robot_is_refused_by_the_hidden_field_or_its_speed(client: Client) -> None:
    event = open_event(capacity=4)
    too_fast = client.post(f"/e/{event.id}/register/", form(event.id, client))
    assert too_fast.status_code == 400
    assert b"The form could not be read" in too_fast.content
    forged = client.post(f"/e/{event.id}/register/", form(event.id, client, stamp="x:y"))
    assert forged.status_code == 400
    assert not Registration.objects.exists()


@pytest.mark.usefixtures("patient")
def test_the_honeypot_filled_in_is_refused(client: Client) -> None:
    event = open_event(capacity=4)
    answer = client.post(f"/e/{event.id}/register/", form(event.id, client, website="http://x"))
    assert answer.status_code == 400
    assert not Registration.objects.exists()


def test_the_own_page_by_its_secret_only_and_no_one_elses_address(client: Client) -> None:
    event = open_event(capacity=4)
    registration = sign_up(event, pair("Anne", "anne@x.org", "Bob", "bob@x.org"))
    anne = registration.registrants.get(position=1)
    page = client.get(f"/e/{event.id}/me/{anne.secret}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Anne &amp; Bob" in text
    assert "bob@x.org" not in text and "anne@x.org" not in text
    assert page["Cache-Control"].count("no-store") == 1
    assert client.get(f"/e/{event.id}/me/{anne.secret}x/").status_code == 404
    other = open_event(capacity=4)
    assert client.get(f"/e/{other.id}/me/{anne.secret}/").status_code == 404
    assert client.get(f"/e/{event.id}/me/{anne.secret}/?part=1").status_code == 200


def test_a_player_withdraws_and_stops_the_e_mails_from_their_page(client: Client) -> None:
    event = open_event(capacity=4)
    registration = sign_up(event, pair("Anne", "anne@x.org", "Bob", "bob@x.org"))
    anne = registration.registrants.get(position=1)
    asked = client.get(f"/e/{event.id}/me/{anne.secret}/stop-emails/")
    assert b"Stop the e-mails about this event?" in asked.content
    anne.refresh_from_db()
    assert not anne.emails_stopped  # opening the link changes nothing
    client.post(f"/e/{event.id}/me/{anne.secret}/stop-emails/")
    anne.refresh_from_db()
    assert anne.emails_stopped
    client.post(f"/e/{event.id}/me/{anne.secret}/withdraw/")
    registration.refresh_from_db()
    assert registration.status == RegistrationStatus.WITHDRAWN


def test_the_public_pages_link_the_sign_up_while_it_is_open(client: Client) -> None:
    event = open_event(capacity=4)
    assert f"/e/{event.id}/register/" in client.get(f"/e/{event.id}/").content.decode()
    assert f"/e/{event.id}/register/" in client.get("/e/").content.decode()


def test_the_organisers_page_decides_and_the_settings_open_the_sign_up(client: Client) -> None:
    event = open_event(capacity=1, registration="approval")
    pending = sign_up(event, pair("Anne", "anne@x.org", "Bob", "bob@x.org"))
    client.force_login(member(event.club, Role.PLAYER))
    assert client.get(f"/events/{event.id}/sign-ups/").status_code == 403
    client.force_login(member(event.club, Role.ORGANISER))
    page = client.get(f"/events/{event.id}/sign-ups/")
    assert b"anne@x.org" in page.content  # the organiser sees the addresses
    base = f"/events/{event.id}/sign-ups/{pending.id}"
    client.post(f"{base}/approve/")
    pending.refresh_from_db()
    assert pending.status == RegistrationStatus.REGISTERED
    again = client.post(f"{base}/approve/", follow=True)
    assert b"this cannot be done now" in again.content
    anne = pending.registrants.get(position=1)
    old = anne.secret
    client.post(f"{base}/renew-link/", {"registrant": str(anne.id)})
    anne.refresh_from_db()
    assert anne.secret != old
    assert client.post(f"{base}/renew-link/", {"registrant": "x"}).status_code == 404
    assert client.post(f"{base}/dance/").status_code == 404
    client.post(f"{base}/refuse/", {"reason": "Full of members"})
    pending.refresh_from_db()
    assert (pending.status, pending.refusal) == ("refused", "Full of members")


def test_the_settings_page_opens_sign_ups(client: Client) -> None:
    event = open_event(capacity=None, registration="closed")
    client.force_login(member(event.club, Role.ORGANISER))
    form = client.get(f"/events/{event.id}/settings/").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None and k != "tiebreaks"}
    data.update(
        {
            "settings": "1",
            "registration": "open",
            "capacity": "16",
            "registration_closes_at": "2026-11-27T18:00",
            "date": "2026-11-28",
            "tiebreaks_wins": "1",
            "tiebreaks_point_difference": "2",
        }
    )
    data.pop("season", None)
    client.post(f"/events/{event.id}/settings/", data)
    event.refresh_from_db()
    assert (event.registration, event.capacity) == ("open", 16)
    assert event.registration_closes_at is not None
