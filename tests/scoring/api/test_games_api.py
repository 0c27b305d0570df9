"""The games API, endpoint by endpoint: the happy path, then every error path (400 with a
message per field, 403 for a role too low, 404 for a game you cannot see, 409 for a stale write
with the game's current state, 409 for a client id reused with another body).

The game is a tournament game (minimum bid 7, 60 minutes). Scores are worked out by hand."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from kaiser_club.models import Club
from kaiser_club.roles import Role
from scoring import services
from scoring.models import Game, GameChange, Hand
from tests.factories import start_game
from tests.scoring.api.conftest import ClientFor
from tests.scoring.hands import (
    EW,
    NS,
    E,
    N,
    S,
    hand_json,
    make_club,
    make_player,
    make_team,
    played,
    record,
)

pytestmark = pytest.mark.django_db


def url(game: Game | int, action: str = "") -> str:
    game_id = game if isinstance(game, int) else game.id
    return f"/api/games/{game_id}/{action + '/' if action else ''}"


def post(client: APIClient, path: str, body: dict[str, Any] | None = None) -> Any:
    return client.post(path, body or {}, format="json")


def hands_of(game: Game) -> list[tuple[int, int, int]]:
    return list(
        Hand.objects.filter(game=game)
        .order_by("number")
        .values_list("number", "ns_score", "ew_score")
    )


# --- Reading games -----------------------------------------------------------------------------


def test_list_games_of_my_clubs(game: Game, player: APIClient, club: Club) -> None:
    start_game(club=make_club())  # another club's game: not listed
    finished = start_game(club=club)
    services.game_forfeit(game_id=finished.id, forfeited_by=NS)
    answer = player.get("/api/games/")
    assert answer.status_code == 200
    body = answer.json()
    assert body["count"] == 2
    assert {g["id"] for g in body["results"]} == {game.id, finished.id}
    only_running = player.get("/api/games/", {"status": "in_progress"}).json()
    assert [g["id"] for g in only_running["results"]] == [game.id]
    listed = next(g for g in body["results"] if g["id"] == game.id)
    assert listed["seats"]["north"] == {"id": game.north_id, "name": game.north.name}
    assert listed["ns_team"]["player_one"]["id"] == game.ns_team.player_one_id
    assert "hands" not in listed


def test_list_games_needs_sign_in(client_for: ClientFor) -> None:
    answer = client_for(None).get("/api/games/")
    assert answer.status_code == 403
    assert answer.json() == {"detail": "Authentication credentials were not provided."}


def test_an_outsider_lists_no_games(game: Game, client_for: ClientFor) -> None:
    assert client_for("outsider").get("/api/games/").json()["count"] == 0


def test_read_a_game_with_its_hands_and_state(game: Game, player: APIClient) -> None:
    record(game, played(N, 7, 6, NS, EW))
    answer = player.get(url(game))
    assert answer.status_code == 200
    body = answer.json()
    assert (body["ns_score"], body["ew_score"], body["hand_count"], body["dealer"]) == (
        11,
        -1,
        1,
        1,
    )
    assert (body["target"], body["bid_out_line"], body["status"], body["version"]) == (
        52,
        47,
        "in_progress",
        2,
    )
    assert body["deadline"] is not None
    assert body["rules"]["min_bid"] == 7
    assert len(body["hands"]) == 1
    assert body["hands"][0]["ns_points"] == 11
    assert set(body["seats"]) == {"north", "east", "south", "west"}


@pytest.mark.parametrize("who", ["outsider", "unknown"])
def test_read_an_unknown_or_invisible_game_is_404(
    game: Game, client_for: ClientFor, player: APIClient, who: str
) -> None:
    if who == "outsider":
        answer = client_for("outsider").get(url(game))
        expected = f"There is no game {game.id} that you can see."
    else:
        answer = player.get(url(999999))
        expected = "There is no game 999999 that you can see."
    assert answer.status_code == 404
    assert answer.json() == {"detail": expected, "code": "not_found"}


def test_a_game_id_that_is_not_a_number_is_404(player: APIClient, scorekeeper: APIClient) -> None:
    assert player.get("/api/games/abc/").status_code == 404
    assert post(scorekeeper, "/api/games/abc/hands/", hand_json()).status_code == 404


def test_read_a_game_needs_sign_in(game: Game, client_for: ClientFor) -> None:
    assert client_for(None).get(url(game)).status_code == 403


# --- Starting a game ---------------------------------------------------------------------------


def new_game_body(club: Club, **changes: Any) -> dict[str, Any]:
    ns, ew = make_team(club=club), make_team(club=club)
    body: dict[str, Any] = {
        "club": club.id,
        "ns_team": ns.id,
        "ew_team": ew.id,
        "first_dealer": 2,
    }
    body.update(changes)
    return body


def test_create_a_game_from_the_clubs_preset(club: Club, organiser: APIClient) -> None:
    answer = post(organiser, "/api/games/", new_game_body(club))
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["preset"], body["dealer"], body["first_dealer"]) == ("tournament", 2, 2)
    assert (body["time_limit_minutes"], body["hands"], body["version"]) == (60, [], 1)
    assert body["started_at"] is not None
    game = Game.objects.get(id=body["id"])
    assert game.created_by is not None


def test_create_a_game_with_a_preset_changes_seats_and_from_paper(
    club: Club, organiser: APIClient
) -> None:
    ns, ew = make_team(club=club), make_team(club=club)
    body = {
        "club": club.id,
        "ns_team": ns.id,
        "ew_team": ew.id,
        "north": ns.player_two_id,
        "south": ns.player_one_id,
        "east": ew.player_two_id,
        "west": ew.player_one_id,
        "first_dealer": 0,
        "preset": "saskatchewan",
        "rules": {"raised_target": 72, "raised_bid_out_line": 65},
        "from_paper": True,
    }
    answer = post(organiser, "/api/games/", body)
    assert answer.status_code == 201, answer.json()
    created = answer.json()
    assert created["preset"] == "saskatchewan"
    assert (created["rules"]["raised_target"], created["rules"]["min_bid"]) == (72, 7)
    assert created["seats"]["north"]["id"] == ns.player_two_id
    assert created["seats"]["west"]["id"] == ew.player_one_id
    assert (created["from_paper"], created["time_limit_minutes"], created["deadline"]) == (
        True,
        None,
        None,
    )


def test_create_a_game_with_missing_fields(organiser: APIClient) -> None:
    answer = post(organiser, "/api/games/", {})
    assert answer.status_code == 400
    required = ["This field is required."]
    assert answer.json() == {
        "club": required,
        "ns_team": required,
        "ew_team": required,
        "first_dealer": required,
    }


def test_create_a_game_with_bad_shapes(club: Club, organiser: APIClient) -> None:
    body = new_game_body(club)
    body.update(club=999999, first_dealer=7, ns_team="x", rules="fast")
    answer = post(organiser, "/api/games/", body)
    assert answer.status_code == 400
    assert answer.json() == {
        "club": ["There is no club 999999 that you are a member of."],
        "ns_team": ["Incorrect type. Expected pk value, received str."],
        "first_dealer": ['"7" is not a valid choice.'],
        "rules": ['Expected a dictionary of items but got type "str".'],
    }


def test_create_a_game_with_some_seats_only(club: Club, organiser: APIClient) -> None:
    body = new_game_body(club)
    body["north"] = make_player().id
    answer = post(organiser, "/api/games/", body)
    assert answer.status_code == 400
    assert answer.json() == {
        "non_field_errors": ["Give all four seats, or none to seat the teams."]
    }


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        (
            {"preset": "poker"},
            {
                "detail": "There is no preset named 'poker'; the presets are: standard, club, "
                "tournament, saskatchewan, les_rois, joffre.",
                "code": "invalid",
                "preset": [
                    "There is no preset named 'poker'; the presets are: standard, club, "
                    "tournament, saskatchewan, les_rois, joffre."
                ],
            },
        ),
        (
            {"rules": {"colour": "red"}},
            {
                "detail": "There is no rule option named 'colour'.",
                "code": "invalid",
                "rules": ["There is no rule option named 'colour'."],
            },
        ),
        (
            {"rules": {"target": 40, "min_bid": 13}},
            {
                "detail": "The minimum bid must be from 1 to 12, not 13. "
                "The bid-out line (47) must be below the target (40).",
                "code": "invalid",
                "rules": [
                    "The minimum bid must be from 1 to 12, not 13.",
                    "The bid-out line (47) must be below the target (40).",
                ],
            },
        ),
    ],
)
def test_create_a_game_with_a_bad_preset_or_option(
    club: Club, organiser: APIClient, changes: dict[str, Any], expected: dict[str, Any]
) -> None:
    answer = post(organiser, "/api/games/", new_game_body(club, **changes))
    assert answer.status_code == 400
    assert answer.json() == expected
    assert Game.objects.count() == 0


def test_create_a_game_between_teams_sharing_a_player(club: Club, organiser: APIClient) -> None:
    shared = make_player()
    ns = make_team(club=club, name="Aces", player_one=shared)
    ew = make_team(club=club, name="Kings", player_one=shared)
    body = {"club": club.id, "ns_team": ns.id, "ew_team": ew.id, "first_dealer": 0}
    answer = post(organiser, "/api/games/", body)
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "Aces and Kings share a player; a game needs four different players.",
        "code": "invalid",
    }
    same = post(organiser, "/api/games/", {**body, "ew_team": ns.id})
    assert same.status_code == 400
    assert same.json()["detail"] == "A game needs two different teams."


def test_create_a_game_with_wrong_seats(club: Club, organiser: APIClient) -> None:
    ns, ew = make_team(club=club, name="Aces"), make_team(club=club)
    body = {
        "club": club.id,
        "ns_team": ns.id,
        "ew_team": ew.id,
        "north": ew.player_one_id,
        "south": ns.player_one_id,
        "east": ns.player_two_id,
        "west": ew.player_two_id,
        "first_dealer": 0,
    }
    answer = post(organiser, "/api/games/", body)
    assert answer.status_code == 400
    assert answer.json()["detail"] == "North and south must be the two players of Aces."


@pytest.mark.parametrize("role", [None, "outsider", Role.PLAYER, Role.SCOREKEEPER])
def test_create_a_game_needs_an_organiser(
    club: Club, client_for: ClientFor, role: Role | str | None
) -> None:
    answer = post(client_for(role), "/api/games/", new_game_body(club))
    # An outsider names a club that is not theirs: answered as a club that does not exist.
    assert answer.status_code == (400 if role == "outsider" else 403)
    if role == "outsider":
        assert club.name not in answer.content.decode()
    assert Game.objects.count() == 0


# --- Recording hands ---------------------------------------------------------------------------


def test_record_a_hand(game: Game, scorekeeper: APIClient) -> None:
    body = hand_json(bidder=0, bid=7, tricks=6, five="ns", three="ew", number=1)
    answer = post(scorekeeper, url(game, "hands"), body)
    assert answer.status_code == 201, answer.json()
    hand, state = answer.json()["hand"], answer.json()["game"]
    assert (hand["number"], hand["client_id"], hand["dealer"]) == (1, body["client_id"], 0)
    assert (hand["ns_points"], hand["ew_points"], hand["made"]) == (11, -1, True)
    assert (hand["ns_score"], hand["ew_score"], hand["after_time"]) == (11, -1, False)
    assert hand["completed_at"] is not None
    assert (state["ns_score"], state["ew_score"], state["dealer"], state["hand_count"]) == (
        11,
        -1,
        1,
        1,
    )
    assert state["version"] == 2
    assert hands_of(game) == [(1, 11, -1)]


def test_a_retry_gets_the_same_hand_with_200(game: Game, scorekeeper: APIClient) -> None:
    body = hand_json(number=1)
    first = post(scorekeeper, url(game, "hands"), body)
    again = post(scorekeeper, url(game, "hands"), body)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json()["hand"] == first.json()["hand"]
    assert Hand.objects.filter(game=game).count() == 1


def test_a_client_id_reused_with_another_body_is_409(game: Game, scorekeeper: APIClient) -> None:
    body = hand_json(number=1)
    post(scorekeeper, url(game, "hands"), body)
    answer = post(scorekeeper, url(game, "hands"), {**body, "bid": 9, "number": 2})
    assert answer.status_code == 409
    assert answer.json() == {
        "detail": f"Hand id {body['client_id']} was already used for hand 1 with other "
        "details. Each new hand needs a new id.",
        "code": "client_id_reused",
        "hand_number": 1,
    }
    assert Hand.objects.filter(game=game).count() == 1


def test_a_stale_hand_number_is_409_with_the_current_game(
    game: Game, scorekeeper: APIClient
) -> None:
    record(game, played(N, 7, 6, NS, EW))
    answer = post(scorekeeper, url(game, "hands"), hand_json(bidder=1, number=1))
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "stale"
    assert body["detail"] == (
        "This entry was for hand 1, but the game has 1 hand recorded: it moved on meanwhile. "
        "Check the score sheet and enter the hand again if it is still missing."
    )
    assert (body["game"]["id"], body["game"]["hand_count"], body["game"]["version"]) == (
        game.id,
        1,
        2,
    )
    assert [(h["number"], h["ns_score"]) for h in body["game"]["hands"]] == [(1, 11)]
    assert Hand.objects.filter(game=game).count() == 1


def test_record_a_hand_with_bad_shapes(game: Game, scorekeeper: APIClient) -> None:
    body = {
        "kind": "thrown",
        "bidder": 9,
        "bid": "seven",
        "contract": "slam",
        "trump": "stars",
        "bidding_team_tricks": -1,
        "five_hearts": "north",
        "completed_at": "yesterday",
        "number": 0,
    }
    answer = post(scorekeeper, url(game, "hands"), body)
    assert answer.status_code == 400
    assert answer.json() == {
        "kind": ['"thrown" is not a valid choice.'],
        "bidder": ['"9" is not a valid choice.'],
        "bid": ["A valid integer is required."],
        "contract": ['"slam" is not a valid choice.'],
        "trump": ['"stars" is not a valid choice.'],
        "bidding_team_tricks": ["Ensure this value is greater than or equal to 0."],
        "five_hearts": ['"north" is not a valid choice.'],
        "completed_at": [
            "Datetime has wrong format. Use one of these formats instead: "
            "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]."
        ],
        "client_id": ["This field is required."],
        "number": ["Ensure this value is greater than or equal to 1."],
    }
    assert Hand.objects.filter(game=game).count() == 0


def test_a_hand_the_rules_refuse_is_400_with_a_message_per_field_and_codes(
    game: Game, scorekeeper: APIClient
) -> None:
    answer = post(scorekeeper, url(game, "hands"), hand_json(bid=4, trump=None))
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "Bid 4 is below this game's minimum of 7. "
        "Choose the trump suit for a bid in a suit.",
        "code": "hand_refused",
        "bid": ["Bid 4 is below this game's minimum of 7."],
        "trump": ["Choose the trump suit for a bid in a suit."],
        "refusals": [
            {
                "code": "bid_below_minimum",
                "field": "bid",
                "params": {"bid": 4, "minimum": 7},
                "message": "Bid 4 is below this game's minimum of 7.",
            },
            {
                "code": "trump_required",
                "field": "trump",
                "params": {},
                "message": "Choose the trump suit for a bid in a suit.",
            },
        ],
    }
    assert Hand.objects.filter(game=game).count() == 0


@pytest.mark.parametrize(
    ("changes", "codes"),
    [
        ({"bidding_team_tricks": 9}, ["tricks_out_of_range"]),
        ({"bidding_team_tricks": 0, "five_hearts": "ns"}, ["card_without_tricks"]),
        ({"kind": "misdeal", "misdeal_reason": "no_face_card"}, ["misdeal_not_allowed"]),
        ({"forced": True, "bidder": 2}, ["forced_not_dealer"]),
        ({"contract": "low_no_trump", "trump": None}, ["low_no_trump_not_allowed"]),
        ({"bidder_tricks": 3}, ["bidder_tricks_not_allowed"]),
        ({"bid": 13}, ["bid_above_maximum"]),
        ({"bidder": None, "five_hearts": None}, ["bidder_required", "card_holder_required"]),
    ],
)
def test_rule_refusals_carry_their_codes(
    game: Game, scorekeeper: APIClient, changes: dict[str, Any], codes: list[str]
) -> None:
    answer = post(scorekeeper, url(game, "hands"), hand_json(**changes))
    assert answer.status_code == 400, answer.json()
    body = answer.json()
    assert body["code"] == "hand_refused"
    assert [r["code"] for r in body["refusals"]] == codes
    for refusal in body["refusals"]:
        assert refusal["message"] in body[refusal["field"]]


def test_a_hand_after_the_game_is_over_is_400(game: Game, scorekeeper: APIClient) -> None:
    services.game_forfeit(game_id=game.id, forfeited_by=EW)
    answer = post(scorekeeper, url(game, "hands"), hand_json())
    assert answer.status_code == 400
    body = answer.json()
    assert body["detail"] == "This game is over: North–South won."
    assert [r["code"] for r in body["refusals"]] == ["game_over"]


@pytest.mark.parametrize("role", [Role.PLAYER])
def test_record_needs_a_scorekeeper(
    game: Game, client_for: ClientFor, role: Role | str | None
) -> None:
    answer = post(client_for(role), url(game, "hands"), hand_json())
    assert answer.status_code == 403
    assert answer.json()["detail"] == f"Your role in {game.club} does not allow this."
    assert Hand.objects.filter(game=game).count() == 0


def test_record_in_an_invisible_or_unknown_game_is_404(
    game: Game, client_for: ClientFor, scorekeeper: APIClient
) -> None:
    assert post(client_for("outsider"), url(game, "hands"), hand_json()).status_code == 404
    assert post(scorekeeper, url(999999, "hands"), hand_json()).status_code == 404
    assert post(client_for(None), url(game, "hands"), hand_json()).status_code == 403


def test_record_needs_post(game: Game, scorekeeper: APIClient) -> None:
    assert scorekeeper.get(url(game, "hands")).status_code == 405


# --- Undo --------------------------------------------------------------------------------------


def test_undo_the_last_hand(game: Game, scorekeeper: APIClient, organiser: APIClient) -> None:
    record(game, played(N, 7, 6, NS, EW))
    record(game, played(E, 7, 5, EW, NS))
    answer = post(scorekeeper, url(game, "undo"), {"number": 2})
    assert answer.status_code == 200
    body = answer.json()
    assert (body["hand_count"], body["ns_score"], body["ew_score"], body["dealer"]) == (
        1,
        11,
        -1,
        1,
    )
    assert [h["number"] for h in body["hands"]] == [1]
    # Undone once: the hand before it is the organiser's to correct, not the scorekeeper's.
    again = post(scorekeeper, url(game, "undo"))
    assert again.status_code == 400
    assert again.json() == {
        "detail": "Only the hand just entered can be undone, once, until the next one is "
        "entered. An organiser corrects earlier hands.",
        "code": "undo_not_last",
    }
    assert len(hands_of(game)) == 1
    assert post(organiser, url(game, "undo")).status_code == 200  # no number: the last
    assert hands_of(game) == []


def test_undo_by_the_hands_id_and_its_retry(game: Game, scorekeeper: APIClient) -> None:
    record(game, played(N, 7, 6, NS, EW))
    last = record(game, played(E, 7, 5, EW, NS)).hand
    body = {"client_id": str(last.client_id)}
    answer = post(scorekeeper, url(game, "undo"), body)
    assert answer.status_code == 200 and answer.json()["hand_count"] == 1
    again = post(scorekeeper, url(game, "undo"), body)  # the same request sent again
    assert again.status_code == 200 and again.json()["hand_count"] == 1  # nothing more undone
    assert len(hands_of(game)) == 1


def test_undo_errors(game: Game, scorekeeper: APIClient, player: APIClient) -> None:
    nothing = post(scorekeeper, url(game, "undo"))
    assert nothing.status_code == 400
    assert nothing.json() == {
        "detail": "There is no hand to undo: this game has none recorded yet.",
        "code": "invalid",
    }
    record(game, played(N, 7, 6, NS, EW))
    record(game, played(E, 7, 5, EW, NS))
    stale = post(scorekeeper, url(game, "undo"), {"number": 1})
    assert stale.status_code == 409
    assert stale.json()["code"] == "stale"
    assert stale.json()["detail"] == (
        "You asked to undo hand 1, but the last hand is 2. Only the last hand can be undone."
    )
    assert stale.json()["game"]["hand_count"] == 2
    bad = post(scorekeeper, url(game, "undo"), {"number": "last"})
    assert (bad.status_code, bad.json()) == (400, {"number": ["A valid integer is required."]})
    assert post(player, url(game, "undo")).status_code == 403
    assert post(scorekeeper, url(999999, "undo")).status_code == 404
    assert len(hands_of(game)) == 2
    services.game_forfeit(game_id=game.id, forfeited_by=NS)
    forfeited = post(scorekeeper, url(game, "undo"))
    assert forfeited.status_code == 400
    assert forfeited.json()["detail"] == (
        "This game ended by forfeit; its hands can no longer be undone."
    )


# --- Correcting a past hand --------------------------------------------------------------------


def correct(client: APIClient, game: Game, number: int, body: dict[str, Any]) -> Any:
    body = {"reason": "a typo at the table", **body}
    return client.put(f"/api/games/{game.id}/hands/{number}/", body, format="json")


def test_a_correction_needs_a_reason(game: Game, organiser: APIClient) -> None:
    record(game, played(N, 7, 6, NS, EW))
    answer = correct(organiser, game, 1, {**hand_json(), "reason": "  "})
    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        "Say why the hand is corrected: the reason is kept in its history."
    )
    assert Game.objects.get(id=game.id).version == game.version + 1  # the record only


def test_correct_a_past_hand(game: Game, organiser: APIClient) -> None:
    record(game, played(N, 7, 6, NS, EW))  # 11, -1
    record(game, played(E, 7, 5, EW, NS))  # 11, 9
    # Hand 1 really: NS 3 tricks + 3♠ = 0, failed: -7; EW 5 tricks + 5♥ = 10.
    body = hand_json(bidder=0, bid=7, tricks=3, five="ew", three="ns", reason="Misread")
    body["version"] = 3
    answer = correct(organiser, game, 1, body)
    assert answer.status_code == 200, answer.json()
    state = answer.json()
    assert (state["ns_score"], state["ew_score"], state["version"]) == (-7, 20, 4)
    assert [(h["ns_score"], h["ew_score"]) for h in state["hands"]] == [(-7, 10), (-7, 20)]
    change = GameChange.objects.get(game=game, action="correct")
    assert change.reason == "Misread"


def test_correct_errors(
    game: Game, organiser: APIClient, scorekeeper: APIClient, client_for: ClientFor
) -> None:
    record(game, played(N, 7, 6, NS, EW))
    record(game, played(E, 7, 5, EW, NS))
    before = hands_of(game)

    missing = correct(organiser, game, 3, hand_json())
    assert missing.status_code == 404
    assert missing.json() == {"detail": f"Game {game.id} has no hand 3.", "code": "not_found"}

    stale = correct(organiser, game, 1, {**hand_json(), "version": 1})
    assert stale.status_code == 409
    assert stale.json()["detail"] == (
        "The game changed since you opened it. Look at the score sheet again, then correct."
    )
    assert stale.json()["game"]["version"] == 3

    refused = correct(organiser, game, 1, hand_json(bid=5))
    assert refused.status_code == 400
    assert refused.json()["detail"] == "Hand 1: Bid 5 is below this game's minimum of 7."
    assert refused.json()["bid"] == ["Bid 5 is below this game's minimum of 7."]
    assert [r["code"] for r in refused.json()["refusals"]] == ["bid_below_minimum"]

    shape = correct(organiser, game, 1, {**hand_json(), "bid": "x", "version": "new"})
    assert shape.status_code == 400
    assert shape.json() == {
        "bid": ["A valid integer is required."],
        "version": ["A valid integer is required."],
    }

    assert correct(scorekeeper, game, 1, hand_json()).status_code == 403
    assert correct(client_for("outsider"), game, 1, hand_json()).status_code == 404
    assert hands_of(game) == before


def test_a_correction_that_breaks_a_later_hand_is_400_naming_it(
    club: Club, organiser: APIClient
) -> None:
    game = start_game(club=club, preset_name="tournament")
    for _ in range(4):
        record(game, played(N, 8, 8, NS, NS))  # all tricks and both cards: +10 each → 40, 0
    record(game, played(E, 7, 5, EW, NS))  # EW 5 + 5♥ = 10, made; NS 3 - 3 = 0 → 40, 10
    record(game, played(S, 7, 5, NS, EW))  # NS 5 + 5♥ = 10; EW 3 - 3 = 0 → 50, 10
    # Hand 5 really: E took 1 trick and the 3♠ (-2, failed); NS 7 tricks + 5♥ = 12 → 52.
    before = hands_of(game)
    answer = correct(organiser, game, 5, hand_json(bidder=1, tricks=1, five="ns", three="ew"))
    assert answer.status_code == 400
    assert answer.json()["detail"] == (
        "With this correction hand 6 would no longer be possible: "
        "This game is over: North–South won."
    )
    assert [r["code"] for r in answer.json()["refusals"]] == ["game_over"]
    assert hands_of(game) == before


# --- Time, forfeit and the clock ---------------------------------------------------------------


def test_call_time(game: Game, organiser: APIClient) -> None:
    answer = post(organiser, url(game, "call-time"))
    assert answer.status_code == 200
    assert answer.json()["time_called_at"] is not None
    assert answer.json()["status"] == "in_progress"  # the hand in play is still to come
    assert (
        post(organiser, url(game, "call-time")).json()["time_called_at"]
        == (answer.json()["time_called_at"])
    )


def test_call_time_errors(
    club: Club, game: Game, organiser: APIClient, scorekeeper: APIClient
) -> None:
    paper = start_game(club=club, preset_name="tournament", from_paper=True)
    answer = post(organiser, url(paper, "call-time"))
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "This game was entered from a paper score sheet; it has no clock.",
        "code": "invalid",
    }
    assert post(scorekeeper, url(game, "call-time")).status_code == 403
    assert post(organiser, url(999999, "call-time")).status_code == 404


def test_forfeit(game: Game, organiser: APIClient) -> None:
    answer = post(organiser, url(game, "forfeit"), {"team": "ew", "reason": "Left"})
    assert answer.status_code == 200
    body = answer.json()
    assert (body["status"], body["winner"], body["end_reason"], body["forfeited_by"]) == (
        "finished",
        "ns",
        "forfeit",
        "ew",
    )


def test_forfeit_errors(game: Game, organiser: APIClient, scorekeeper: APIClient) -> None:
    missing = post(organiser, url(game, "forfeit"))
    assert (missing.status_code, missing.json()) == (400, {"team": ["This field is required."]})
    wrong = post(organiser, url(game, "forfeit"), {"team": "north"})
    assert wrong.json() == {"team": ['"north" is not a valid choice.']}
    assert post(scorekeeper, url(game, "forfeit"), {"team": "ns"}).status_code == 403
    assert post(organiser, url(999999, "forfeit"), {"team": "ns"}).status_code == 404
    post(organiser, url(game, "forfeit"), {"team": "ns"})
    again = post(organiser, url(game, "forfeit"), {"team": "ew"})
    assert again.status_code == 400
    assert again.json()["detail"] == (
        "This game is already over; a forfeit cannot change its result."
    )


def test_pause_and_resume(game: Game, organiser: APIClient) -> None:
    paused = post(organiser, url(game, "pause"))
    assert paused.status_code == 200
    assert paused.json()["paused_at"] is not None
    resumed = post(organiser, url(game, "resume"))
    assert resumed.status_code == 200
    assert resumed.json()["paused_at"] is None


def test_pause_resume_errors(
    club: Club, game: Game, organiser: APIClient, scorekeeper: APIClient
) -> None:
    paper = start_game(club=club, preset_name="tournament", from_paper=True)
    for action in ("pause", "resume"):
        answer = post(organiser, url(paper, action))
        assert answer.status_code == 400
        assert answer.json() == {"detail": "This game has no time limit.", "code": "invalid"}
        assert post(scorekeeper, url(game, action)).status_code == 403
        assert post(organiser, url(999999, action)).status_code == 404
    post(organiser, url(game, "call-time"))
    late = post(organiser, url(game, "pause"))
    assert late.status_code == 400
    assert late.json()["detail"] == "Time has already been called in this game."
    services.game_forfeit(game_id=game.id, forfeited_by=NS)
    over = post(organiser, url(game, "resume"))
    assert over.json()["detail"] == "This game is over; its clock cannot change."


def test_add_minutes(game: Game, organiser: APIClient) -> None:
    answer = post(organiser, url(game, "add-minutes"), {"minutes": 10})
    assert answer.status_code == 200
    game.refresh_from_db()
    assert game.added_minutes == 10
    assert game.deadline is not None
    assert answer.json()["deadline"] is not None
    assert game.deadline > timezone.now() + timedelta(minutes=65)


def test_add_minutes_errors(game: Game, organiser: APIClient, scorekeeper: APIClient) -> None:
    missing = post(organiser, url(game, "add-minutes"))
    assert missing.json() == {"minutes": ["This field is required."]}
    too_many = post(organiser, url(game, "add-minutes"), {"minutes": 500})
    assert too_many.status_code == 400
    assert too_many.json() == {"minutes": ["Ensure this value is less than or equal to 120."]}
    too_few = post(organiser, url(game, "add-minutes"), {"minutes": -61})
    assert too_few.json() == {"minutes": ["Ensure this value is greater than or equal to -60."]}
    assert post(scorekeeper, url(game, "add-minutes"), {"minutes": 5}).status_code == 403
    assert post(organiser, url(999999, "add-minutes"), {"minutes": 5}).status_code == 404
    post(organiser, url(game, "call-time"))
    late = post(organiser, url(game, "add-minutes"), {"minutes": 5})
    assert late.status_code == 400
    assert late.json()["detail"] == (
        "Time has already been called; minutes can no longer be added."
    )


def test_history(game: Game, organiser: APIClient, scorekeeper: APIClient) -> None:
    post(scorekeeper, url(game, "hands"), hand_json())
    post(scorekeeper, url(game, "undo"))
    post(organiser, url(game, "call-time"))
    answer = organiser.get(url(game, "history"))
    assert answer.status_code == 200
    rows = answer.json()
    assert [(r["action"], r["hand_number"]) for r in rows] == [
        ("record", 1),
        ("undo", 1),
        ("call_time", None),
    ]
    keeper_name = rows[0]["by"]
    assert keeper_name and keeper_name == rows[1]["by"] != rows[2]["by"]
    assert rows[0]["after"]["bid"] == 7 and rows[0]["before"] is None
    assert rows[1]["before"] == rows[0]["after"]
    assert all(r["at"] for r in rows)


def test_history_errors(game: Game, scorekeeper: APIClient, client_for: ClientFor) -> None:
    assert scorekeeper.get(url(game, "history")).status_code == 403
    assert client_for("outsider").get(url(game, "history")).status_code == 404
    assert client_for("staff").get(url(999999, "history")).status_code == 404
    assert client_for(None).get(url(game, "history")).status_code == 403


def test_staff_act_as_club_admins_everywhere(game: Game, client_for: ClientFor) -> None:
    staff = client_for("staff")
    assert post(staff, url(game, "hands"), hand_json()).status_code == 201
    assert staff.get(url(game, "history")).status_code == 200


def test_writes_answer_json_errors_not_html(game: Game, scorekeeper: APIClient) -> None:
    answer = scorekeeper.post(url(game, "hands"), "{not json", content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {
        "detail": "The body is not JSON: it stops making sense at line 1, column 2.",
        "code": "parse_error",
    }


def test_client_id_must_be_a_uuid(game: Game, scorekeeper: APIClient) -> None:
    answer = post(scorekeeper, url(game, "hands"), hand_json(client_id="abc"))
    assert answer.json() == {"client_id": ["Must be a valid UUID."]}
    assert uuid.UUID(hand_json()["client_id"])  # the builder makes real ones
