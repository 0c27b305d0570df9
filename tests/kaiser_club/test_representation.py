"""Serializers that bind their readable fields once per class (kaiser_club/api/representation.py)
answer exactly what DRF's own representation answers, for the objects they show."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ObjectDoesNotExist
from rest_framework import serializers

from kaiser_club.api.representation import BoundOnce
from scoring.api.serializers import (
    GameDetailSerializer,
    GameSerializer,
    HandSerializer,
    PlayerRefSerializer,
    RecordedSerializer,
    TeamSerializer,
)
from scoring.models import Game, Hand
from scoring.selectors import game_with_hands
from tests.factories import start_game
from tests.scoring.hands import misdeal, record, record_fillers

pytestmark = pytest.mark.django_db

COVERED = {
    GameDetailSerializer,
    GameSerializer,
    HandSerializer,
    PlayerRefSerializer,
    RecordedSerializer,
    TeamSerializer,
}


def drf_answer(serializer: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The answer with DRF's own loop at every level (the fields built for this instance)."""
    with monkeypatch.context() as patched:
        patched.setattr(
            BoundOnce,
            "to_representation",
            lambda self, instance: serializers.Serializer.to_representation(self, instance),
        )
        patched.delattr(type(serializer), "_bound_fields", raising=False)
        return serializer.data


def shown(game: Game) -> list[tuple[Any, Any]]:
    hand = Hand.objects.filter(game=game).order_by("number").last()
    detail = game_with_hands(game_id=game.id)
    assert detail is not None
    return [
        (GameDetailSerializer, detail),
        (GameSerializer, detail),
        (HandSerializer, hand),
        (TeamSerializer, detail.ns_team),
        (PlayerRefSerializer, detail.north),
        (RecordedSerializer, {"hand": hand, "game": detail}),
    ]


@pytest.mark.parametrize("hands", [0, 3, 40])
def test_the_answers_are_drf_s_own(hands: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = start_game(preset_name="standard")
    record_fillers(game, hands)
    if hands:
        record(game, misdeal())
    for serializer_class, instance in shown(game):
        if instance is None:
            continue
        fast = serializer_class(instance).data
        assert fast == drf_answer(serializer_class(instance), monkeypatch), serializer_class
        assert serializer_class.answer(instance) == fast  # no serializer made for the call
    detail = game_with_hands(game_id=game.id)
    assert detail is not None
    many = GameDetailSerializer([detail, detail], many=True)
    assert many.data == drf_answer(GameDetailSerializer([detail, detail], many=True), monkeypatch)


def test_every_serializer_bound_once_is_checked_here() -> None:
    def subclasses(cls: type) -> set[type]:
        found = set(cls.__subclasses__())
        return found.union(*(subclasses(c) for c in found)) if found else found

    assert subclasses(BoundOnce) <= COVERED, "add it to this test's objects"


class _Reads(BoundOnce, serializers.Serializer[Any]):
    """Every way a field reads: a plain attribute, a method (called), a property that fails,
    a missing one with a default, one not required, a dotted source, the whole object."""

    plain = serializers.IntegerField()
    called = serializers.CharField(source="shout")
    failing = serializers.CharField(allow_null=True)
    missing = serializers.IntegerField(default=7)
    optional = serializers.IntegerField(required=False)
    dotted = serializers.CharField(source="inner.name")
    whole = serializers.SerializerMethodField()
    gone = serializers.CharField(allow_null=True)
    caller = serializers.CharField()
    counted = serializers.IntegerField()

    def get_whole(self, instance: Any) -> str:
        return type(instance).__name__


COVERED.add(_Reads)


class _Inner:
    name = "Nord"


class _Caller:
    """Callable, but neither a function nor a method: DRF shows it, it does not call it."""

    def __call__(self) -> str:
        return "called"

    def __str__(self) -> str:
        return "shown"


class _Object:
    plain = 3
    inner = _Inner()
    caller = _Caller()

    def __init__(self) -> None:
        self.reads = 0

    def shout(self) -> str:
        return "KAISER"

    @property
    def failing(self) -> str:
        raise AttributeError("not this one")

    @property
    def gone(self) -> str:
        raise ObjectDoesNotExist("its row was deleted")

    @property
    def counted(self) -> int:
        self.reads += 1
        return self.reads


def test_each_way_a_field_reads_is_drf_s_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain look-up that skips DRF's own leaves every other way of reading to DRF."""
    as_dict = {"plain": 3, "shout": "hé", "inner": {"name": "Sud"}, "caller": "x", "counted": 1}
    for make in (_Object, lambda: dict(as_dict)):
        fast = _Reads.answer(make())
        assert fast == drf_answer(_Reads(make()), monkeypatch), make
    read = _Object()
    assert _Reads.answer(read) == {
        "plain": 3,
        "called": "KAISER",
        "failing": None,
        "missing": 7,
        "dotted": "Nord",
        "whole": "_Object",
        "gone": None,
        "caller": "shown",
        "counted": 1,  # a property is read once, as DRF reads it
    }
