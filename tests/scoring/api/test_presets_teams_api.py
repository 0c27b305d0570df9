"""The presets, teams, clubs and schema endpoints: happy paths and error paths."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from kaiser_club.models import Club, Membership, Player
from kaiser_club.roles import Role
from scoring.models import Team
from tests.scoring.api.conftest import ClientFor
from tests.scoring.hands import make_club, make_player, make_team

pytestmark = pytest.mark.django_db


# --- Presets -----------------------------------------------------------------------------------


def test_presets_are_listed_for_anyone(client_for: ClientFor) -> None:
    answer = client_for(None).get("/api/presets/")
    assert answer.status_code == 200
    presets = {p["name"]: p for p in answer.json()}
    assert list(presets) == ["standard", "club", "tournament", "saskatchewan", "les_rois", "joffre"]
    # docs/rules.md, "Presets": min bid, target, bid-out line, clock.
    assert [
        (p["rules"]["min_bid"], p["rules"]["target"], p["rules"]["bid_out_line"])
        for p in presets.values()
    ] == [(6, 52, 45), (5, 52, 47), (7, 52, 47), (7, 52, 45), (4, 40, None), (5, 41, None)]
    assert presets["tournament"]["rules"]["time_limit_minutes"] == 60
    assert presets["tournament"]["rules"]["misdeals"] == []
    assert presets["saskatchewan"]["rules"]["raised_target"] == 62
    assert presets["tournament"]["title"] == "Tournament (club sheet)"


def test_presets_are_read_only(client_for: ClientFor) -> None:
    assert client_for("staff").post("/api/presets/", {}, format="json").status_code == 405


# --- Teams -------------------------------------------------------------------------------------


def club_player(club: Club | None) -> Player:
    """A member of the club (a club may only name players it knows)."""
    player = make_player()
    if club is not None:
        Membership.objects.create(club=club, player=player)
    return player


def team_body(club: Club | None, **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Aces",
        "club": club.id if club else None,
        "player_one_id": club_player(club).id,
        "player_two_id": club_player(club).id,
    }
    body.update(changes)
    return body


def test_list_teams_of_my_clubs(club: Club, player: APIClient) -> None:
    mine = make_team(club=club, name="Mine")
    make_team(club=make_club(), name="Theirs")
    answer = player.get("/api/teams/")
    assert answer.status_code == 200
    assert [t["name"] for t in answer.json()["results"]] == ["Mine"]
    listed = answer.json()["results"][0]
    assert listed["player_one"] == {"id": mine.player_one.id, "name": mine.player_one.name}
    assert "player_one_id" not in listed  # write-only


def test_filter_teams_by_club(club: Club, client_for: ClientFor) -> None:
    other = make_club()
    make_team(club=club, name="Here")
    make_team(club=other, name="There")
    staff = client_for("staff")
    assert staff.get("/api/teams/").json()["count"] == 2
    answer = staff.get("/api/teams/", {"club": other.id})
    assert [t["name"] for t in answer.json()["results"]] == ["There"]


def test_read_a_team(club: Club, player: APIClient, client_for: ClientFor) -> None:
    team = make_team(club=club)
    assert player.get(f"/api/teams/{team.id}/").json()["id"] == team.id
    assert client_for("outsider").get(f"/api/teams/{team.id}/").status_code == 404
    assert player.get("/api/teams/999999/").status_code == 404
    assert player.get("/api/teams/abc/").status_code == 404


def test_create_a_team(club: Club, organiser: APIClient) -> None:
    body = team_body(club)
    answer = organiser.post("/api/teams/", body, format="json")
    assert answer.status_code == 201, answer.json()
    created = answer.json()
    assert (created["name"], created["club"]) == ("Aces", club.id)
    assert created["player_one"]["id"] == body["player_one_id"]
    team = Team.objects.get(id=created["id"])
    assert (team.player_one_id, team.player_two_id) == (
        body["player_one_id"],
        body["player_two_id"],
    )


def test_create_a_team_with_bad_shapes(club: Club, organiser: APIClient) -> None:
    missing = organiser.post("/api/teams/", {"club": club.id}, format="json")
    assert missing.status_code == 400
    assert missing.json() == {
        "player_one_id": ["This field is required."],
        "player_two_id": ["This field is required."],
    }
    body = team_body(club, player_one_id=999999)
    body["club"] = 888888
    unknown = organiser.post("/api/teams/", body, format="json")
    assert unknown.json() == {
        "club": ["There is no club 888888 that you are a member of."],
        "player_one_id": [
            "There is no player 999999 that your clubs know: choose one of their members, "
            "former members or visitors."
        ],
    }
    same = make_player().id
    twice = organiser.post(
        "/api/teams/", team_body(club, player_one_id=same, player_two_id=same), format="json"
    )
    assert twice.status_code == 400
    assert twice.json() == {"non_field_errors": ["A team needs two different players."]}
    assert Team.objects.count() == 0


@pytest.mark.parametrize("role", [None, "outsider", Role.PLAYER, Role.SCOREKEEPER])
def test_create_a_team_needs_an_organiser(
    club: Club, client_for: ClientFor, role: Role | str | None
) -> None:
    answer = client_for(role).post("/api/teams/", team_body(club), format="json")
    # An outsider names a club that is not theirs: answered as a club that does not exist.
    assert answer.status_code == (400 if role == "outsider" else 403)
    if role == "outsider":
        assert club.name not in answer.content.decode()
    assert Team.objects.count() == 0


def test_an_organiser_cannot_register_teams_for_another_club(organiser: APIClient) -> None:
    other = make_club()
    answer = organiser.post("/api/teams/", team_body(other), format="json")
    assert answer.status_code == 400  # as for a club that does not exist
    assert answer.json()["club"] == [f"There is no club {other.id} that you are a member of."]
    assert other.name not in answer.content.decode()


def test_a_team_of_another_clubs_players_is_refused_without_their_names(
    club: Club, organiser: APIClient
) -> None:
    other = make_club()
    body = team_body(club, player_two_id=club_player(other).id)
    answer = organiser.post("/api/teams/", body, format="json")
    assert answer.status_code == 400  # as for an id that does not exist
    assert answer.json() == {
        "player_two_id": [
            f"There is no player {body['player_two_id']} that your clubs know: choose one of "
            "their members, former members or visitors."
        ]
    }
    assert Player.objects.get(id=body["player_two_id"]).name not in answer.content.decode()
    assert Team.objects.count() == 0


# --- Clubs -------------------------------------------------------------------------------------


def test_clubs_where_i_hold_a_role(club: Club, player: APIClient, client_for: ClientFor) -> None:
    other = make_club(name="Elsewhere")
    answer = player.get("/api/clubs/")
    assert answer.status_code == 200
    assert [c["id"] for c in answer.json()["results"]] == [club.id]
    assert set(answer.json()["results"][0]) == {"id", "name", "slug", "town", "default_preset"}
    assert player.get(f"/api/clubs/{club.id}/").json()["name"] == club.name
    assert player.get(f"/api/clubs/{other.id}/").status_code == 404
    assert client_for("outsider").get("/api/clubs/").json()["count"] == 0
    assert client_for("staff").get("/api/clubs/").json()["count"] == 2
    assert client_for(None).get("/api/clubs/").status_code == 403


def test_clubs_are_read_only(club: Club, client_for: ClientFor) -> None:
    admin = client_for(Role.CLUB_ADMIN)
    assert admin.post("/api/clubs/", {"name": "New"}, format="json").status_code == 405
    assert admin.delete(f"/api/clubs/{club.id}/").status_code == 405


# --- Schema and docs ---------------------------------------------------------------------------


def test_the_openapi_schema_describes_the_games_api(client_for: ClientFor) -> None:
    answer = client_for(None).get("/api/schema/", {"format": "json"})
    assert answer.status_code == 200
    schema = answer.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Kaiser Club API"
    for path in (
        "/api/games/",
        "/api/games/{id}/",
        "/api/games/{id}/hands/",
        "/api/games/{id}/hands/{number}/",
        "/api/games/{id}/undo/",
        "/api/games/{id}/call-time/",
        "/api/games/{id}/forfeit/",
        "/api/games/{id}/pause/",
        "/api/games/{id}/resume/",
        "/api/games/{id}/add-minutes/",
        "/api/games/{id}/history/",
        "/api/presets/",
        "/api/teams/",
        "/api/clubs/",
    ):
        assert path in schema["paths"], path
    record = schema["paths"]["/api/games/{id}/hands/"]["post"]
    assert {"200", "201", "400", "403", "404", "409"} <= set(record["responses"])


def test_the_docs_page_serves_swagger_from_our_own_static_files(client_for: ClientFor) -> None:
    answer = client_for(None).get("/api/docs/")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "swagger-ui" in page
    assert "/static/drf_spectacular_sidecar/" in page  # no CDN: the hall may be offline
