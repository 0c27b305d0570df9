"""Every action on a round or a game answers the same through its two doors, the API and the
organiser's pages: for the same input both allow it (and leave the event in the same state), or
both refuse it with the same sentence and write nothing. Ids in a body that belong to another
event, or to nothing, are refused with a sentence, never a 500; a refused substitution makes no
player record. The schema shows a request body for every action."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django import forms
from django.contrib.messages import constants, get_messages
from django.test import Client
from rest_framework.test import APIClient

from kaiser_club.models import Player
from kaiser_club.roles import Role
from scoring.models import Game
from tests.factories import member
from tournaments import services
from tournaments.models import Entry, Event, Pairing, Round, Substitution

from .helpers import generate, make_event

pytestmark = pytest.mark.django_db

MISSING = 999_999  # an id no row has


@dataclass
class World:
    """A Swiss event of five teams, round 1 generated and not started: two games (tables 1 and
    2) and a bye; ``other`` is another club's event with its own round 1."""

    event: Event
    other: Event
    organiser: Any

    def rows(self, event: Event | None = None) -> list[Pairing]:
        """Round 1's games by table, the bye last."""
        rows = Pairing.objects.filter(event=event or self.event, round__number=1)
        return sorted(rows.select_related("game"), key=lambda p: (p.table is None, p.id))

    @property
    def first(self) -> Pairing:
        return self.rows()[0]

    @property
    def second(self) -> Pairing:
        return self.rows()[1]

    @property
    def bye(self) -> Pairing:
        return self.rows()[2]

    @property
    def round(self) -> Round:
        return Round.objects.get(event=self.event, number=1)

    def foreign_game(self) -> Pairing:
        return self.rows(self.other)[0]

    def foreign_entry(self) -> Entry:
        found = Entry.objects.filter(event=self.other).first()
        assert found is not None
        return found


def make_world(other: Event | None = None) -> World:
    event = make_event(teams=5, format="swiss")
    generate(event)
    if other is None:
        other = make_event(teams=4, format="swiss")
        generate(other)
    return World(event=event, other=other, organiser=member(event.club, Role.ORGANISER))


# --- what each door answers -------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    status: str  # "done", "refused" or "not found"
    sentences: frozenset[str]
    players_made: int


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def through_api(world: World, path: str, body: dict[str, Any]) -> Outcome:
    client = APIClient()
    client.force_authenticate(world.organiser)
    before = Player.objects.count()
    answer = client.post(f"/api/events/{world.event.id}/{path}", body, format="json")
    made = Player.objects.count() - before
    assert answer.status_code < 500, answer.content
    if answer.status_code == 200:
        return Outcome("done", frozenset(), made)
    if answer.status_code == 404:
        return Outcome("not found", frozenset(), made)
    data = answer.json()
    said = {text for key, value in data.items() if key != "code" for text in _strings(value)}
    return Outcome("refused", frozenset(said), made)


def _form_errors(answer: Any) -> set[str]:
    said: set[str] = set()
    contexts = answer.context if isinstance(answer.context, list) else [answer.context]
    values = [value for context in contexts for value in context.flatten().values()]
    for value in values:
        if isinstance(value, forms.BaseForm) and value.is_bound:
            said.update(str(text) for text in value.non_field_errors())
            for field in value.errors:
                if field != "__all__":
                    said.update(str(text) for text in value.errors[field])
    return said


def through_page(world: World, path: str, form: dict[str, Any]) -> Outcome:
    client = Client()
    client.force_login(world.organiser)
    before = Player.objects.count()
    answer = client.post(f"/events/{world.event.id}/{path}", form)
    made = Player.objects.count() - before
    assert answer.status_code < 500, answer.content
    if answer.status_code == 404:
        return Outcome("not found", frozenset(), made)
    if answer.status_code == 302:
        said = list(get_messages(answer.wsgi_request))
        errors = {m.message for m in said if m.level == constants.ERROR}
        if errors:
            return Outcome("refused", frozenset(errors), made)
        assert any(m.level == constants.SUCCESS for m in said), "a silent redirect"
        return Outcome("done", frozenset(), made)
    assert answer.status_code in (400, 409), answer.status_code
    errors = _form_errors(answer)
    assert errors, "a form shown again must say why"
    for text in errors:  # shown to the organiser, not only kept in the context
        assert text.replace("'", "&#x27;") in answer.content.decode(), text
    return Outcome("refused", frozenset(errors), made)


# --- the state an action may change -----------------------------------------------------------


def _game(game: Game | None) -> Any:
    if game is None:
        return None
    seats = tuple(getattr(game, seat).name for seat in ("north", "east", "south", "west"))
    clock = (game.started_at is not None, game.paused_at is not None, game.added_minutes)
    return (seats, game.status, game.ns_score, game.ew_score, clock)


def state(event: Event) -> Any:
    """The event as a person sees it (names, not ids), so two worlds compare."""
    event.refresh_from_db()
    rounds = [(r.number, r.status, r.started_at is not None) for r in event.round_set.all()]
    rows = (
        Pairing.objects.filter(event=event)
        .select_related("home", "away", "table", "round")
        .select_related("game__north", "game__east", "game__south", "game__west")
    )
    pairings = sorted(
        (
            p.round.number,
            p.table.number if p.table else 0,
            p.home.name if p.home else "",
            p.away.name if p.away else "",
            p.result,
            p.winner_side,
            p.home_points,
            p.away_points,
            p.reason,
            p.played_late,
            _game(p.game),
        )
        for p in rows
    )
    subs = sorted(
        (s.seat, s.replaced.name, s.substitute.name, s.reason)
        for s in Substitution.objects.filter(entry__event=event).select_related(
            "replaced", "substitute"
        )
    )
    return (event.status, rounds, pairings, subs)


# --- the cases --------------------------------------------------------------------------------

Door = tuple[str, dict[str, Any]]  # the path under the event, and the body or form


@dataclass(frozen=True)
class Case:
    name: str
    api: Callable[[World], Door]
    page: Callable[[World], Door]
    expect: str | None  # None: allowed; else a sentence both doors say (or "404")
    setup: Callable[[World], None] | None = None


def case(
    name: str,
    doors: tuple[Callable[[World], Door], Callable[[World], Door]],
    expect: str | None,
    setup: Callable[[World], None] | None = None,
) -> Case:
    """A case whose two doors come from ``same`` or ``on_game``."""
    return Case(name, doors[0], doors[1], expect, setup)


def same(
    path: Callable[[World], str], body: Callable[[World], dict[str, Any]]
) -> tuple[Callable[[World], Door], Callable[[World], Door]]:
    """The API and the page take the same path and the same fields."""

    def door(w: World) -> Door:
        return path(w), body(w)

    return door, door


def started(world: World) -> None:
    services.round_start_unchecked(round_=world.round)


def started_and_paused(world: World) -> None:
    started(world)
    services.round_pause_unchecked(round_=world.round)


def started_with_a_game_waiting(world: World) -> None:
    """The round started while the first game was marked late; it no longer is, and its clock
    waits for "start the waiting clocks"."""
    services.pairing_mark_late_unchecked(pairing=world.first, late=True)
    started(world)
    services.pairing_mark_late_unchecked(pairing=world.first, late=False)


def marked_late(world: World) -> None:
    services.pairing_mark_late_unchecked(pairing=world.first, late=True)


def nothing(w: World) -> dict[str, Any]:
    return {}


R1 = "rounds/1/"


def game(w: World, pairing: Pairing | None = None) -> str:
    return f"pairings/{(pairing or w.first).id}/"


def page_game(w: World, pairing: Pairing | None = None) -> str:
    return f"games/{(pairing or w.first).id}/"


def seated(pairing: Pairing) -> Game:
    assert pairing.game is not None
    return pairing.game


ROUND_CASES = [
    case("start", same(lambda w: R1 + "start/", nothing), None),
    case(
        "start twice",
        same(lambda w: R1 + "start/", nothing),
        "Round 1 has already started.",
        started,
    ),
    case("start a round that is not there", same(lambda w: "rounds/9/start/", nothing), "404"),
    case(
        "start the waiting clocks before the round",
        same(lambda w: R1 + "start-waiting/", nothing),
        "Round 1 has not started yet; start the round.",
    ),
    case(
        "start the waiting clocks",
        same(lambda w: R1 + "start-waiting/", nothing),
        None,
        started_with_a_game_waiting,
    ),
    case("pause", same(lambda w: R1 + "pause/", nothing), None, started),
    case("resume", same(lambda w: R1 + "resume/", nothing), None, started_and_paused),
    case(
        "add minutes",
        same(lambda w: R1 + "add-minutes/", lambda w: {"minutes": 5}),
        None,
        started,
    ),
    case(
        "add no minutes",
        same(lambda w: R1 + "add-minutes/", lambda w: {"minutes": 0}),
        "Add between 1 and 120 minutes (or take back up to 60).",
        started,
    ),
    case(
        "swap tables",
        same(
            lambda w: R1 + "swap-tables/",
            lambda w: {"first": w.first.id, "second": w.second.id},
        ),
        None,
    ),
    case(
        "swap tables with another event's game",
        same(
            lambda w: R1 + "swap-tables/",
            lambda w: {"first": w.first.id, "second": w.foreign_game().id},
        ),
        "swiss event has no game",
    ),
    case(
        "swap tables with a game that does not exist",
        same(lambda w: R1 + "swap-tables/", lambda w: {"first": MISSING, "second": w.first.id}),
        f"swiss event has no game {MISSING}.",
    ),
    case(
        "swap tables with the bye",
        same(lambda w: R1 + "swap-tables/", lambda w: {"first": w.first.id, "second": w.bye.id}),
        "A bye has no table to swap.",
    ),
    case(
        "swap teams",
        same(
            lambda w: R1 + "swap-teams/",
            lambda w: {"first": w.first.home_id, "second": w.second.away_id},
        ),
        None,
    ),
    case(
        "swap teams with another event's entry",
        same(
            lambda w: R1 + "swap-teams/",
            lambda w: {"first": w.first.home_id, "second": w.foreign_entry().id},
        ),
        "swiss event has no entry",
    ),
    case(
        "swap teams with an entry that does not exist",
        same(
            lambda w: R1 + "swap-teams/",
            lambda w: {"first": MISSING, "second": w.first.home_id},
        ),
        f"swiss event has no entry {MISSING}.",
    ),
    case(
        "swap teams once the round started",
        same(
            lambda w: R1 + "swap-teams/",
            lambda w: {"first": w.first.home_id, "second": w.second.away_id},
        ),
        "Round 1 has started; its teams and tables can no longer change.",
        started,
    ),
]


def on_game(
    action: str,
    body: Callable[[World], dict[str, Any]],
    pick: Callable[[World], Pairing] | None = None,
) -> tuple[Callable[[World], Door], Callable[[World], Door]]:
    """The same action and fields through both doors, on the first game (or ``pick``'s)."""
    return (
        lambda w: (game(w, pick(w) if pick else None) + action + "/", body(w)),
        lambda w: (page_game(w, pick(w) if pick else None) + action + "/", body(w)),
    )


def bye(w: World) -> Pairing:
    return w.bye


ADJUSTED = {"winner": "home", "home_points": 40, "away_points": 30, "reason": "Score sheet"}

PAIRING_CASES = [
    case(
        "forfeit",
        on_game("forfeit", lambda w: {"forfeiting": "away", "reason": "No show", "confirm": "1"}),
        None,
    ),
    case(
        "forfeit a bye",
        on_game("forfeit", lambda w: {"forfeiting": "away", "confirm": "1"}, bye),
        "does not have both its teams yet.",
    ),
    Case(
        "forfeit another event's game",
        lambda w: (game(w, w.foreign_game()) + "forfeit/", {"forfeiting": "away"}),
        lambda w: (page_game(w, w.foreign_game()) + "forfeit/", {"forfeiting": "away"}),
        "404",
    ),
    Case(
        "forfeit a game that does not exist",
        lambda w: (f"pairings/{MISSING}/forfeit/", {"forfeiting": "away"}),
        lambda w: (f"games/{MISSING}/forfeit/", {"forfeiting": "away"}),
        "404",
    ),
    case("adjust", on_game("adjust", lambda w: ADJUSTED), None),
    case(
        "adjust with the winner behind",
        on_game("adjust", lambda w: {**ADJUSTED, "home_points": 10}),
        "The winner of an adjusted result needs the higher score, or a tie.",
    ),
    Case(
        "late",
        lambda w: (game(w) + "late/", {"late": True}),
        lambda w: (page_game(w) + "late/", {}),
        None,
    ),
    Case(
        "not late",
        lambda w: (game(w) + "late/", {"late": False}),
        lambda w: (page_game(w) + "not-late/", {}),
        None,
        marked_late,
    ),
    Case(
        "late once the clock runs",
        lambda w: (game(w) + "late/", {"late": True}),
        lambda w: (page_game(w) + "late/", {}),
        "rather than marking the game as played late.",
        started,
    ),
    case(
        "bye points",
        on_game("bye-points", lambda w: {"points_for": 40, "points_against": 20}, bye),
        None,
    ),
    case(
        "bye points of a game",
        on_game("bye-points", lambda w: {"points_for": 40, "points_against": 20}),
        "Only a bye's points can be set this way.",
    ),
    case(
        "substitute",
        on_game(
            "substitute",
            lambda w: {
                "replaced": seated(w.first).north_id,
                "substitute_name": "Walk-in Wanda",
                "reason": "Late bus",
            },
        ),
        None,
    ),
    case(
        "substitute for a player who does not exist",
        on_game("substitute", lambda w: {"replaced": MISSING, "substitute_name": "Walk-in Wanda"}),
        f"Player {MISSING} does not sit at this game.",
    ),
    case(
        "substitute for a player of another game",
        on_game(
            "substitute",
            lambda w: {"replaced": seated(w.second).north_id, "substitute_name": "Walk-in Wanda"},
        ),
        "does not sit at this game.",
    ),
    case(
        "substitute a player already at the game",
        on_game(
            "substitute",
            lambda w: {
                "replaced": seated(w.first).north_id,
                "substitute_name": seated(w.first).east.name,
            },
        ),
        "already plays in this game.",
    ),
    Case(
        "start the clock",
        lambda w: (game(w) + "clock/", {"action": "start"}),
        lambda w: (page_game(w) + "start/", {}),
        None,
    ),
    Case(
        "pause the clock",
        lambda w: (game(w) + "clock/", {"action": "pause"}),
        lambda w: (page_game(w) + "pause/", {}),
        None,
        started,
    ),
    Case(
        "resume the clock",
        lambda w: (game(w) + "clock/", {"action": "resume"}),
        lambda w: (page_game(w) + "resume/", {}),
        None,
        started_and_paused,
    ),
    Case(
        "add minutes to the clock",
        lambda w: (game(w) + "clock/", {"action": "add", "minutes": 10}),
        lambda w: (page_game(w) + "add/", {"minutes": 10}),
        None,
        started,
    ),
    Case(
        "add no minutes to the clock",
        lambda w: (game(w) + "clock/", {"action": "add", "minutes": 0}),
        lambda w: (page_game(w) + "add/", {"minutes": 0}),
        "Add between 1 and 120 minutes (or take back up to 60).",
        started,
    ),
    Case(
        "the clock of a bye",
        lambda w: (game(w, w.bye) + "clock/", {"action": "start"}),
        lambda w: (page_game(w, w.bye) + "start/", {}),
        "This pairing has no game yet.",
    ),
    Case(
        "roll back a game of no bracket",
        lambda w: (game(w) + "rollback/", {"confirm": True, "reason": "check"}),
        lambda w: (page_game(w) + "rollback/", {"reason": "check"}),
        "Only a bracket game has later games to roll back.",
    ),
]


@pytest.mark.parametrize("case", ROUND_CASES + PAIRING_CASES, ids=lambda c: c.name)
def test_both_doors_answer_the_same(case: Case) -> None:
    world = make_world()
    if case.setup:
        case.setup(world)
    before = state(world.event)
    by_api = through_api(world, *case.api(world))
    if case.expect is not None:  # refused: nothing written, so the page meets the same event
        assert state(world.event) == before
        by_page = through_page(world, *case.page(world))
        assert state(world.event) == before
        assert by_api.players_made == by_page.players_made == 0
        if case.expect == "404":
            assert by_api.status == by_page.status == "not found"
            return
        assert by_api.status == by_page.status == "refused", (by_api, by_page)
        assert any(case.expect in text for text in by_api.sentences), by_api.sentences
        assert by_page.sentences and by_page.sentences <= by_api.sentences, (by_page, by_api)
        return
    assert by_api.status == "done", by_api
    assert state(world.event) != before, "an action that changes nothing"
    twin = make_world(other=world.other)
    if case.setup:
        case.setup(twin)
    assert state(twin.event) == before
    by_page = through_page(twin, *case.page(twin))
    assert by_page.status == "done", by_page
    assert state(twin.event) == state(world.event)
    assert by_page.players_made == by_api.players_made


def test_a_refused_substitution_makes_no_player_through_either_door() -> None:
    world = make_world()
    services.pairing_forfeit_unchecked(pairing=world.first, forfeiting="home")  # the game is over
    replaced = seated(world.first).north_id
    body = {"replaced": replaced, "substitute_name": "Nobody Yet"}
    by_api = through_api(world, game(world) + "substitute/", body)
    by_page = through_page(world, page_game(world) + "substitute/", body)
    assert by_api.status == by_page.status == "refused"
    assert "This game is over; its players can no longer change." in by_api.sentences
    assert by_page.sentences <= by_api.sentences
    assert by_api.players_made == by_page.players_made == 0
    assert not Player.objects.filter(name="Nobody Yet").exists()
    assert not Substitution.objects.exists()


@pytest.mark.parametrize("minutes", ["", "soon", "500"])
def test_an_invalid_add_minutes_form_is_shown_again_with_its_error(
    client: Any, minutes: str
) -> None:
    world = make_world()
    started(world)
    client.force_login(world.organiser)
    answer = client.post(f"/events/{world.event.id}/rounds/1/add-minutes/", {"minutes": minutes})
    assert answer.status_code == 400  # not a redirect that says nothing
    page = answer.content.decode()
    assert 'class="form-errors" role="alert"' in page
    error = {
        "": "This field is required.",
        "soon": "Enter a whole number.",
        "500": "Ensure this value is less than or equal to 120.",
    }[minutes]
    assert f"Minutes: {error}" in page
    game_of_first = Game.objects.get(id=seated(world.first).id)
    assert game_of_first.added_minutes == 0
    clock = client.post(
        f"/events/{world.event.id}/games/{world.first.id}/add/", {"minutes": minutes}
    )
    assert clock.status_code == 400 and f"Minutes: {error}" in clock.content.decode()


def test_a_refusal_on_a_page_whose_form_is_gone_still_shows(client: Any) -> None:
    """The forfeit form is only shown for a game without a result; refused because the game
    has one, the form comes back with the sentence rather than vanish with it."""
    world = make_world()
    services.pairing_forfeit_unchecked(pairing=world.first, forfeiting="home")
    client.force_login(world.organiser)
    answer = client.post(
        f"/events/{world.event.id}/games/{world.first.id}/forfeit/", {"forfeiting": "away"}
    )
    assert answer.status_code == 400
    assert "already has a result (Forfeit); adjust the result instead." in answer.content.decode()


ROUND_ACTIONS = ["start", "start-waiting", "pause", "resume", "add-minutes", "swap-tables"]
ROUND_ACTIONS += ["swap-teams"]
PAIRING_ACTIONS = ["forfeit", "adjust", "late", "bye-points", "substitute", "clock", "rollback"]


def test_the_schema_shows_a_request_body_for_every_action(api_client: Any) -> None:
    schema = api_client.get("/api/schema/", {"format": "json"}).json()
    paths = schema["paths"]
    named = {
        **{f"/api/events/{{id}}/rounds/{{number}}/{action}/": action for action in ROUND_ACTIONS},
        **{
            f"/api/events/{{id}}/pairings/{{pairing_id}}/{action}/": action
            for action in PAIRING_ACTIONS
        },
    }
    for path in named:
        body = paths[path]["post"].get("requestBody")
        assert body is not None, path
        assert body["content"]["application/json"]["schema"], path
    components = schema["components"]["schemas"]
    clock = paths["/api/events/{id}/pairings/{pairing_id}/clock/"]["post"]["requestBody"]
    ref = clock["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert set(components[ref]["properties"]) == {"action", "minutes"}
    substitute = paths["/api/events/{id}/pairings/{pairing_id}/substitute/"]["post"]
    ref = substitute["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    fields = set(components[ref.rsplit("/", 1)[-1]]["properties"])
    assert fields == {"replaced", "substitute", "substitute_name", "substitute_new", "reason"}
    # No action is left behind a catch-all address.
    assert not [p for p in paths if "{action}" in p and ("/rounds/" in p or "/pairings/" in p)]


def test_a_player_of_the_club_who_is_not_an_organiser_is_refused_by_the_service() -> None:
    """The doors find the event; the service decides who acts (the same sentence for any
    caller, a door or not)."""
    from kaiser_club.actors import Actor
    from kaiser_club.errors import NotAllowed
    from tournaments.services import actions

    world = make_world()
    player = member(world.event.club, Role.PLAYER)
    with pytest.raises(NotAllowed, match="does not allow this"):
        actions.round_start(actor=Actor.of(player), round_=world.round)
    with pytest.raises(NotAllowed):
        actions.pairing_forfeit(actor=Actor.of(player), pairing=world.first, forfeiting="home")
    assert Round.objects.get(id=world.round.id).started_at is None
