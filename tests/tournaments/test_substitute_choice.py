"""The game page's substitute form asks which record a name is as registration does: a radio
button per record, with what tells them apart, and one for a new record; no typed id."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

from kaiser_club.roles import Role
from tests.factories import member
from tournaments import services
from tournaments.models import Pairing

from .helpers import game_of, generate
from .people_world import club_with_admin, members, records_named
from .test_one_person import two_stans

pytestmark = pytest.mark.django_db


def _game_and_organiser() -> tuple[Pairing, Client, list]:  # type: ignore[type-arg]
    club, _admin = club_with_admin()
    stans = two_stans(club)
    regulars = members(club, ["Ann Amyot", "Bob Bear", "Cy Cote", "Dot Dion"])
    event = services.event_create(
        club=club,
        name="Swiss",
        date=dt.date(2026, 11, 5),
        format="swiss",
        rounds=3,
        check_in_required=False,
    )
    for one, two in (regulars[:2], regulars[2:]):
        services.entry_register_team_unchecked(event=event, player_one=one, player_two=two)
    generate(event)
    client = Client()
    client.force_login(member(club, Role.ORGANISER, username="olive"))
    return Pairing.objects.get(event=event), client, list(stans)


def _url(pairing: Pairing, action: str = "substitute") -> str:
    return reverse("tournaments:pairing-action", args=[pairing.event_id, pairing.id, action])


def test_the_form_offers_no_typed_record_id() -> None:
    pairing, client, _stans = _game_and_organiser()
    html = client.get(reverse("tournaments:pairing", args=[pairing.event_id, pairing.id]))
    text = html.content.decode()
    assert 'name="substitute_name"' in text
    assert 'name="substitute_record"' not in text  # asked only when the name needs it
    assert "the id of the right one" not in text


def test_two_records_of_the_name_are_offered_as_radio_buttons_and_the_one_chosen_is_seated() -> (
    None
):
    pairing, client, (member_stan, visitor_stan) = _game_and_organiser()
    form = {"replaced": game_of(pairing).north_id, "substitute_name": "stan melnyk"}
    asked = client.post(_url(pairing), form)
    assert asked.status_code == 409
    html = asked.content.decode()
    for stan in (member_stan, visitor_stan):
        assert f'type="radio" name="substitute_record" value="{stan.id}"' in html
    assert 'type="radio" name="substitute_record" value="new"' in html
    assert f"#{visitor_stan.id}, visitor of Saskatoon Kaiser, no games" in html
    assert "Which stan melnyk is this?" in html
    assert game_of(pairing).north.name == "Ann Amyot"  # nothing seated yet

    done = client.post(_url(pairing), {**form, "substitute_record": visitor_stan.id}, follow=True)
    assert "Substitute seated for this game." in done.content.decode()
    assert game_of(pairing).north_id == visitor_stan.id
    assert len(records_named("Stan Melnyk")) == 2


def test_new_seats_a_new_record_and_a_choice_that_is_no_record_is_refused() -> None:
    pairing, client, _stans = _game_and_organiser()
    form = {"replaced": game_of(pairing).east_id, "substitute_name": "Stan Melnyk"}
    refused = client.post(_url(pairing), {**form, "substitute_record": "Stan"})
    assert refused.status_code == 400
    assert "&#x27;Stan&#x27; is neither a player&#x27;s id nor new." in refused.content.decode()
    client.post(_url(pairing), {**form, "substitute_record": "new"})
    assert len(records_named("Stan Melnyk")) == 3
    assert game_of(pairing).east.name == "Stan Melnyk"
