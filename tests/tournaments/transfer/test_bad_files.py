"""Any file, however damaged, sent to the API as the event's organiser: either refused (a 4xx)
with a sentence that names the file's row and not one word of the database's, with nothing
written anywhere; or imported (201), after which every read of the new event answers 200 and
the new event's own export imports again.

Hypothesis takes real exports (a Swiss event with a substitution, a forfeit and a hand
waiting for confirmation; a double-elimination bracket; a club-sheet event with every hand
kind; an individual progressive night; a single elimination with a third-place game) and
replaces one value anywhere (or removes one key) with an extreme one: huge and negative
integers, 1e308, "NaN" and other strings where numbers go, long and odd Unicode (bidi
overrides, NUL, lone surrogates), nested lists, objects, null, or another valid value of any
of the app's closed sets (a result, a stage, a format, a seat, a ref, a sign-up's status or
language). The bracket and the progressive night take sign-ups (registered, waiting, pending,
refused), so the damage reaches the sign-ups and their players too.
``KAISER_FUZZ_EXAMPLES`` sets the number of examples (a bounded number by default, for CI).
"""

from __future__ import annotations

import copy
import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from kaiser_club.roles import Role
from scoring.choices import (
    ContractChoice,
    HandKindChoice,
    HandStatus,
    MisdealReasonChoice,
    SuitChoice,
    TeamChoice,
)
from scoring.rules import PRESETS, KaiserBid, Side
from tests.factories import member
from tests.tournaments.helpers import generate, make_event, win_for, win_game
from tournaments.choices import (
    EntryStatus,
    EventKind,
    EventStatus,
    Format,
    RegistrationMode,
    ResultKind,
    RoundStatus,
    Seeding,
    SlotSide,
    Tiebreak,
)
from tournaments.models import Event, Pairing, RegistrationStatus
from tournaments.pairing.bracket import Stage
from tournaments.transfer import event_export

from .reads import (
    assert_every_read_answers,
    post_import,
    refusal_is_a_sentence_about_the_file,
    row_counts,
)
from .test_every_hand_kind import every_kind_event
from .test_registrations import with_sign_ups
from .test_round_trip import swiss_event

pytestmark = [pytest.mark.django_db, pytest.mark.long]

EXAMPLES = int(os.environ.get("KAISER_FUZZ_EXAMPLES", "60"))

Path = tuple[Any, ...]

ODD_TEXT = [
    "NaN",
    "Infinity",
    "-1",
    "1e308",
    "",
    " ",
    "null",
    "true",
    "\u202eevil\u202c",
    "\x00",
    "a\x00b",
    "\ud800",
    "\udfff\ud800",
    "\u2066\u2069",
    "e\u0301" * 50,
    "👨‍👩‍👧‍👦" * 30,
    "ﷺ" * 200,
    "\n\r\t",
    "2026-02-30",
    "2026-11-28T25:61:00+00:00",
    "9999-12-31T23:59:59-23:59",
    "0001-01-01",
    "00000000-0000-0000-0000-000000000000",
    "W²-1",
    "<script>alert(1)</script>",
    "'; DROP TABLE tournaments_event; --",
]
# Every closed set's values, so that a choice may become another valid one (a bye that says
# "played", a Swiss event that says "double_elimination", a match of the "third_place" stage).
CHOICES = sorted(
    {
        value
        for choices in (
            Format,
            EventKind,
            EventStatus,
            EntryStatus,
            RoundStatus,
            ResultKind,
            SlotSide,
            Seeding,
            Tiebreak,
            HandStatus,
            HandKindChoice,
            ContractChoice,
            SuitChoice,
            TeamChoice,
            MisdealReasonChoice,
            RegistrationStatus,
            RegistrationMode,
        )
        for value in choices.values
    }
    | {"en", "fr"}
    | {stage.value for stage in Stage}
    | set(PRESETS)
)
EXTREME_INTS = [0, -1, 1, 2, 3, 4, 7, 12, 13, 2**15, 2**15 - 1, 2**31, 2**63, -(2**63), 10**30]
EXTREME = (
    st.none()
    | st.booleans()
    | st.sampled_from(EXTREME_INTS)
    | st.integers()
    | st.sampled_from([1e308, -1e308, 0.5, -0.0, 5e-324])
    | st.sampled_from(ODD_TEXT)
    | st.sampled_from(CHOICES)
    | st.text(min_size=0, max_size=20)
    | st.text(min_size=150, max_size=400)
    | st.sampled_from([[], [[]], [None], [{}], [[[1]]], ["wins", "wins"], {}, {"a": [1]}])
    | st.lists(st.integers(min_value=-3, max_value=40), max_size=3)
)


def paths(value: Any, prefix: Path = ()) -> list[Path]:
    """Every place in the document: each key of each object, each item of each list."""
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


def bracket_event() -> Event:
    event = make_event(teams=6, format="double_elimination")
    generate(event)
    ready = [p for p in Pairing.objects.filter(event=event).order_by("id") if p.game_id]
    win_for(ready[0], ready[0].home)
    win_for(ready[1], ready[1].away)
    if len(ready) > 2:
        win_game(ready[2].game_id, Side.EW)
    return event


def played_event(format: str, teams: int, **settings: Any) -> Event:
    event = make_event(teams=teams, format=format, **settings)
    generate(event)
    playable = [p for p in Pairing.objects.filter(event=event).order_by("id") if p.game_id]
    for row in playable[:2]:
        win_game(row.game_id, Side.NS)
    return event


def test_a_damaged_file_is_refused_in_a_sentence_or_imported_and_readable() -> None:
    events = [
        swiss_event(),
        with_sign_ups(bracket_event()),
        every_kind_event("club", KaiserBid.TEAM)[0],
        with_sign_ups(played_event("progressive", 8)),
        played_event("single_elimination", 6, third_place=True),
    ]
    documents = [event_export(event=event) for event in events]
    places = [(n, path) for n, document in enumerate(documents) for path in paths(document)]
    outcomes = {"imported": 0, "refused": 0, "reads": 0}

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    @given(st.sampled_from(places), EXTREME, st.booleans())
    def one_change(place: tuple[int, Path], value: Any, remove: bool) -> None:
        number, path = place
        damaged = changed(documents[number], path, value, remove)
        api = APIClient()
        api.force_authenticate(member(events[number].club, Role.ORGANISER))
        before = row_counts()
        answer = post_import(api, damaged)
        if answer.status_code == 201:
            event = Event.objects.get(id=answer.json()["id"])
            outcomes["reads"] += assert_every_read_answers(event)
            again = post_import(api, event_export(event=event))
            assert again.status_code == 201, f"{path} = {value!r}: {again.json()}"
            outcomes["imported"] += 1
            return
        assert 400 <= answer.status_code < 500, f"{path} = {value!r}: {answer.status_code}"
        refusal_is_a_sentence_about_the_file(answer.json()["detail"])
        assert row_counts() == before, f"refused but wrote something: {path} = {value!r}"
        outcomes["refused"] += 1

    one_change()
    print(f"\ndamaged files ({EXAMPLES} examples): {outcomes}")
    assert outcomes["refused"] and outcomes["imported"], outcomes
