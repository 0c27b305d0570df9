"""A 16-team double elimination run to its final through the API alone: the organiser creates
the event, enters the teams, generates the bracket; scorekeepers record hands through
/api/games/<id>/hands/ until each game ends; the bracket advances by itself."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from kaiser_club.roles import Role
from tests.factories import member

from .helpers import hand_json, new_club, player

pytestmark = [pytest.mark.django_db, pytest.mark.long]


def test_sixteen_team_double_elimination_to_its_final(
    api_client, django_capture_on_commit_callbacks
):
    club = new_club()
    api_client.force_authenticate(member(club, Role.ORGANISER))
    event = api_client.post(
        "/api/events/",
        {
            "club": club.id,
            "name": "Provincial doubles",
            "date": "2026-11-28",
            "format": "double_elimination",
            "check_in_required": False,
        },
        format="json",
    )
    assert event.status_code == 201, event.json()
    assert event.json()["preset"] == "tournament" and event.json()["time_limit"] == 60
    base = f"/api/events/{event.json()['id']}"
    seeds: dict[int, int] = {}
    for seed in range(1, 17):
        one, two = player(), player()
        answer = api_client.post(
            f"{base}/entries/",
            {"player_one": one.id, "player_two": two.id, "name": f"Seed {seed}", "seed": seed},
            format="json",
        )
        assert answer.status_code == 201, answer.json()
        seeds[answer.json()["id"]] = seed

    with django_capture_on_commit_callbacks(execute=True):
        job = api_client.post(f"{base}/generate/")
    assert job.status_code == 202
    job = api_client.get(f"{base}/jobs/{job.json()['id']}/").json()
    assert job["status"] == "done", job
    assert job["summary"] == "Bracket of 16 teams: 30 games in 9 rounds."

    played: list[dict[str, Any]] = []
    for _ in range(40):  # rounds of play; the bracket needs at most 31 games
        bracket = api_client.get(f"{base}/bracket/").json()
        ready = [
            p for p in bracket if p["game"] and p["result"] == "pending" and not p["cancelled"]
        ]
        if not ready:
            break
        for pairing in ready:
            # hands count once the organiser starts the round, whichever door they come by
            with django_capture_on_commit_callbacks(execute=True):
                api_client.post(f"{base}/rounds/{pairing['round']}/start/")
            home, away = seeds[pairing["home"]["id"]], seeds[pairing["away"]["id"]]
            # The better seed wins, except the grand final, which the losers' bracket takes.
            home_wins = home < away if pairing["code"] != "GF" else False
            side = "ns" if home_wins else "ew"
            game_id = pairing["game"]["id"]
            for _hand in range(3):
                with django_capture_on_commit_callbacks(execute=True):
                    answer = api_client.post(
                        f"/api/games/{game_id}/hands/", hand_json(side), format="json"
                    )
                assert answer.status_code == 201, answer.json()
            assert answer.json()["game"]["status"] == "finished"
            played.append(pairing)

    bracket = {p["code"]: p for p in api_client.get(f"{base}/bracket/").json()}
    assert len(played) == 31  # 2n - 2, plus the reset
    assert all(p["result"] == "played" for p in bracket.values())
    gf, reset = bracket["GF"], bracket["GF2"]
    assert gf["home"]["name"] == "Seed 1" and gf["winner_side"] == "away"
    assert reset["home"]["name"] == gf["away"]["name"] and reset["winner_side"] == "away"
    assert reset["away"]["name"] == "Seed 1"

    losses: Counter[str] = Counter()
    for p in bracket.values():
        loser = p["away"] if p["winner_side"] == "home" else p["home"]
        losses[loser["name"]] += 1
    # Seed 1 lost the grand final, then won the reset: the only team with one loss.
    assert losses["Seed 1"] == 1
    assert sorted(losses.values()) == [1] + [2] * 15
    assert api_client.get(f"{base}/").json()["status"] == "finished"
    standings = api_client.get(f"{base}/standings/").json()
    assert [row["name"] for row in standings[:2]] == ["Seed 1", "Seed 2"]
    assert (standings[0]["wins"], standings[0]["losses"]) == (5, 1)
