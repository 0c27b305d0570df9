"""Bad input, in sequences: schemathesis' state machine over the whole OpenAPI schema, signed in
as an organiser of club A while club B's events, games, teams, entries, members and seasons sit
in the same database.

The links between operations are those schemathesis infers from the schema (an event's id
from ``POST /api/events/`` to every ``/api/events/{id}/…``, an entry's id from the entries
list to its check-in, and so on: over four hundred), plus the few it cannot infer, added
below (a new game's id, an imported event's id, a member's id from the members list). Path
parameters and body fields that name a club, player, team, season, entry, table or pairing
are drawn, part of the time, from the ids of both clubs' rows as well as from the links and
schemathesis' own.

Checks on every answer: no 5xx, a status code, content type and body the schema lists. And
a write the API accepted (a 2xx to anything but GET) must not have changed or removed a row
of club B, nor created a row that names one (``tests/two_clubs.py``); club B's rows are
compared again at the end of every scenario. A write the API refused (a 4xx) must have
written nothing at all.

Bounded for CI: ``KAISER_FUZZ_SCENARIOS`` scenarios (30) of up to ``KAISER_FUZZ_STEPS`` calls
(6), derandomized; ``KAISER_FUZZ_RANDOM=1`` draws new ones. The number of calls made is
printed (``-s`` shows it)."""

from __future__ import annotations

import base64
import os
from collections import Counter
from typing import Any

import pytest
import schemathesis
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.db import connection, transaction
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.reliability.test_schemathesis import _keep_the_test_connection  # noqa: F401
from tests.two_clubs import Side, TwoClubs, changes, owned_by, reaching, snapshot, two_clubs

pytestmark = [pytest.mark.django_db, pytest.mark.long]

SCENARIOS = int(os.environ.get("KAISER_FUZZ_SCENARIOS", "30"))
STEPS = int(os.environ.get("KAISER_FUZZ_STEPS", "6"))
RANDOM = os.environ.get("KAISER_FUZZ_RANDOM") == "1"
PASSWORD = "pw-for-tests"  # tests/factories.py

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

# Links schemathesis does not infer from drf-spectacular's schema: the created object's id in
# a body whose other ids (hands' numbers, a rule set's id) it takes for the path's instead.
GAME_PATHS = (
    ("get", "/api/games/{id}/"),
    ("get", "/api/games/{id}/history/"),
    ("post", "/api/games/{id}/hands/"),
    ("post", "/api/games/{id}/add-minutes/"),
    ("post", "/api/games/{id}/call-time/"),
    ("post", "/api/games/{id}/forfeit/"),
    ("post", "/api/games/{id}/pause/"),
    ("post", "/api/games/{id}/undo/"),
)
EVENT_PATHS = (
    ("get", "/api/events/{id}/"),
    ("patch", "/api/events/{id}/"),
    ("get", "/api/events/{id}/entries/"),
    ("get", "/api/events/{id}/rounds/"),
    ("post", "/api/events/{id}/generate/"),
    ("get", "/api/events/{id}/standings/"),
    ("get", "/api/events/{id}/export/"),
)
MEMBER_PATHS = (
    ("patch", "/api/clubs/{club_id}/members/{membership_id}/"),
    ("delete", "/api/clubs/{club_id}/members/{membership_id}/"),
)


def _operation_id(raw: dict[str, Any], method: str, path: str) -> str:
    return str(raw["paths"][path][method]["operationId"])


def _add_links(raw: dict[str, Any]) -> int:
    """The links above, written into the loaded copy of the schema; how many."""
    added = 0

    def link(source: tuple[str, str, str], targets: Any, parameters: dict[str, str]) -> None:
        nonlocal added
        method, path, status = source
        response = raw["paths"][path][method]["responses"][status]
        links = response.setdefault("links", {})
        for target_method, target_path in targets:
            operation_id = _operation_id(raw, target_method, target_path)
            links[f"Kaiser{operation_id}"] = {"operationId": operation_id, "parameters": parameters}
            added += 1

    link(("post", "/api/games/", "201"), GAME_PATHS, {"id": "$response.body#/id"})
    link(("post", "/api/events/import/", "201"), EVENT_PATHS, {"id": "$response.body#/id"})
    link(
        ("get", "/api/clubs/{club_id}/members/", "200"),
        MEMBER_PATHS,
        {"club_id": "$request.path.club_id", "membership_id": "$response.body#/results/0/id"},
    )
    return added


# Which rows of a side a path parameter or a body field may name.
def _ids_by_name(side: Side) -> dict[str, list[int]]:
    players = [p.id for p in side.players[:4]] + [side.players[14].id]
    entries = list(side.event.entries.values_list("id", flat=True)[:3])
    tables = list(side.event.tables.values_list("id", flat=True)[:2])
    pairings = [p.id for p in side.pairings[:2]]
    return {
        # path parameters
        "id": [side.club.id, side.event.id, side.game.id, side.team.id, side.season.id],
        "club_id": [side.club.id],
        "player_id": players[:2],
        "membership_id": [side.membership.id],
        "entry_id": entries,
        "pairing_id": pairings,
        "table_id": tables,
        "job_id": [side.job.id],
        # body fields
        "club": [side.club.id],
        "season": [side.season.id],
        "ns_team": [side.team.id],
        "ew_team": [side.other_team.id],
        "player": players,
        "player_one": players,
        "player_two": players,
        "player_one_id": players,
        "player_two_id": players,
        "north": players,
        "east": players,
        "south": players,
        "west": players,
        "replaced": players,
        "substitute": players,
        "first": entries + pairings,  # swap-teams: entries; swap-tables: pairings
        "second": entries + pairings,
    }


KNOWN: dict[str, list[int]] = {}
CALLS: Counter[str] = Counter()


def _either_club(value: Any, name: str) -> st.SearchStrategy[Any]:
    known = KNOWN.get(name)
    return st.sampled_from([value, *known]) if known else st.just(value)


def _path_ids(context: Any, path_parameters: dict[str, Any]) -> Any:
    return st.fixed_dictionaries(
        {name: _either_club(value, name) for name, value in (path_parameters or {}).items()}
    )


def _body_ids(context: Any, body: Any) -> Any:
    if not isinstance(body, dict):
        return st.just(body)
    return st.fixed_dictionaries({name: _either_club(value, name) for name, value in body.items()})


def _load() -> Any:
    schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())
    # Read lazily: links written into the loaded document before any operation is built count.
    assert _add_links(schema.raw_schema) == len(GAME_PATHS) + len(EVENT_PATHS) + len(MEMBER_PATHS)
    schema.hooks.register_hook_with_name(_path_ids, "flatmap_path_parameters")
    schema.hooks.register_hook_with_name(_body_ids, "flatmap_body")
    return schema


def _basic(username: str) -> dict[str, str]:
    token = base64.b64encode(f"{username}:{PASSWORD}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def _names_club_b(case: Any, b: dict[str, list[int]]) -> bool:
    values = list((case.path_parameters or {}).items())
    if isinstance(case.body, dict):
        values += list(case.body.items())
    return any(value in b.get(name, ()) for name, value in values if isinstance(value, int))


def _machine(world: TwoClubs, before: dict[str, Any]) -> Any:
    schema = _load()
    headers = _basic(world.users["organiser"].username)
    theirs = owned_by(world.b)
    b_ids = _ids_by_name(world.b)

    last: dict[str, Any] = {}  # the rows before the call being checked

    def a_refusal_writes_nothing(ctx: Any, response: Any, case: Any) -> bool | None:
        if case.method.upper() == "GET" or response.status_code < 400:
            return None
        written = changes(last["rows"], snapshot())
        if written:
            raise AssertionError(
                f"{case.method} {case.formatted_path} answered {response.status_code} and "
                f"wrote: {'; '.join(written)}"
            )
        return True

    def no_write_reaches_club_b(ctx: Any, response: Any, case: Any) -> bool | None:
        if case.method.upper() == "GET" or response.status_code >= 300:
            return None
        reached = reaching(theirs, before, snapshot())
        if reached:
            raise AssertionError(
                f"{case.method} {case.formatted_path} answered {response.status_code} and "
                f"reached club B: {'; '.join(reached)}"
            )
        return True

    class CrossClub(schema.as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            # Every scenario starts from the same rows: Hypothesis replays a scenario's start
            # to explore from it, and must get the same answers.
            self.savepoint = transaction.savepoint()
            cache.clear()

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return {"headers": headers}

        def before_call(self, case: Any) -> None:
            if case.method.upper() != "GET":
                last["rows"] = snapshot()

        def after_call(self, response: Any, case: Any) -> None:
            super().after_call(response, case)
            CALLS["calls"] += 1
            CALLS[f"{response.status_code // 100}xx"] += 1
            if _names_club_b(case, b_ids):
                CALLS["naming club B"] += 1
            if case.method.upper() != "GET" and response.status_code < 300:
                CALLS["writes accepted"] += 1

        def validate_response(
            self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any
        ) -> None:
            case.validate_response(
                response,
                checks=CHECKS,
                additional_checks=[no_write_reaches_club_b, a_refusal_writes_nothing],
                headers=headers,
                transport_kwargs=kwargs or None,
                recorder=self.recorder,
            )

        def teardown(self) -> None:
            reached = reaching(theirs, before, snapshot())
            transaction.savepoint_rollback(self.savepoint)
            assert not reached, "\n".join(reached)
            super().teardown()

    return CrossClub


def _ids_as_in_a_new_database() -> None:
    """Each table's next id as in a database no test wrote to (one past its largest row, 1 in
    an empty one). A derandomized run draws the same values every time, and some of them are
    ids: with the clubs' rows numbered after whatever tests ran before in this database, the
    same scenarios reached different rows (36 writes accepted alone, 1 after five other
    tests). PostgreSQL's sequences do not roll back with a test; SQLite's do."""
    from django.apps import apps
    from django.core.management.color import no_style

    with connection.cursor() as cursor:
        for statement in connection.ops.sequence_reset_sql(no_style(), apps.get_models()):
            cursor.execute(statement)


def test_the_whole_api_statefully_as_an_organiser_of_club_a_with_club_b_in_play() -> None:
    _ids_as_in_a_new_database()
    world = two_clubs()
    KNOWN.clear()
    a, b = _ids_by_name(world.a), _ids_by_name(world.b)
    KNOWN.update({name: a[name] + b[name] for name in a})
    CALLS.clear()
    before = snapshot()
    machine = _machine(world, before)
    machine.run(
        settings=settings(
            max_examples=SCENARIOS,
            stateful_step_count=STEPS,
            deadline=None,
            derandomize=not RANDOM,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
    )
    print(f"\nstateful schemathesis: {dict(CALLS)}")
    # The run reached the views, with club B's ids among those sent, and some writes went in.
    assert CALLS["calls"] >= SCENARIOS
    assert CALLS["naming club B"] > 0
    assert CALLS["writes accepted"] > 0
    assert not reaching(owned_by(world.b), before, snapshot())
