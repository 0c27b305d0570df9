"""Every page a person can reach, shown in French, leaves no English outside the allowed names
(tests/french_allowlist.py, shared with the browser test). The Django test client renders each
page; the browser test checks the same pages at three widths."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache

from scoring.models import Game
from tests.french_allowlist import english_left, visible_text
from tournaments.models import Pairing

from .french_world import a_table, build

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    cache.clear()
    return build()


def _french(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    return client


def organiser_pages(world) -> list[str]:
    club = world.club
    pages = [
        "/",
        "/events/",
        "/events/new/",
        "/events/import/",
        "/events/seasons/",
        f"/events/seasons/{world.events['night'].season_id}/",
        "/games/",
        "/clubs/",
        f"/clubs/{club.slug}/",
        f"/clubs/{club.slug}/members/add/",
        f"/clubs/{club.slug}/members/import/",
        f"/clubs/{club.slug}/members/merge/",
        f"/clubs/{club.slug}/members/past/",
        f"/players/ratings/{club.slug}/",
        f"/players/{world.players[0].id}/",
        f"/players/{world.players[0].id}/partners/{world.players[1].id}/",
    ]
    for event in world.events.values():
        e = f"/events/{event.id}/"
        pages += [e, f"{e}entries/", f"{e}tables/", f"{e}settings/", f"/events/{event.id}/reports/"]
        first_entry = event.entries.order_by("id").first()
        if first_entry is not None:  # its page to change it (the seed and players as allowed)
            pages.append(f"{e}entries/{first_entry.id}/edit/")
        if event.is_bracket or event.format == "pools":
            pages.append(f"{e}bracket/")
        if event.round_set.exists():
            pages.append(f"{e}rounds/1/")
        for pairing in Pairing.objects.filter(event=event).order_by("id")[:2]:
            pages.append(f"{e}games/{pairing.id}/")
    game = Game.objects.exclude(hands=None).order_by("id").first()
    if game is not None:
        pages.append(f"/games/{game.id}/")
    return pages


def public_pages(world) -> list[str]:
    pages = ["/", "/accounts/login/", "/e/"]
    for event in world.events.values():
        e = f"/e/{event.id}/"
        pages += [e, f"{e}standings/", f"{e}live/", f"{e}projector/"]
        if event.is_bracket or event.format == "pools":
            pages.append(f"{e}bracket/")
        if event.round_set.exists():
            pages.append(f"{e}rounds/1/")
        for pairing in Pairing.objects.filter(event=event).order_by("id")[:1]:
            pages.append(f"{e}games/{pairing.id}/")
        entry = event.entries.order_by("id").first()
        if entry is not None and entry.team_id:
            pages.append(f"{e}teams/{entry.id}/")
    from kaiser_club.members.invitations import invitation_create
    from kaiser_club.models import Membership

    invited = Membership.objects.filter(club=world.club, player=world.players[1]).get()
    pages.append(f"/invitations/{invitation_create(membership=invited).token}/")
    public_player = world.players[0]
    public_player.is_public = True
    public_player.save(update_fields=["is_public"])
    pages.append(f"/e/{world.events['swiss'].id}/players/{public_player.id}/")
    pages.append(f"/e/seasons/{world.events['night'].season_id}/")
    return pages


def _check(client, url: str, names: tuple[str, ...], problems: list[str]) -> None:
    answer = client.get(url, follow=True)
    if answer.status_code != 200:
        problems.append(f"{url}: answered {answer.status_code}")
        return
    if "html" not in answer.get("Content-Type", ""):
        return
    left = english_left(visible_text(answer.content.decode()), also_allowed=names)
    if left:
        problems.append(f"{url}: {left[:8]}")


def test_every_page_in_french_leaves_no_english(client, world):
    _french(client).force_login(world.organiser)
    problems: list[str] = []
    for url in organiser_pages(world):
        _check(client, url, world.names, problems)
    for table in world.events["swiss"].tables.all():  # a game over, a game under way
        _check(client, f"/t/{table.code}/", world.names, problems)
    client.logout()  # which forgets the cookies: the language one too
    _french(client)
    for url in public_pages(world):
        _check(client, url, world.names, problems)
    assert problems == [], "\n".join(problems)


def test_every_report_in_french_leaves_no_english(world):
    """The PDFs' HTML, rendered as the job runner renders it, in the asker's language."""
    from tournaments.models import ReportJob, Round
    from tournaments.reports.render import html_for

    swiss, knockout = world.events["swiss"], world.events["knockout"]
    first = Round.objects.get(event=swiss, number=1)
    played = Pairing.objects.filter(event=swiss, game__isnull=False).order_by("id").first()
    assert played is not None
    table = a_table(swiss)
    jobs: list[tuple[Any, str, dict[str, Any]]] = [
        (swiss, "standings", {}),
        (knockout, "bracket", {}),
        (swiss, "round_tables", {"round": first}),
        (swiss, "score_sheet", {"game_id": played.game_id}),
        (swiss, "blank_sheets", {"round": first}),
        (swiss, "table_cards", {"table": table}),
    ]
    problems = []
    for n, (event, kind, subject) in enumerate(jobs):
        job = ReportJob(event=event, kind=kind, subject=f"test-{n}", language="fr", **subject)
        job.base_url = "http://testserver/"
        left = english_left(visible_text(html_for(job)), also_allowed=world.names)
        if left:
            problems.append(f"{kind}: {left[:8]}")
    assert problems == [], "\n".join(problems)
