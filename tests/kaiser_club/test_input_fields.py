"""Input serializers that share fields bound once per class (kaiser_club/api/input_fields.py)
check exactly as DRF's own fields do: the same validated data and the same errors, in English
and in French, for valid and broken bodies alike."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework import serializers

from kaiser_club.api.input_fields import FieldsBoundOnce
from scoring.api.serializers import (
    HandCorrectSerializer,
    HandEntrySerializer,
    HandRecordSerializer,
)
from tournaments.api.serializers import CorrectSerializer

COVERED = {HandEntrySerializer, HandRecordSerializer, HandCorrectSerializer, CorrectSerializer}


def every_subclass(cls: type) -> set[type]:
    found = set(cls.__subclasses__())
    return found.union(*(every_subclass(sub) for sub in found))


def test_every_serializer_with_shared_fields_is_checked_here() -> None:
    assert every_subclass(FieldsBoundOnce) == COVERED


def drf_checked(serializer_class: type[Any], body: Any) -> tuple[bool, Any, Any]:
    """(valid, validated data, errors) with DRF's own fields, built for this instance."""
    serializer = serializer_class(data=body)
    serializer.__dict__["fields"] = serializers.Serializer.fields.func(serializer)  # type: ignore[attr-defined]
    return checked(serializer)


def checked(serializer: Any) -> tuple[bool, Any, Any]:
    valid = serializer.is_valid()
    data = dict(serializer.validated_data) if valid else None
    errors = {name: [str(m) for m in messages] for name, messages in serializer.errors.items()}
    return valid, data, errors


SOME_VALUE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-5, max_value=40_000),
    st.sampled_from(
        [
            "",
            "N",
            "E",
            "0",
            "1",
            "2",
            "3",
            "ns",
            "ew",
            "hearts",
            "no_trump",
            "trump",
            "played",
            "misdeal",
            "2026-11-27T18:00:00Z",
            "not a date",
            str(uuid.UUID(int=7)),
            "x" * 301,
        ]
    ),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)
FIELD_NAMES = sorted({name for cls in COVERED for name in cls._declared_fields} | {"unknown"})
BODY = st.one_of(
    st.dictionaries(st.sampled_from(FIELD_NAMES), SOME_VALUE, max_size=len(FIELD_NAMES)),
    st.none(),
    st.integers(),
    st.lists(st.integers(), max_size=2),
)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(
    body=BODY,
    serializer_class=st.sampled_from(sorted(COVERED, key=lambda c: c.__name__)),
    language=st.sampled_from(["en", "fr"]),
)
def test_the_checks_are_drf_s_own(body: Any, serializer_class: type[Any], language: str) -> None:
    with translation.override(language):
        assert checked(serializer_class(data=body)) == drf_checked(serializer_class, body)


def test_a_valid_hand_is_checked_the_same() -> None:
    body = {
        "bidder": "0",
        "bid": 7,
        "contract": "trump",
        "trump": "hearts",
        "bidding_team_tricks": 6,
        "five_hearts": "ns",
        "three_spades": "ew",
        "client_id": str(uuid.UUID(int=1)),
        "number": 1,
    }
    fast = checked(HandRecordSerializer(data=body))
    assert fast[0] is True, fast
    assert fast == drf_checked(HandRecordSerializer, body)


@pytest.mark.parametrize("first, then", [("fr", "en"), ("en", "fr")])
def test_a_refusal_is_worded_in_each_readers_language(first: str, then: str) -> None:
    """DRF keeps a range refusal's text once made: one language's must not reach the other."""
    expected = {
        "en": "Ensure this value is less than or equal to 99.",
        "fr": "Assurez-vous que cette valeur est inférieure ou égale à 99.",
    }
    for language in (first, then, first):
        with translation.override(language):
            serializer = HandRecordSerializer(data={"bid": 100, "client_id": str(uuid.uuid4())})
            assert not serializer.is_valid()
            assert [str(m) for m in serializer.errors["bid"]] == [expected[language]]
            assert checked(serializer) == drf_checked(
                HandRecordSerializer,
                {"bid": 100, "client_id": serializer.initial_data["client_id"]},
            )


def test_a_nested_serializer_keeps_drf_s_own_fields() -> None:
    class Outer(serializers.Serializer[Any]):
        entry = HandEntrySerializer()

    outer = Outer(data={"entry": {"bid": 7}}, partial=True)
    assert outer.is_valid(), outer.errors
    nested: Any = outer.fields["entry"]
    assert nested.fields is not HandEntrySerializer(data={}).fields
    assert nested.fields["bid"].root is outer


def test_fields_are_shared_only_by_serializers_given_data_alone() -> None:
    plain = HandRecordSerializer(data={}).fields
    assert HandRecordSerializer(data={"bid": 7}).fields is plain
    with translation.override("fr" if translation.get_language() != "fr" else "en"):
        assert HandRecordSerializer(data={}).fields is not plain  # each language its own
    assert HandEntrySerializer(data={}).fields is not plain  # each class binds its own
    with_context = HandRecordSerializer(data={}, context={"request": None}).fields
    partial = HandRecordSerializer(data={}, partial=True).fields
    assert with_context is not plain and partial is not plain
    assert partial["bid"].root.partial is True  # DRF's own, bound to that serializer
