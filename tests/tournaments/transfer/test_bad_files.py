"""Any file, however damaged: the import either succeeds or refuses with ImportRefused (an
HTTP 400 with a sentence), and a refusal writes nothing. Hypothesis changes or removes one
value anywhere in a real export."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Game, Hand
from tournaments.models import Entry, Event, Pairing
from tournaments.transfer import ImportRefused, event_export, event_import

from .test_round_trip import swiss_event

pytestmark = pytest.mark.django_db

Path = tuple[Any, ...]

JSON_VALUES = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**40), max_value=2**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | st.lists(st.integers(min_value=-5, max_value=50), max_size=3)
    | st.dictionaries(st.text(max_size=5), st.integers(), max_size=2)
)


def paths(value: Any, prefix: Path = ()) -> list[Path]:
    found: list[Path] = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, inner in value.items():
            found += paths(inner, (*prefix, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += paths(inner, (*prefix, index))
    return found


def changed(document: dict[str, Any], path: Path, value: Any, remove: bool) -> dict[str, Any]:
    result = copy.deepcopy(document)
    parent: Any = result
    for step in path[:-1]:
        parent = parent[step]
    if remove and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return result


def counts() -> tuple[int, ...]:
    return (
        Event.objects.count(),
        Entry.objects.count(),
        Pairing.objects.count(),
        Game.objects.count(),
        Hand.with_pending.count(),
    )


def test_a_damaged_file_is_imported_or_refused_never_half_written() -> None:
    document = event_export(event=swiss_event())
    every_path = paths(document)
    outcomes = {"imported": 0, "refused": 0}

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(every_path), JSON_VALUES, st.booleans())
    def one_change(path: Path, value: Any, remove: bool) -> None:
        damaged = changed(document, path, value, remove)
        before = counts()
        try:
            event_import(data=damaged, actor=None)
        except ImportRefused as exc:
            assert str(exc), "a refusal says why"
            assert counts() == before, f"refused but wrote something: {path} = {value!r}"
            outcomes["refused"] += 1
        else:
            outcomes["imported"] += 1

    one_change()
    print(f"\ndamaged files: {outcomes}")
    assert outcomes["refused"] > 10 and outcomes["imported"] > 10, outcomes
