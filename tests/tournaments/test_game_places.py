"""The lists of games say at which event each was played, with a link to its public pages:
the club's games list and the player's page (scoring.places, filled by tournaments)."""

from __future__ import annotations

import pytest
from django.test import Client

from kaiser_club.roles import Role
from scoring.models import Game
from tests.factories import member, start_game
from tests.kaiser_club.club_helpers import join
from tournaments.models import Event, Pairing

from .helpers import generate, make_event, win_for

pytestmark = pytest.mark.django_db


def test_the_games_list_and_the_players_page_name_the_event_and_link_it():
    event = make_event(teams=2, format="swiss")
    generate(event)
    pairing = Pairing.objects.select_related("home__team").get(event=event)
    win_for(pairing, pairing.home)
    club_game = start_game(club=event.club)
    client = Client()
    client.force_login(member(event.club, Role.PLAYER))
    listed = client.get("/games/").content.decode()
    row = listed[listed.index(f"/games/{pairing.game_id}/") - 400 :]
    assert f'<a href="/e/{event.id}/">{event.name}</a>' in row[:600]
    club_row = listed[listed.index(f"/games/{club_game.id}/") - 300 :]
    assert "club game" in club_row[:400]

    assert pairing.home is not None and pairing.home.team is not None
    player = pairing.home.team.player_one
    join(event.club, player)  # a player's page is for their clubs' members
    page = client.get(f"/players/{player.id}/").content.decode()
    assert f'<a href="/e/{event.id}/">{event.name}</a>' in page

    Event.objects.filter(id=event.id).update(public_pages=False)  # no public page to link
    page = client.get(f"/players/{player.id}/").content.decode()
    assert event.name in page and f'href="/e/{event.id}/"' not in page
    assert pairing.game_id is not None and Game.objects.filter(id=pairing.game_id).exists()
