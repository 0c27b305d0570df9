"""Django admin for every model of the people and the games: registered, and every admin page
(list, add, change) opens for a superuser."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.db.models import Model
from django.test import Client
from django.urls import reverse

from kaiser_club.roles import Role
from scoring import services
from tests.factories import member, start_game
from tests.scoring.hands import NS, N, make_user, played, record

pytestmark = pytest.mark.django_db

APPS = ("kaiser_club", "scoring")


def models_of_the_foundation() -> list[type[Model]]:
    return [model for name in APPS for model in apps.get_app_config(name).get_models()]


def test_every_model_has_an_admin() -> None:
    missing = [m.__name__ for m in models_of_the_foundation() if not admin.site.is_registered(m)]
    assert missing == []


def test_every_admin_page_opens_for_a_superuser() -> None:
    game = start_game()
    record(game, played(N, 7, 6, NS, NS.other))
    services.game_call_time(game_id=game.id)
    member(game.club, Role.ORGANISER)
    client = Client()
    client.force_login(make_user(is_staff=True, is_superuser=True))
    for model in models_of_the_foundation():
        if not admin.site.is_registered(model):
            continue
        meta = model._meta
        listing = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist"))
        assert listing.status_code == 200, meta.label
        adding = client.get(reverse(f"admin:{meta.app_label}_{meta.model_name}_add"))
        assert adding.status_code in (200, 403), meta.label  # some models are read-only
        first = model._default_manager.first()
        if first is not None:
            change = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[first.pk])
            assert client.get(change).status_code == 200, meta.label


def test_the_admin_is_for_staff_only() -> None:
    game = start_game()
    client = Client()
    client.force_login(member(game.club, Role.CLUB_ADMIN))
    answer = client.get("/admin/")
    assert answer.status_code == 302
    assert answer["Location"].startswith("/admin/login/")
