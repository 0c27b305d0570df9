"""Navigation that follows the organiser's day: one event menu on every event page, linking the
reports, the public pages and the projector; a public index of events at /e/."""

from __future__ import annotations

import pytest

from kaiser_club.roles import Role
from tests.factories import member
from tests.tournaments.helpers import generate, make_event

pytestmark = pytest.mark.django_db


def _menu(html: str) -> str:
    start = html.index('<nav class="event-nav"')
    return html[start : html.index("</nav>", start)]


@pytest.fixture
def event_and_organiser(client):
    event = make_event(teams=4, format="single_elimination")
    client.force_login(member(event.club, Role.ORGANISER))
    generate(event)
    return event


def test_every_organiser_page_of_an_event_has_the_whole_menu(client, event_and_organiser):
    event = event_and_organiser
    pages = [
        f"/events/{event.id}/",
        f"/events/{event.id}/entries/",
        f"/events/{event.id}/bracket/",
        f"/events/{event.id}/rounds/1/",
        f"/events/{event.id}/tables/",
        f"/events/{event.id}/settings/",
        f"/events/{event.id}/reports/",
        f"/events/{event.id}/games/{event.pairings.first().id}/",
    ]
    for url in pages:
        answer = client.get(url)
        assert answer.status_code == 200, url
        menu = _menu(answer.content.decode())
        for link in [
            f"/events/{event.id}/entries/",
            f"/events/{event.id}/bracket/",
            f"/events/{event.id}/tables/",
            f"/events/{event.id}/settings/",
            f"/events/{event.id}/reports/",
            f"/events/{event.id}/export.json",
            f"/e/{event.id}/",
            f"/e/{event.id}/projector/",
        ]:
            assert f'href="{link}"' in menu, (url, link)


def test_a_player_sees_the_menu_without_the_organisers_links(client):
    event = make_event(teams=4)
    client.force_login(member(event.club, Role.PLAYER))
    menu = _menu(client.get(f"/events/{event.id}/").content.decode())
    assert f"/events/{event.id}/entries/" in menu and f"/e/{event.id}/" in menu
    assert "reports" not in menu and "settings" not in menu


def test_private_events_have_no_public_links(client, event_and_organiser):
    event = event_and_organiser
    event.public_pages = False
    event.save(update_fields=["public_pages"])
    menu = _menu(client.get(f"/events/{event.id}/").content.decode())
    assert f"/e/{event.id}/" not in menu


def test_the_public_index_lists_only_public_events_and_the_home_page_links_it(client):
    shown = make_event(teams=2)
    hidden = make_event(teams=2)
    hidden.name = "Private night"
    hidden.public_pages = False
    hidden.save(update_fields=["name", "public_pages"])
    home = client.get("/").content.decode()
    assert 'href="/e/"' in home
    answer = client.get("/e/")
    assert answer.status_code == 200
    html = answer.content.decode()
    assert f'href="/e/{shown.id}/"' in html and "Private night" not in html


def test_the_public_index_reads_a_fixed_number_of_queries(client, django_assert_max_num_queries):
    for _ in range(5):
        make_event(teams=2)
    with django_assert_max_num_queries(3):
        assert client.get("/e/").status_code == 200
