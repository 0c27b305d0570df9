"""Bad input: schemathesis over the OpenAPI schema served at /api/schema/, against the WSGI app
in this process, anonymously and as the club's organiser (basic auth). For every operation:
no 5xx, a status code the schema lists, the content type it lists, and a body that matches
the schema's. (The API takes no table code: a tablet's code opens the table page, whose
endpoints are not part of the API.)

Path parameters are drawn from the ids of a seeded club (a game with hands, teams, an event
with a generated round, a season) as well as from schemathesis' own, so requests reach the
views and not only their 404. Examples are bounded so the three runs take well under two
minutes on two shared cores."""

from __future__ import annotations

import base64
import os
from typing import Any, cast

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from kaiser_club.models import Club
from kaiser_club.roles import Role
from tests.factories import ClubFactory, UserFactory, member, start_game
from tests.scoring.hands import record_fillers

pytestmark = [pytest.mark.django_db, pytest.mark.long]

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
# Bounded for CI (two shared cores); KAISER_FUZZ_EXAMPLES=100 KAISER_FUZZ_RANDOM=1 explores.
EXAMPLES = int(os.environ.get("KAISER_FUZZ_EXAMPLES", "12"))
RANDOM = os.environ.get("KAISER_FUZZ_RANDOM") == "1"
PASSWORD = "pw-for-tests"

# Ids that exist, by path parameter name; filled by _seed before any case is drawn.
KNOWN: dict[str, list[Any]] = {}


def _seed() -> dict[str, str]:
    club = cast(Club, ClubFactory(default_preset="tournament"))
    organiser = member(club, Role.ORGANISER, username="fuzz-organiser")
    game = start_game(club=club, preset_name="tournament")
    record_fillers(game, 3)
    other = start_game(club=club, preset_name="standard")
    UserFactory(username="fuzz-outsider")
    ids: dict[str, list[Any]] = {
        "id": [club.id, game.id, other.id, game.ns_team_id, game.ew_team_id],
        "club_id": [club.id],
        "player_id": [game.north_id, organiser.player.id],
        "number": [1, 3, 4],
        "membership_id": list(club.memberships.values_list("id", flat=True)),
    }
    ids.update(_seed_event(club))
    KNOWN.clear()
    KNOWN.update(ids)
    return {"organiser": organiser.username}


def _seed_event(club: Club) -> dict[str, list[Any]]:
    from tests.tournaments.helpers import generate, make_event

    event = make_event(teams=4, club=club)
    job = generate(event)
    pairings = list(event.pairings.values_list("id", flat=True))
    return {
        "id": [event.id],
        "entry_id": list(event.entries.values_list("id", flat=True)[:2]),
        "job_id": [job.id],
        "pairing_id": pairings[:2],
        "table_id": list(event.tables.values_list("id", flat=True)[:2]),
    }


def _load() -> Any:
    loaded = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())
    loaded.hooks.register_hook_with_name(_real_ids, "flatmap_path_parameters")
    return loaded


def _real_ids(context: Any, path_parameters: dict[str, Any]) -> Any:
    """Half the time or so, a real id for each path parameter that has some."""
    drawn = {}
    for name, value in (path_parameters or {}).items():
        known = KNOWN.get(name, [])
        drawn[name] = st.sampled_from([value, *known]) if known else st.just(value)
    return st.fixed_dictionaries(drawn)


def _basic(username: str) -> dict[str, str]:
    token = base64.b64encode(f"{username}:{PASSWORD}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


def _fuzz(headers: dict[str, str]) -> list[str]:
    """Every operation, positive and negative data; the failures, one line each."""
    failures: list[str] = []
    operations = [result.ok() for result in _load().get_all_operations()]
    assert len(operations) > 40  # the whole API, not an empty schema
    for operation in operations:
        cases = st.one_of(
            operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
            operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
        )

        @BOUNDED
        @given(case=cases)
        def run(case: Any) -> None:
            case.call_and_validate(checks=CHECKS, headers=headers)

        try:
            run()
        except (Exception, BaseExceptionGroup) as exc:  # schemathesis' FailureGroup is a Base…
            lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
            failures.append(f"{operation.label}: {' | '.join(lines[:40])}")
    return failures


BOUNDED = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not RANDOM,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture(autouse=True)
def _keep_the_test_connection() -> Any:
    """Django closes the database connection when a request finishes; the test client stops
    that, and so must this raw WSGI handler, or the test's own transaction goes with it."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_api_anonymously() -> None:
    _seed()
    failures = _fuzz({})
    assert not failures, "\n".join(failures)


def test_api_as_the_organiser() -> None:
    organiser = _seed()["organiser"]
    failures = _fuzz(_basic(organiser))
    assert not failures, "\n".join(failures)
