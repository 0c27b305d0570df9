"""A read compiled once (kaiser_club/compiled.py) gives what its queryset gives: the same row,
the same columns loaded and deferred, the same related objects read with it, the same
annotations; and a build it cannot cache still answers, as a queryset."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection, models

from kaiser_club.actors import Actor
from kaiser_club.compiled import CompiledRead
from kaiser_club.roles import Role
from scoring.models import Game, Hand
from scoring.selectors import _game_read, _game_read_as_member, game_for_actor
from tests.factories import UserFactory, member, start_game
from tests.scoring.hands import record_fillers
from tests.table.helpers import make_table

pytestmark = pytest.mark.django_db

RELATED = [
    "club",
    "ns_team",
    "ns_team__player_one",
    "ns_team__player_two",
    "ew_team",
    "ew_team__player_one",
    "ew_team__player_two",
    "pairing",
    "pairing__event",
    "pairing__round",
]


def loaded(obj: models.Model | None) -> dict[str, Any] | None:
    """The columns loaded on an object (deferred ones are absent) and its annotations."""
    if obj is None:
        return None
    return {k: v for k, v in obj.__dict__.items() if not k.startswith("_")}


def picture(game: Game | None) -> dict[str, Any] | None:
    """Everything read with a game: its own columns and each related row read along."""
    if game is None:
        return None
    seen: dict[str, Any] = {"": loaded(game), "deferred": game.get_deferred_fields()}
    for path in RELATED:
        obj: Any = game
        for step in path.split("__"):
            if obj is None:
                break
            field = type(obj)._meta.get_field(step)
            if not field.is_cached(obj):  # type: ignore[union-attr]
                obj = "not read"
                break
            obj = field.get_cached_value(obj)  # type: ignore[union-attr]
        seen[path] = obj if isinstance(obj, str) else loaded(obj)
        if isinstance(obj, models.Model):
            seen[path + " deferred"] = obj.get_deferred_fields()
    return seen


def by_queryset(build: Any, *ids: int) -> Game | None:
    found = list(build(*ids)[:1])
    return found[0] if found else None


def test_a_member_s_read_is_the_queryset_s() -> None:
    setup = make_table()  # an event's game: its pairing, event and round come with it
    plain = start_game(club=setup.event.club)  # a club's game, in no event
    keeper = member(setup.event.club, Role.SCOREKEEPER)
    stranger: Any = UserFactory()
    read = CompiledRead(_game_read_as_member)
    for user in (keeper, stranger):
        for game_id in (setup.game.id, plain.id, 10**9):
            expected = by_queryset(_game_read_as_member, user.pk, game_id)
            assert picture(read.first(user.pk, game_id)) == picture(expected)
    assert read.first(keeper.pk, setup.game.id) is not None  # the cached SQL was used...
    assert read._compiled  # ...and kept
    assert read.first(stranger.pk, setup.game.id) is None


def test_a_staff_read_is_the_queryset_s() -> None:
    setup = make_table()
    read = CompiledRead(_game_read)
    for game_id in (setup.game.id, 10**9):
        assert picture(read.first(game_id)) == picture(by_queryset(_game_read, game_id))
    assert picture(read.first(setup.game.id)) is not None


def test_a_build_whose_argument_changes_on_the_way_is_read_as_a_queryset() -> None:
    game = start_game()
    read = CompiledRead(
        lambda game_id: Game.objects.filter(id=game_id + 0 * 1 - 0).filter(
            hand_count__gte=0 if game_id else 1
        )
    )
    assert read.first(game.id) is not None
    doubled = CompiledRead(lambda game_id: Game.objects.filter(id=game_id // 2))
    assert doubled.first(game.id * 2) == game
    assert list(doubled._compiled.values()) == [None]  # never cached: the id went in changed
    small = CompiledRead(lambda number: Game.objects.filter(hand_count=number))
    assert small.first(0) == game  # a marker beyond the column's range (PostgreSQL's): uncached
    assert small.first(5) is None


def test_the_hand_s_read_remembers_the_role_and_seats() -> None:
    setup = make_table()
    keeper = member(setup.event.club, Role.ORGANISER)
    actor = Actor.of(keeper)
    game = game_for_actor(actor=actor, game_id=setup.game.id)
    assert game is not None and game.id == setup.game.id
    assert actor.role_in(game.club_id) == Role.ORGANISER
    assert {seat: p.id for seat, p in game.seat_players().items()} == {
        0: setup.game.north_id,
        1: setup.game.east_id,
        2: setup.game.south_id,
        3: setup.game.west_id,
    }


def test_all_rows_of_a_read_are_the_queryset_s_in_its_order() -> None:
    game, other = start_game(), start_game()
    record_fillers(game, 5)

    def build(game_id: int) -> Any:
        return Hand.objects.filter(game_id=game_id).order_by("-number")

    read = CompiledRead(build)
    for game_id in (game.id, other.id, 10**9):
        expected = [loaded(hand) for hand in build(game_id)]
        assert [loaded(hand) for hand in read.all(game_id)] == expected
    assert [hand.number for hand in read.all(game.id)] == [5, 4, 3, 2, 1]
    assert read.first(game.id) is not None  # a first and an all of one read: each compiled
    assert set(read._compiled) == {(connection.vendor, True), (connection.vendor, False)}
    doubled = CompiledRead(lambda game_id: Hand.objects.filter(game_id=game_id // 2))
    assert len(doubled.all(game.id * 2)) == 5  # not cacheable: read as a queryset
