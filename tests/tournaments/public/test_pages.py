"""The public pages: what each shows, to whom (nobody signs in; an event can hide them), and
what it leaves out (hands waiting for confirmation, private players' pages)."""

from __future__ import annotations

import csv
import io
import uuid

import pytest
from django.core.cache import cache
from django.test import TestCase

from kaiser_club.models import Player
from scoring.models import Game
from scoring.rules import Seat, Side
from scoring.services.hands import hand_record
from scoring.services.verification import hand_confirm
from tournaments.models import Event, Pairing

from ..helpers import generate, make_event, win_for
from .world import hall, hand, live_game, record, result, results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


@pytest.fixture
def swiss():
    """Four teams: round 1 played (A beat B 52-30, C beat D 52-40), round 2 under way with
    A v C at table 1 (one hand: North-South, A, 9-1) and B v D not started."""
    made = hall("ABCD", format="swiss", tiebreaks=["wins", "point_difference"])
    results(made, [("A", "B", 52, 30), ("C", "D", 52, 40)], round=1)
    now = live_game(made, "A", "C", round=2, table_number=1)
    assert now.game_id is not None
    record(now.game_id, hand(Side.NS))
    waiting = live_game(made, "B", "D", round=2, table_number=2)
    return made, now, waiting


def pages(event_id: int, pairing_id: int, entry_id: int) -> list[str]:
    base = f"/e/{event_id}/"
    return [
        base,
        f"{base}standings/",
        f"{base}standings.csv",
        f"{base}bracket/",
        f"{base}rounds/1/",
        f"{base}games/{pairing_id}/",
        f"{base}live/",
        f"{base}teams/{entry_id}/",
        f"{base}projector/",
    ]


def test_every_page_opens_without_signing_in(client, swiss):
    made, now, _ = swiss
    for url in pages(made.event.id, now.id, made["A"].id):
        answer = client.get(url)
        assert answer.status_code == 200, url
        # A browser asks again every time (a shared cache may answer for 2 s).
        assert "max-age=0" in answer["Cache-Control"], url


def test_an_event_with_its_public_pages_off_is_not_found_on_any_of_them(client, swiss):
    made, now, _ = swiss
    Event.objects.filter(id=made.event.id).update(public_pages=False)
    for url in pages(made.event.id, now.id, made["A"].id):
        assert client.get(url).status_code == 404, url
        assert client.get(url + "?part=1").status_code == 404, url


def test_an_unknown_round_game_or_team_is_not_found(client, swiss):
    made, _, _ = swiss
    other = hall("XY")
    base = f"/e/{made.event.id}/"
    assert client.get(f"{base}rounds/9/").status_code == 404
    foreign = result(other, "X", "Y", 52, 10)
    assert client.get(f"{base}games/{foreign.id}/").status_code == 404
    assert client.get(f"{base}teams/{other['X'].id}/").status_code == 404


def test_standings_show_the_order_and_the_live_score(client, swiss):
    made, _, _ = swiss
    html = client.get(f"/e/{made.event.id}/standings/").content.decode()
    # A (+22) and C (+12) won; D (-12) and B (-22) lost.
    assert html.index(">A</a>") < html.index(">C</a>") < html.index(">D</a>") < html.index(">B</a>")
    assert "Ranked by: Wins, Point difference" in html
    assert "v C, table 1" in html  # A is playing C now (the score is on the live page)
    assert "v A, table 1" in html


def test_standings_sort_by_a_column(client, swiss):
    made, _, _ = swiss
    html = client.get(f"/e/{made.event.id}/standings/?sort=name").content.decode()
    assert html.index(">A</a>") < html.index(">B</a>") < html.index(">C</a>") < html.index(">D</a>")
    html = client.get(f"/e/{made.event.id}/standings/?sort=-points_against").content.decode()
    # Against: B 52, D 52 (listed as they come), then C 40, A 30.
    assert html.index(">C</a>") < html.index(">A</a>")
    assert html.index(">B</a>") < html.index(">C</a>")


def test_standings_csv_has_the_columns_and_the_order(client, swiss):
    made, _, _ = swiss
    answer = client.get(f"/e/{made.event.id}/standings.csv")
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0] == [
        "#",
        "Team",
        "Games",
        "Won",
        "Won on time",
        "Lost",
        "Win %",
        "For",
        "Against",
        "Diff.",
        "Seed",
    ]
    assert [r[:4] for r in rows[1:]] == [
        ["1", "A", "1", "1"],
        ["2", "C", "1", "1"],
        ["3", "D", "1", "0"],
        ["4", "B", "1", "0"],
    ]


def test_score_sheet_shows_confirmed_hands_only(client, swiss):
    made, now, _ = swiss
    assert now.game_id is not None
    with TestCase.captureOnCommitCallbacks(execute=True):
        hand_record(
            game_id=now.game_id,
            entry=hand(Side.EW, bid=9, tricks=8),
            client_id=uuid.uuid4(),
            entered_by_seat=Seat.EAST,
            pending=True,
        )
    html = client.get(f"/e/{made.event.id}/games/{now.id}/").content.decode()
    assert 'id="ns-score">9<' in html and 'id="ew-score">1<' in html
    assert "waiting for confirmation" not in html
    assert html.count('data-number="') == 1  # one confirmed hand on the sheet
    with TestCase.captureOnCommitCallbacks(execute=True):
        hand_confirm(game_id=now.game_id, number=2, seat=Seat.NORTH)
    html = client.get(f"/e/{made.event.id}/games/{now.id}/").content.decode()
    assert html.count('data-number="') == 2
    game = Game.objects.get(id=now.game_id)
    assert f'id="ew-score">{game.ew_score}<' in html and game.ew_score > 1


def test_live_scores_and_round_tables(client, swiss):
    made, now, waiting = swiss
    live = client.get(f"/e/{made.event.id}/live/").content.decode()
    assert f'data-pairing="{now.id}"' in live
    assert f'data-pairing="{waiting.id}"' in live  # started (a game exists), no hand yet
    assert '<span class="home-score">9</span>–<span class="away-score">1</span>' in live
    round_one = client.get(f"/e/{made.event.id}/rounds/1/").content.decode()
    assert '<span class="home-score">52</span>–<span class="away-score">30</span>' in round_one
    assert "final" in round_one


def test_team_page_lists_its_games_and_players_as_their_privacy_allows(client, swiss):
    made, _, _ = swiss
    team = made["A"].team
    assert team is not None
    Player.objects.filter(id=team.player_one_id).update(is_public=True)
    html = client.get(f"/e/{made.event.id}/teams/{made['A'].id}/").content.decode()
    public_link = f'<a href="/e/{made.event.id}/players/{team.player_one_id}/">A North</a>'
    assert public_link in html
    assert "A South" in html
    assert f"/players/{team.player_two_id}/" not in html  # private: the name, no link
    assert "1 won, 0 lost" in html


def test_a_private_players_page_is_not_found_a_public_one_is_shown(client, swiss):
    made, _, _ = swiss
    team = made["A"].team
    assert team is not None
    base = f"/e/{made.event.id}/players/"
    assert client.get(f"{base}{team.player_two_id}/").status_code == 404
    Player.objects.filter(id=team.player_two_id).update(is_public=True)
    html = client.get(f"{base}{team.player_two_id}/").content.decode()
    assert "A South" in html and "Games at" in html


def test_score_sheet_links_only_public_players(client, swiss):
    made, now, _ = swiss
    game = Game.objects.get(id=now.game_id)
    Player.objects.filter(id=game.north_id).update(is_public=True)
    html = client.get(f"/e/{made.event.id}/games/{now.id}/").content.decode()
    assert f"/players/{game.north_id}/" in html
    assert f"/players/{game.east_id}/" not in html


def test_bracket_is_drawn_with_the_teams_and_links_to_the_games(client):
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    first = Pairing.objects.select_related("home", "away").get(event=event, code="W1-1")
    assert first.home is not None
    win_for(first, first.home)
    html = client.get(f"/e/{event.id}/bracket/").content.decode()
    assert (
        "<svg" in html and html.count('<path class="link"') == 2
    )  # two semi-finals feed the final
    assert "Team 1" in html and "Team 4" in html
    assert f"/e/{event.id}/games/{first.id}/" in html
    standings = client.get(f"/e/{event.id}/standings/").content.decode()
    assert "Final placings" in standings and "3rd–4th" in standings


def test_home_page_shows_the_round_the_leaders_and_whats_playing(client, swiss):
    made, now, _ = swiss
    html = client.get(f"/e/{made.event.id}/").content.decode()
    assert "Playing now" in html and f'data-pairing="{now.id}"' in html
    assert "Leaders" in html
    assert f'href="/e/{made.event.id}/rounds/2/"' in html


def test_a_finished_swiss_events_home_page_lists_its_placings(client, swiss):
    made, _, _ = swiss
    Event.objects.filter(id=made.event.id).update(status="finished")
    html = client.get(f"/e/{made.event.id}/").content.decode()
    assert "<h2>Placings</h2>" in html and "Leaders" not in html


def test_projector_shows_the_clock_tables_and_standings(client, swiss):
    made, now, waiting = swiss
    from scoring import services as scoring

    assert now.game_id is not None and waiting.game_id is not None
    for game_id in (now.game_id, waiting.game_id):
        scoring.clock_start(game_id=game_id)
    deadlines = [g.deadline for g in Game.objects.filter(id__in=[now.game_id, waiting.game_id])]
    latest = max(d for d in deadlines if d is not None)  # the round's clock: the later one
    html = client.get(f"/e/{made.event.id}/projector/").content.decode()
    assert f'data-deadline="{int(latest.timestamp() * 1000)}"' in html
    assert 'data-panel="tables"' in html and 'data-panel="standings"' in html
    assert 'class="site"' not in html  # full screen: no site header


def test_projector_clock_while_paused_shows_the_time_left(client, swiss):
    made, now, waiting = swiss
    from scoring import services as scoring

    for pairing in (now, waiting):
        assert pairing.game_id is not None
        scoring.clock_start(game_id=pairing.game_id)
        scoring.clock_pause(game_id=pairing.game_id)
    html = client.get(f"/e/{made.event.id}/projector/").content.decode()
    assert 'data-state="paused"' in html
    assert 'data-remaining="3599"' in html or 'data-remaining="3600"' in html


def test_season_leaderboard_is_public_when_one_of_its_nights_is(client):
    import datetime as dt

    from tournaments import services

    made = hall("AB")
    season = services.season_create_unchecked(club=made.event.club, name="2026–27")
    night = services.event_create(
        club=made.event.club,
        name="Night 1",
        date=dt.date(2026, 10, 1),
        kind="club_night",
        format="progressive",
        rounds=1,
        season=season,
        public_pages=False,
    )
    assert client.get(f"/e/seasons/{season.id}/").status_code == 404
    Event.objects.filter(id=night.id).update(public_pages=True)
    answer = client.get(f"/e/seasons/{season.id}/")
    assert answer.status_code == 200 and "Night 1" in answer.content.decode()
