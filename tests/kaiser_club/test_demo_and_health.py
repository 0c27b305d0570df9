"""`manage.py load_demo` (what `make demo` serves) and the health check."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.test import Client

from kaiser_club.models import Club, Membership
from kaiser_club.roles import Role
from scoring.models import Game, Hand

pytestmark = pytest.mark.django_db


def test_load_demo_builds_clubs_people_and_games_and_can_run_twice() -> None:
    out = StringIO()
    call_command("load_demo", stdout=out)
    assert "Demo data ready." in out.getvalue()
    regina = Club.objects.get(slug="regina-kaiser")
    for username, role in [
        ("clubadmin", Role.CLUB_ADMIN),
        ("organiser", Role.ORGANISER),
        ("scorekeeper", Role.SCOREKEEPER),
        ("player", Role.PLAYER),
    ]:
        assert Membership.objects.get(club=regina, player__user__username=username).role == role
    assert User.objects.get(username="admin").is_superuser
    games = Game.objects.filter(club=regina)
    assert games.filter(status="finished").exists()
    assert games.filter(status="in_progress").exists()
    assert games.filter(from_paper=True).exists()
    assert Hand.objects.filter(game__club=regina).exists()
    counts = (Club.objects.count(), Game.objects.count(), Hand.objects.count())
    call_command("load_demo", stdout=StringIO())
    assert (Club.objects.count(), Game.objects.count(), Hand.objects.count()) == counts


def test_the_health_check_answers_with_the_database() -> None:
    answer = Client().get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"ok": True}


def test_every_page_names_its_icon_so_browsers_do_not_ask_for_favicon_ico() -> None:
    home = Client().get("/")
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in (
        home.content.decode()
    )
    found = finders.find("favicon.svg")
    assert found and Path(found).read_text(encoding="utf-8").startswith("<svg")
