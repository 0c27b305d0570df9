"""The public score sheet, round list and bracket say how each game ended
(the target, the minus line, stealing the five, time, a forfeit), read from the game
(``Game.end_text``), and a forfeit 52–0 is never shown as a played game."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import TestCase

from kaiser_club.actors import Actor
from kaiser_club.roles import Role
from tests.factories import member
from tests.tournaments.helpers import generate, make_event, win_for
from tournaments.models import Pairing
from tournaments.services import actions

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


@pytest.fixture
def bracket():
    """Four teams, single elimination: W1-1 won at the table, W1-2 forfeited by its home."""
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    played = Pairing.objects.select_related("home", "away").get(event=event, code="W1-1")
    forfeited = Pairing.objects.select_related("home", "away").get(event=event, code="W1-2")
    win_for(played, played.home)  # three 10 no-trump hands made: to the target
    organiser = member(event.club, Role.ORGANISER)
    with TestCase.captureOnCommitCallbacks(execute=True):
        actions.pairing_forfeit(
            actor=Actor.of(organiser), pairing=forfeited, forfeiting="home", reason=""
        )
    played.refresh_from_db()
    forfeited.refresh_from_db()
    return event, played, forfeited


def test_the_score_sheet_says_the_target_was_reached(client, bracket):
    event, played, _ = bracket
    assert played.game is not None and played.game.end_reason == "target"
    html = client.get(f"/e/{event.id}/games/{played.id}/").content.decode()
    assert f"{played.home.name} won: reached the target." in html


def test_a_forfeit_is_said_on_the_score_sheet_the_round_and_the_bracket(client, bracket):
    event, played, forfeited = bracket
    assert forfeited.result == "forfeit"
    html = client.get(f"/e/{event.id}/games/{forfeited.id}/").content.decode()
    assert f"{forfeited.away.name} won by forfeit." in html
    rounds = client.get(f"/e/{event.id}/rounds/1/").content.decode()
    assert "forfeit" in rounds
    drawing = client.get(f"/e/{event.id}/bracket/").content.decode()
    box = drawing[drawing.index(f"/games/{forfeited.id}/") :]
    box = box[: box.index("</a>")]
    assert "· forfeit" in box
    played_box = drawing[drawing.index(f"/games/{played.id}/") :]
    played_box = played_box[: played_box.index("</a>")]
    assert "· target" in played_box and "forfeit" not in played_box


def test_french_says_it_too(client, bracket):
    event, played, forfeited = bracket
    client.cookies["django_language"] = "fr"
    html = client.get(f"/e/{event.id}/games/{forfeited.id}/").content.decode()
    assert f"{forfeited.away.name} a gagné par forfait." in html
    html = client.get(f"/e/{event.id}/games/{played.id}/").content.decode()
    assert f"{played.home.name} a gagné\u00a0: a atteint l’objectif." in html
