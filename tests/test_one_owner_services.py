"""One owner per action, for the actions whose doors used to decide who may act: the service
takes the actor and refuses, with the sentence the doors show, whoever lacks the role; a
refusal writes nothing. The API and the pages then answer alike (both checked here for the
member and event actions), and no door hands a raw ``request.user`` to a service."""

from __future__ import annotations

import ast
import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from django.test import Client
from rest_framework.test import APIClient

from kaiser_club.actors import Actor
from kaiser_club.errors import NotAllowed
from kaiser_club.members import invitations
from kaiser_club.members import services as members
from kaiser_club.models import Club, Invitation, Membership, Player
from kaiser_club.roles import Role
from scoring import services as scoring
from scoring.models import Game
from scoring.rules import Side
from tests.factories import ClubFactory, PlayerFactory, member, start_game
from tests.two_clubs import changes, snapshot
from tournaments.models import Event, GenerationJob, ReportJob
from tournaments.reports import services as reports
from tournaments.services import actions

from .tournaments.helpers import make_event

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.django_db


def _club() -> Club:
    return cast(Club, ClubFactory())


def _player() -> Player:
    return cast(Player, PlayerFactory())


def _game(club: Club) -> Game:
    game = start_game(club=club)
    scoring.clock_start(game_id=game.id)
    return game


def _actor(club: Club, role: Role) -> Actor:
    return Actor.of(member(club, role))


# Each action: (name, least role, make the objects, the call) - the call takes the actor and
# what make returned.
Make = Callable[[Club], Any]
Call = Callable[[Actor, Any], Any]


def _member_of(club: Club) -> Membership:
    return Membership.objects.create(club=club, player=_player(), role=Role.PLAYER)


ACTIONS: list[tuple[str, Role, Make, Call]] = [
    ("call time", Role.ORGANISER, _game, lambda a, g: scoring.game_call_time_by(actor=a, game=g)),
    (
        "forfeit",
        Role.ORGANISER,
        _game,
        lambda a, g: scoring.game_forfeit_by(actor=a, game=g, forfeited_by=Side.NS),
    ),
    ("pause", Role.ORGANISER, _game, lambda a, g: scoring.clock_pause_by(actor=a, game=g)),
    (
        "add minutes",
        Role.ORGANISER,
        _game,
        lambda a, g: scoring.clock_add_minutes_by(actor=a, game=g, minutes=5),
    ),
    (
        "create an event",
        Role.ORGANISER,
        lambda club: club,
        lambda a, club: actions.event_create_by(
            actor=a, club=club, name="Spring Open", date=dt.date(2026, 12, 5), rounds=3
        ),
    ),
    (
        "generate",
        Role.ORGANISER,
        lambda club: make_event(teams=4, club=club),
        lambda a, event: actions.generation_request_by(actor=a, event=event),
    ),
    (
        "ask for a report",
        Role.ORGANISER,
        lambda club: make_event(teams=4, club=club),
        lambda a, event: reports.report_request_by(actor=a, event=event, kind="standings"),
    ),
    (
        "add a member",
        Role.CLUB_ADMIN,
        lambda club: club,
        lambda a, club: members.member_add(club=club, name="Rhoda Lamb", actor=a),
    ),
    (
        "add an existing record",
        Role.CLUB_ADMIN,
        lambda club: (club, _player()),
        lambda a, made: members.member_add_existing_by(actor=a, club=made[0], player=made[1]),
    ),
    (
        "change a role",
        Role.CLUB_ADMIN,
        _member_of,
        lambda a, m: members.member_change_role_by(actor=a, membership=m, role=Role.ORGANISER),
    ),
    (
        "remove a member",
        Role.CLUB_ADMIN,
        _member_of,
        lambda a, m: members.member_remove_by(actor=a, membership=m),
    ),
    (
        "invite a member",
        Role.CLUB_ADMIN,
        _member_of,
        lambda a, m: invitations.invitation_create_by(actor=a, membership=m),
    ),
]
BELOW = {Role.ORGANISER: Role.SCOREKEEPER, Role.CLUB_ADMIN: Role.ORGANISER}


@pytest.mark.parametrize(("name", "least", "make", "call"), ACTIONS, ids=[a[0] for a in ACTIONS])
def test_the_service_refuses_a_lower_role_and_writes_nothing(
    name: str, least: Role, make: Make, call: Call
) -> None:
    club = _club()
    made = make(club)
    actor = _actor(club, BELOW[least])
    before = snapshot()
    with pytest.raises(NotAllowed) as refused:
        call(actor, made)
    assert club.name in refused.value.message
    assert changes(before, snapshot()) == []


@pytest.mark.parametrize(("name", "least", "make", "call"), ACTIONS, ids=[a[0] for a in ACTIONS])
def test_the_service_refuses_another_clubs_role(
    name: str, least: Role, make: Make, call: Call
) -> None:
    club, other = _club(), _club()
    made = make(club)
    stranger = _actor(other, Role.CLUB_ADMIN)
    before = snapshot()
    with pytest.raises(NotAllowed):
        call(stranger, made)
    assert changes(before, snapshot()) == []


@pytest.mark.parametrize(("name", "least", "make", "call"), ACTIONS, ids=[a[0] for a in ACTIONS])
def test_the_service_allows_the_role_it_needs(
    name: str, least: Role, make: Make, call: Call
) -> None:
    club = _club()
    made = make(club)
    actor = _actor(club, least)
    before, links = snapshot(), Invitation.objects.count()
    assert call(actor, made) is not None
    assert changes(before, snapshot()) != [] or Invitation.objects.count() == links + 1


def test_report_rerun_needs_an_organiser_of_the_events_club() -> None:
    club = _club()
    event = make_event(teams=4, club=club)
    job = reports.report_request_by(
        actor=_actor(club, Role.ORGANISER), event=event, kind="standings"
    )
    ReportJob.objects.filter(id=job.id).update(status="failed")
    with pytest.raises(NotAllowed):
        reports.report_rerun_by(actor=_actor(club, Role.SCOREKEEPER), job=job)
    assert ReportJob.objects.get(id=job.id).status == "failed"


def test_an_invitation_asked_twice_leaves_one_link_open() -> None:
    club = _club()
    membership = _member_of(club)
    admin = _actor(club, Role.CLUB_ADMIN)
    invitations.invitation_create_by(actor=admin, membership=membership)
    invitations.invitation_create_by(actor=admin, membership=membership)
    open_links = Invitation.objects.filter(
        player=membership.player, accepted_at__isnull=True, revoked_at__isnull=True
    )
    assert open_links.count() == 1


# --- both doors give the service's sentence ---------------------------------------------------


def _signed_in(user: Any, client_class: type[Client] = Client) -> Any:
    client = client_class()
    client.force_login(user)
    return client


def test_changing_a_role_without_the_role_answers_alike_at_both_doors() -> None:
    club = _club()
    target = _member_of(club)
    organiser = member(club, Role.ORGANISER)
    sentence = f"This needs the {Role.CLUB_ADMIN.label} role in {club.name}."
    api = _signed_in(organiser, APIClient).patch(
        f"/api/clubs/{club.id}/members/{target.id}/", {"role": "organiser"}, format="json"
    )
    page = _signed_in(organiser).post(
        f"/clubs/{club.slug}/members/{target.id}/role/", {"role": "organiser"}
    )
    assert api.status_code == page.status_code == 403
    assert sentence in api.json()["detail"]
    assert sentence in page.content.decode()
    assert Membership.objects.get(id=target.id).role == Role.PLAYER


def test_creating_an_event_without_the_role_answers_alike_at_both_doors() -> None:
    club = _club()
    scorekeeper = member(club, Role.SCOREKEEPER)
    api = _signed_in(scorekeeper, APIClient).post(
        "/api/events/",
        {"club": club.id, "name": "Spring Open", "date": "2026-12-05", "kind": "tournament"},
        format="json",
    )
    assert api.status_code == 403
    assert api.json()["detail"] == f"Only organisers of {club} can create its events."
    page = _signed_in(scorekeeper).post(
        "/events/new/", {"club": club.id, "name": "Spring Open", "date": "2026-12-05"}
    )
    # The page offers no club to create in: it says so and goes back to the list.
    assert page.status_code == 302
    assert not Event.objects.filter(name="Spring Open").exists()


def test_generation_without_the_role_answers_alike_at_both_doors() -> None:
    club = _club()
    event = make_event(teams=4, club=club)
    scorekeeper = member(club, Role.SCOREKEEPER)
    api = _signed_in(scorekeeper, APIClient).post(f"/api/events/{event.id}/generate/")
    page = _signed_in(scorekeeper).post(f"/events/{event.id}/generate/")
    assert api.status_code == page.status_code == 403
    assert not GenerationJob.objects.filter(event=event).exists()


# --- guards -----------------------------------------------------------------------------------

DOORS = [
    *ROOT.glob("*/views*.py"),
    *ROOT.glob("*/views/*.py"),
    *ROOT.glob("*/api/*.py"),
    *ROOT.glob("*/*/views.py"),
    *ROOT.glob("*/*/api.py"),
]


def test_no_door_hands_the_raw_user_to_a_service_as_who_acted() -> None:
    """A door passes the actor (``Actor.of(request.user)``); the service decides and records
    ``actor.by``. A keyword ``by=request.user`` is a door deciding for the service."""
    found = []
    for path in DOORS:
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.keyword)
                and node.arg == "by"
                and ast.unparse(node.value) == "request.user"
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.value.lineno}")
    assert DOORS and found == []


def test_who_acted_is_typed_as_the_user_it_is() -> None:
    loose = []
    for package in ("kaiser_club", "scoring", "tournaments"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if (
                    isinstance(node, ast.arg)
                    and node.arg == "by"
                    and node.annotation is not None
                    and ast.unparse(node.annotation) in ("Any", "object")
                ):
                    loose.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert loose == []
