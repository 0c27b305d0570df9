"""The game a door acts on, read in one explicit statement (scoring/door_read.py), is what the
ORM reads with the same related rows and columns: the same game row, the same related rows
with the same values, the same role; nothing read again when the event's gate and the game's
result read what they registered."""

from __future__ import annotations

from typing import Any, cast

import pytest
from django.contrib.auth.models import AnonymousUser, User
from django.db import models
from django.db.models import OuterRef, Subquery

from kaiser_club.actors import Actor
from kaiser_club.models import Membership
from kaiser_club.roles import Role
from kaiser_club.selectors import role_in_club
from scoring import services
from scoring.door_read import game_as_read_by_a_door
from scoring.gates import Step, gate_reads, gate_related, rule_for
from scoring.models import Game
from scoring.results import game_result, result_reads, result_related
from scoring.rules import Side
from scoring.selectors import (
    GAME_TEAMS,
    door_reads,
    game_for_actor,
    games_visible_to,
    sees_games,
)
from tests.factories import UserFactory, member, start_game
from tests.table.helpers import make_table

pytestmark = pytest.mark.django_db


def related() -> list[str]:
    return [*GAME_TEAMS, *gate_related(), *result_related()]


def orm_read(game_id: int, user_id: int | None) -> Game | None:
    """The same read through the ORM: the reference."""
    reads = door_reads()
    games = (
        Game.objects.select_related(*related())
        .only(*[f.name for f in Game._meta.concrete_fields], *reads)
        .filter(id=game_id)
    )
    if user_id is not None:
        role = Membership.objects.filter(club_id=OuterRef("club_id"), player__user_id=user_id)
        games = games.annotate(actor_role=Subquery(role.order_by().values("role")[:1]))
    return games.first()


def values(row: models.Model | None) -> dict[str, Any] | None:
    """The columns loaded on a row (what its class reads of it, deferred ones left out)."""
    if row is None:
        return None
    deferred = row.get_deferred_fields()
    return {
        f.attname: getattr(row, f.attname)
        for f in type(row)._meta.concrete_fields
        if f.attname not in deferred
    }


def along(row: Any, path: str) -> Any:
    for name in path.split("__"):
        try:
            row = getattr(row, name)
        except models.ObjectDoesNotExist:
            return None
        if row is None:
            return None
    return row


def same_read(found: Game | None, expected: Game | None, *, with_role: bool) -> None:
    assert (found is None) == (expected is None)
    if found is None or expected is None:
        return
    assert values(found) == values(expected)
    if with_role:
        assert found.actor_role == expected.actor_role  # type: ignore[attr-defined]
    for path in related():
        mine, theirs = along(found, path), along(expected, path)
        assert (mine is None) == (theirs is None), path
        if mine is not None:
            assert type(mine) is type(theirs)
            loaded = values(mine)
            assert loaded is not None
            reference = values(theirs)
            assert reference is not None
            # Every column the ORM's read loads, with the same value (keys to deeper rows
            # may be read besides).
            assert {k: loaded.get(k) for k in reference} == reference, path


def club_game() -> Game:
    game = start_game(preset_name="standard")
    services.game_forfeit(game_id=game.id, forfeited_by=Side.NS)
    return game


def event_game() -> Game:
    return make_table().game


@pytest.mark.parametrize("make", [club_game, event_game], ids=["club game", "event's game"])
@pytest.mark.parametrize("who", ["player", "scorekeeper", "organiser", "stranger", "staff"])
def test_the_door_read_is_the_orm_s(make: Any, who: str) -> None:
    game = make()
    if who == "staff":
        user_id = None
    elif who == "stranger":
        user_id = cast(User, UserFactory()).pk
    else:
        user_id = member(game.club, Role(who)).pk
    found = game_as_read_by_a_door(
        game_id=game.id, user_id=user_id, related=related(), reads=door_reads()
    )
    same_read(found, orm_read(game.id, user_id), with_role=user_id is not None)


def test_a_game_that_does_not_exist_is_none() -> None:
    found = game_as_read_by_a_door(
        game_id=99_999, user_id=None, related=related(), reads=door_reads()
    )
    assert found is None


@pytest.mark.parametrize("make", [club_game, event_game], ids=["club game", "event's game"])
def test_the_gate_and_the_result_read_nothing_more(
    make: Any, django_assert_num_queries: Any
) -> None:
    game = make()
    user = member(game.club, Role.ORGANISER)
    actor = Actor.of(user)
    with django_assert_num_queries(1):
        found = game_for_actor(actor=actor, game_id=game.id)
        assert found is not None
        rule_for(game=found, actor=actor, step=Step.ENTER)
        result = game_result(found)
        assert found.ns_team.player_one.name and found.seat_players()[0].name
    assert result.ns_score is not None or not result.finished


def test_who_may_not_see_the_game_gets_none_as_if_it_did_not_exist() -> None:
    game = start_game()
    for user in (cast(User, UserFactory()), AnonymousUser()):
        assert game_for_actor(actor=Actor.of(user), game_id=game.id) is None
    assert game_for_actor(actor=Actor.of(member(game.club, Role.PLAYER)), game_id=game.id)


def test_what_cannot_be_joined_as_the_database_gives_it_is_refused_when_the_read_is_made() -> None:
    with pytest.raises(TypeError, match="cannot join"):
        game_as_read_by_a_door(game_id=1, user_id=None, related=["created_by"], reads=[])
    with pytest.raises(TypeError, match=r"created_by\.last_login"):
        game_as_read_by_a_door(game_id=1, user_id=None, related=["created_by"], reads=[])


def test_registered_reads_are_what_the_apps_declare() -> None:
    # The gate's and the result's columns are among the door's reads.
    assert set(gate_reads()) <= set(door_reads())
    assert set(result_reads()) <= set(door_reads())


@pytest.mark.parametrize("make", [club_game, event_game], ids=["club game", "event's game"])
@pytest.mark.parametrize("who", [*[r.value for r in Role], "stranger", "staff", "anonymous"])
def test_the_door_read_sees_the_games_the_visible_list_holds(make: Any, who: str) -> None:
    """Who may see a game is said once (``sees_games``): the door's one statement, which reads
    the role in SQL of its own, finds the game exactly when ``games_visible_to`` lists it."""
    game = make()
    user: Any
    if who == "anonymous":
        user = AnonymousUser()
    elif who in ("stranger", "staff"):
        user = UserFactory(is_staff=who == "staff")
    else:
        user = member(game.club, Role(who))
    listed = games_visible_to(user=user).filter(id=game.id).exists()
    found = game_for_actor(actor=Actor.of(user), game_id=game.id) is not None
    assert found == listed
    assert listed == (who not in ("stranger", "anonymous"))
    assert sees_games(role_in_club(user=user, club_id=game.club_id)) == listed
