"""The round page shows the time left, and controls only where they can act."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from kaiser_club.roles import Role
from scoring.models import Game
from tests.factories import member
from tests.tournaments.helpers import generate, make_event, win_for
from tournaments import services
from tournaments.clock_words import clock_text
from tournaments.models import Pairing, Round

pytestmark = pytest.mark.django_db

CLOCK_CONTROLS = ("Pause every clock", "Add minutes to every clock", ">Resume<")


def organiser(client, event):
    client.force_login(member(event.club, Role.ORGANISER))
    return client


def test_a_running_clock_shows_the_minutes_left_not_the_deadline(client):
    event = make_event(teams=4, format="swiss", minutes_per_game=60)
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    services.round_start_unchecked(round_=round_)
    started = timezone.now() - dt.timedelta(minutes=48, seconds=30)
    Game.objects.filter(pairing__event=event).update(started_at=started)
    organiser(client, event)
    html = client.get(f"/events/{event.id}/rounds/1/").content.decode()
    assert "Time left" in html and "12 min left" in html
    deadline = (started + dt.timedelta(minutes=60)).astimezone(timezone.get_current_timezone())
    assert deadline.strftime("%H:%M") not in html
    for control in CLOCK_CONTROLS:
        assert control in html


def test_time_left_in_words():
    now = timezone.now()
    game = Game(
        status="in_progress",
        time_limit_minutes=60,
        started_at=now - dt.timedelta(minutes=50),
        paused_at=now - dt.timedelta(minutes=10),
    )
    assert clock_text(game, now) == "paused · 20 min left"
    game.paused_at = None
    assert clock_text(game, now) == "10 min left"
    game.time_called_at = now
    assert clock_text(game, now) == "time called"
    assert clock_text(Game(status="in_progress", time_limit_minutes=None), now) == ""
    assert clock_text(Game(status="finished", time_limit_minutes=60), now) == ""


def test_a_finished_round_offers_no_clock_controls(client):
    event = make_event(teams=2, format="swiss", rounds=1, minutes_per_game=60)
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    services.round_start_unchecked(round_=round_)
    pairing = Pairing.objects.get(round=round_, away__isnull=False)
    win_for(pairing, pairing.home)
    round_.refresh_from_db()
    assert round_.status == "finished"
    organiser(client, event)
    html = client.get(f"/events/{event.id}/rounds/1/").content.decode()
    for control in (*CLOCK_CONTROLS, "Start the round"):
        assert control not in html
    game_page = client.get(f"/events/{event.id}/games/{pairing.id}/").content.decode()
    assert ">Pause<" not in game_page and "Add minutes" not in game_page


def test_a_night_without_a_clock_shows_no_clock(client):
    event = make_event(teams=4, format="swiss")
    event.rules = {**event.rules, "time_limit_minutes": None}
    event.minutes_per_game = None
    event.save(update_fields=["rules", "minutes_per_game"])
    assert not event.time_limit
    generate(event)
    organiser(client, event)
    html = client.get(f"/events/{event.id}/rounds/1/").content.decode()
    assert "Start the round" in html and "every clock" not in html
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    html = client.get(f"/events/{event.id}/rounds/1/").content.decode()
    assert "Time left" not in html and "not started" not in html
    for control in CLOCK_CONTROLS:
        assert control not in html
    pairing = Pairing.objects.filter(event=event, away__isnull=False).first()
    assert pairing is not None
    game_page = client.get(f"/events/{event.id}/games/{pairing.id}/").content.decode()
    assert ">Pause<" not in game_page and "Add minutes" not in game_page
