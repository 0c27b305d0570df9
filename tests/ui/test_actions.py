"""Readable controls, refusals shown where the request was made, and destructive actions that
ask first and can be undone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.db.models import Q

from kaiser_club.models import Membership
from kaiser_club.roles import Role
from tests.factories import member
from tests.tournaments.helpers import generate, make_event
from tournaments.models import Entry, Pairing

pytestmark = pytest.mark.django_db

STATIC = Path(django_settings.BASE_DIR) / "static"


def organiser(client, event):
    client.force_login(member(event.club, Role.ORGANISER))
    return client


def test_withdraw_asks_first_then_withdraws_and_can_be_undone(client):
    event = make_event(teams=4, format="swiss")
    generate(event)
    organiser(client, event)
    entry = Entry.objects.get(event=event, seed=4)
    url = f"/events/{event.id}/entries/{entry.id}/"
    asked = client.post(f"{url}withdraw/")
    assert asked.status_code == 200
    assert "Withdraw Team 4?" in asked.content.decode()
    entry.refresh_from_db()
    assert entry.status == "registered", "nothing happens before the confirmation"
    done = client.post(f"{url}withdraw/", {"confirm": "1", "reason": "ill"}, follow=True)
    entry.refresh_from_db()
    assert entry.status == "withdrawn"
    html = done.content.decode()
    assert "1 unfinished game forfeited" in html and f"{url}reinstate/" in html
    back = client.post(f"{url}reinstate/", follow=True)
    entry.refresh_from_db()
    assert entry.status == "registered" and entry.withdrawn_at is None
    assert "Team 4 is back" in back.content.decode()
    forfeit = Pairing.objects.get(Q(home=entry) | Q(away=entry), event=event, round__number=1)
    assert forfeit.result == "forfeit", "the forfeit stands"


def test_reinstating_an_entry_that_did_not_withdraw_is_refused(client):
    event = make_event(teams=2, format="swiss")
    organiser(client, event)
    entry = Entry.objects.get(event=event, seed=1)
    answer = client.post(f"/events/{event.id}/entries/{entry.id}/reinstate/", follow=True)
    assert "Team 1 has not withdrawn." in answer.content.decode()


def test_the_api_reinstates_too(client):
    event = make_event(teams=2, format="swiss")
    organiser(client, event)
    entry = Entry.objects.get(event=event, seed=1)
    client.post(f"/api/events/{event.id}/entries/{entry.id}/withdraw/", {})
    answer = client.post(f"/api/events/{event.id}/entries/{entry.id}/reinstate/")
    assert answer.status_code == 200 and answer.json()["status"] == "registered"
    again = client.post(f"/api/events/{event.id}/entries/{entry.id}/reinstate/")
    assert again.status_code == 400 and "has not withdrawn" in again.json()["detail"]


def test_link_buttons_are_not_white_on_cream():
    css = (STATIC / "css" / "site.css").read_text()
    button = css.index(".button, button {")
    link = css.index("button.link, .button.link {")
    assert link > button, "the link rule comes after the button rule, so it wins"
    rule = css[link : css.index("}", link)]
    assert "color: var(--accent)" in rule and "background: none" in rule


def test_every_page_loads_the_one_htmx_error_handler(client):
    event = make_event(teams=2, format="swiss")
    organiser(client, event)
    html = client.get(f"/events/{event.id}/").content.decode()
    assert html.count("js/htmx-errors.js") == 1
    assert re.search(r'data-htmx-error="[^"]+"', html)
    script = (STATIC / "js" / "htmx-errors.js").read_text()
    assert "htmx:beforeSwap" in script and "htmx:sendError" in script


def test_demoting_the_only_club_admin_answers_the_row_as_it_was_with_the_sentence(client):
    event = make_event(teams=0, format="swiss")
    club = event.club
    admin = member(club, Role.CLUB_ADMIN)
    client.force_login(admin)
    membership = Membership.objects.get(club=club, player__user=admin)
    answer = client.post(
        f"/clubs/{club.slug}/members/{membership.id}/role/",
        {"role": Role.PLAYER},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 400
    html = answer.content.decode()
    assert answer["Content-Type"].startswith("text/html")  # the handler swaps it in
    assert f'<option value="{Role.CLUB_ADMIN}" selected>' in html  # the dropdown goes back
    assert 'role="alert"' in html
