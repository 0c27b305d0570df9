"""The events API: the results flow (forfeit, correction refused then rolled back, withdrawal,
substitute), registration (CSV), generation jobs, rounds and tables, through HTTP."""

from __future__ import annotations

import pytest

from kaiser_club.roles import Role
from scoring.rules import Side
from tests.factories import member
from tournaments.models import Entry, Pairing

from .helpers import game_of, generate, hand_json, make_event, win_for, win_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser_client(api_client):
    def login(event):
        api_client.force_authenticate(member(event.club, Role.ORGANISER))
        return api_client

    return login


def test_forfeit_through_the_api_advances_the_winner(organiser_client):
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    client = organiser_client(event)
    first = Pairing.objects.get(event=event, code="W1-1")
    answer = client.post(
        f"/api/events/{event.id}/pairings/{first.id}/forfeit/",
        {"forfeiting": "away", "reason": "No show"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["result"], body["winner_side"], body["home_points"], body["away_points"]) == (
        "forfeit",
        "home",
        52,
        0,
    )
    assert body["game"]["end_reason"] == "forfeit"
    final = client.get(f"/api/events/{event.id}/bracket/").json()[-1]
    assert final["code"] == "W2-1" and final["home"]["id"] == first.home_id
    again = client.post(
        f"/api/events/{event.id}/pairings/{first.id}/forfeit/",
        {"forfeiting": "home"},
        format="json",
    )
    assert again.status_code == 400
    assert (
        again.json()["detail"]
        == "Game W1-1 already has a result (Forfeit); adjust the result instead."
    )


# Committed for real: the pairing's result follows the correction when its transaction commits,
# before the answer is written, as in production.
@pytest.mark.django_db(transaction=True)
def test_correction_refused_with_the_later_games_then_rolled_back(
    organiser_client, django_capture_on_commit_callbacks
):
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    client = organiser_client(event)
    first, second = (Pairing.objects.get(event=event, code=c) for c in ("W1-1", "W1-2"))
    win_for(first, first.home)
    win_for(second, second.home)
    final = Pairing.objects.get(event=event, code="W2-1")
    started = client.post(f"/api/events/{event.id}/rounds/{final.round.number}/start/")
    assert started.status_code == 200, started.json()
    with django_capture_on_commit_callbacks(execute=True):
        played = client.post(f"/api/games/{final.game_id}/hands/", hand_json("ns"), format="json")
    assert played.status_code == 201, played.json()

    url = f"/api/events/{event.id}/pairings/{first.id}/hands/1/"
    unexplained = client.put(url, hand_json("ew"), format="json")
    assert unexplained.status_code == 400  # one correction service: a reason is required
    assert "reason" in unexplained.json()
    refused = client.put(url, {**hand_json("ew"), "reason": "typo"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("Game W1-1 cannot change its winner")
    assert [g["code"] for g in refused.json()["later_games"]] == ["W2-1"]
    # the same refusal reaches the games API's own correction endpoint
    direct = client.put(
        f"/api/games/{first.game_id}/hands/1/", {**hand_json("ew"), "reason": "typo"}, format="json"
    )
    assert direct.status_code == 409

    preview = client.get(f"/api/events/{event.id}/pairings/{first.id}/rollback/").json()
    assert [(u["code"], u["hands"]) for u in preview["undone"]] == [("W2-1", 1)]
    for number in (1, 2, 3):
        with django_capture_on_commit_callbacks(execute=True):
            done = client.put(
                f"/api/events/{event.id}/pairings/{first.id}/hands/{number}/",
                {**hand_json("ew"), "rollback": True, "reason": "teams entered the wrong way"},
                format="json",
            )
        assert done.status_code == 200, done.json()
    assert done.json()["winner_side"] == "away"
    final = Pairing.objects.get(event=event, code="W2-1")
    assert final.home_id == first.away_id and final.game is not None
    assert final.game.hand_count == 0


def test_withdraw_through_the_api_answers_with_the_forfeited_games(organiser_client):
    event = make_event(teams=2, format="swiss")
    generate(event)
    client = organiser_client(event)
    entry = Entry.objects.get(event=event, seed=1)
    answer = client.post(
        f"/api/events/{event.id}/entries/{entry.id}/withdraw/", {"reason": "Ill"}, format="json"
    )
    assert answer.status_code == 200
    assert [p["result"] for p in answer.json()] == ["forfeit"]
    assert client.get(f"/api/events/{event.id}/entries/").json()[0]["status"] == "withdrawn"


def test_substitute_through_the_api(organiser_client):
    event = make_event(teams=2, format="swiss")
    generate(event)
    client = organiser_client(event)
    pairing = Pairing.objects.select_related("game").get(event=event)
    assert pairing.game is not None
    replaced = pairing.game.east
    answer = client.post(
        f"/api/events/{event.id}/pairings/{pairing.id}/substitute/",
        {"replaced": replaced.id, "substitute_name": "Walk-in Wanda", "reason": "late"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    assert game_of(pairing).east.name == "Walk-in Wanda"


def test_csv_import_preview_then_all_or_nothing(organiser_client):
    event = make_event(teams=0, format="swiss")
    client = organiser_client(event)
    url = f"/api/events/{event.id}/entries/import/"
    good = "team,player_one,player_two,seed\nA,Ann,Bo,1\nB,Cy,Di,2\n"
    preview = client.post(url, {"csv": good, "dry_run": True}, format="json")
    assert preview.status_code == 200 and preview.json()["ok"] is True
    assert Entry.objects.filter(event=event).count() == 0
    bad = good + "C,Ed,Ed,x\n"
    refused = client.post(url, {"csv": bad}, format="json")
    assert refused.status_code == 400
    assert refused.json()["rows"] == [
        {
            "line": 4,
            "values": {"team": "C", "player_one": "Ed", "player_two": "Ed", "seed": "x"},
            "errors": [
                "A team needs two different players; Ed is named twice.",
                "Seed 'x' is not a whole number from 1 to 9999.",
            ],
            "new_players": ["Ed", "Ed"],
        }
    ]
    assert Entry.objects.filter(event=event).count() == 0
    done = client.post(url, {"csv": good}, format="json")
    assert done.status_code == 201 and [e["name"] for e in done.json()] == ["A", "B"]


def test_generate_job_rounds_clock_and_tables(organiser_client, django_capture_on_commit_callbacks):
    event = make_event(teams=4, format="swiss")
    client = organiser_client(event)
    base = f"/api/events/{event.id}"
    with django_capture_on_commit_callbacks(execute=True):
        queued = client.post(f"{base}/generate/")
    assert queued.status_code == 202 and queued.json()["status"] == "queued"
    job = client.get(f"{base}/jobs/{queued.json()['id']}/").json()
    assert (job["status"], job["summary"]) == ("done", "Round 1: 2 games.")
    assert client.post(f"{base}/rounds/1/start/").json()["status"] == "started"
    assert client.post(f"{base}/rounds/1/pause/").status_code == 200
    assert client.post(f"{base}/rounds/1/resume/").status_code == 200
    minutes = client.post(f"{base}/rounds/1/add-minutes/", {"minutes": 5}, format="json")
    assert minutes.status_code == 200
    round_ = client.get(f"{base}/rounds/1/").json()
    assert [p["table"] for p in round_["pairings"]] == [1, 2]
    assert all(p["game"]["deadline"] for p in round_["pairings"])
    assert client.post(f"{base}/rounds/1/explode/").status_code == 404

    tables = client.get(f"{base}/tables/").json()
    assert len(tables) == 2 and tables[0]["code"].count("-") == 3
    assert tables[0]["url"].endswith("/t/" + tables[0]["code"].replace("-", "") + "/")
    revoked = client.post(f"{base}/tables/{tables[0]['id']}/revoke/").json()
    assert (revoked["code"], revoked["url"]) == (None, None)
    assert client.get(f"{base}/tables/{tables[0]['id']}/qr.svg").status_code == 400
    renewed = client.post(f"{base}/tables/{tables[0]['id']}/renew/").json()
    assert renewed["code"] and renewed["code"] != tables[0]["code"]
    svg = client.get(f"{base}/tables/{tables[0]['id']}/qr.svg")
    assert svg["Content-Type"] == "image/svg+xml" and svg.content.startswith(b"<svg")


def test_players_see_tables_without_their_codes(api_client):
    event = make_event(teams=2, format="swiss")
    generate(event)
    api_client.force_authenticate(member(event.club, Role.PLAYER))
    tables = api_client.get(f"/api/events/{event.id}/tables/").json()
    assert tables[0]["code"] is None and tables[0]["url"] is None
    assert tables[0]["current"] is not None


def test_event_create_copies_the_preset_and_changes(organiser_client, api_client):
    event = make_event(teams=0, format="swiss")
    client = organiser_client(event)
    answer = client.post(
        "/api/events/",
        {
            "club": event.club.id,
            "kind": "club_night",
            "name": "Tuesday",
            "date": "2026-12-01",
            "format": "progressive",
            "rounds": 4,
            "rule_changes": {"target": 62},
            "tiebreaks": ["wins", "points_for"],
        },
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["preset"], body["rules"]["target"], body["tiebreaks"]) == (
        "tournament",  # the factory club's default preset
        62,
        ["wins", "points_for"],
    )
    bad = client.post(
        "/api/events/",
        {"club": event.club.id, "name": "X", "date": "2026-12-01", "format": "swiss"},
        format="json",
    )
    assert bad.status_code == 400
    assert bad.json()["detail"] == "Say how many rounds this Swiss event plays."


def test_standings_and_season_leaderboard(organiser_client):
    from tournaments import services

    event = make_event(teams=4, format="swiss")
    generate(event)
    for p in Pairing.objects.filter(event=event):
        win_game(p.game_id, Side.NS)
    client = organiser_client(event)
    rows = client.get(f"/api/events/{event.id}/standings/").json()
    assert [r["wins"] for r in rows] == [1, 1, 0, 0]
    season = services.season_create_unchecked(club=event.club, name="S")
    event.kind, event.season = "club_night", season
    event.save()
    board = client.get(f"/api/seasons/{season.id}/leaderboard/").json()
    assert len(board) == 8 and [r["wins"] for r in board[:4]] == [1, 1, 1, 1]
