"""Forms offer choices, never typed codes; every value a page shows is in words."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation

from kaiser_club.roles import Role
from scoring.templatetags.hand_words import hand_in_words
from tests.factories import member
from tests.tournaments.helpers import generate, make_event, win_for
from tournaments.models import Pairing, Round
from tournaments.naming import game_name, round_name

pytestmark = pytest.mark.django_db


def organiser(client, event):
    client.force_login(member(event.club, Role.ORGANISER))
    return client


def _rules_data(form) -> dict[str, object]:
    data: dict[str, object] = {"rules": "1"}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list) or value is not None:
            data[name] = value
    return data


def test_the_rule_set_form_offers_choices_in_words(client):
    event = make_event(teams=0, format="swiss")
    organiser(client, event)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(f"/events/{event.id}/settings/").content.decode()
    select = re.search(r'<select name="no_trump"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None, "no-trump bids are chosen from a list"
    assert "Haut (double les points)" in select.group(1)
    assert re.search(r'<select name="misdeal_redeal"', html)
    assert re.search(r'<select name="steal_the_five"', html)
    assert 'type="checkbox" name="misdeals"' in html
    assert "Mise minimale" in html and "min bid" not in html


def test_a_choice_of_the_rule_set_form_is_saved(client):
    event = make_event(teams=0, format="swiss")
    organiser(client, event)
    form = client.get(f"/events/{event.id}/settings/").context["rules"]
    data = _rules_data(form)
    data["misdeal_redeal"] = "passes_on"
    data["misdeals"] = ["all_pass", "no_face_card"]
    answer = client.post(f"/events/{event.id}/settings/", data)
    assert answer.status_code == 302
    event.refresh_from_db()
    assert event.rules["misdeal_redeal"] == "passes_on"
    assert sorted(event.rules["misdeals"]) == ["all_pass", "no_face_card"]


def test_a_value_not_offered_is_refused_with_the_field_named(client):
    event = make_event(teams=0, format="swiss")
    organiser(client, event)
    form = client.get(f"/events/{event.id}/settings/").context["rules"]
    data = _rules_data(form)
    data["no_trump"] = "sideways"
    answer = client.post(f"/events/{event.id}/settings/", data)
    assert answer.status_code == 200
    assert "sideways" in answer.content.decode()  # Django's own "not one of the choices"
    event.refresh_from_db()
    assert event.rules["no_trump"] != "sideways"


def _settings_data(client, event) -> dict[str, object]:
    form = client.get(f"/events/{event.id}/settings/").context["form"]
    data: dict[str, object] = {"settings": "1"}
    for name, field in form.fields.items():
        if name == "tiebreaks":
            continue
        value = form.initial.get(name, field.initial)
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = getattr(value, "pk", value)
    return data


def test_tie_breaks_are_a_numbered_list_the_organiser_reorders(client):
    event = make_event(teams=0, format="swiss")
    organiser(client, event)
    html = client.get(f"/events/{event.id}/settings/").content.decode()
    assert 'name="tiebreaks_wins" value="1"' in html
    assert 'name="tiebreaks_point_difference" value="2"' in html
    assert 'name="tiebreaks_buchholz" value=""' in html
    data = _settings_data(client, event)
    data |= {"tiebreaks_wins": "2", "tiebreaks_buchholz": "1", "tiebreaks_point_difference": ""}
    answer = client.post(f"/events/{event.id}/settings/", data)
    assert answer.status_code == 302, answer.content.decode()[:3000]
    event.refresh_from_db()
    assert event.tiebreaks == ["buchholz", "wins"]
    page = client.get(f"/events/{event.id}/").content.decode()
    assert "Opponents&#x27; wins, Wins" in page or "Opponents' wins, Wins" in page


def test_two_tie_breaks_in_one_place_are_refused_with_a_sentence(client):
    event = make_event(teams=0, format="swiss")
    organiser(client, event)
    data = _settings_data(client, event)
    data |= {"tiebreaks_wins": "1", "tiebreaks_seed": "1"}
    answer = client.post(f"/events/{event.id}/settings/", data)
    assert answer.status_code == 200
    assert "Wins and Seed both have place 1: give each its own." in answer.content.decode()
    event.refresh_from_db()
    assert event.tiebreaks == ["wins", "point_difference"]


def test_a_history_row_reads_in_words():
    with translation.override("en"):
        assert hand_in_words({"bid": 8, "contract": "no_trump", "bidding_team_tricks": 5}) == (
            "bid 8, No trump · 5 tricks"
        )
        trump = {"bid": 7, "contract": "trump", "trump": "hearts", "bidding_team_tricks": 7}
        assert hand_in_words(trump) == "bid 7, Hearts · 7 tricks"
    with translation.override("fr"):
        assert "Sans-atout" in hand_in_words(
            {"bid": 8, "contract": "no_trump", "bidding_team_tricks": 5}
        )


def test_single_elimination_rounds_and_games_are_named_as_players_name_them():
    event = make_event(teams=8, format="single_elimination", third_place=True)
    generate(event)
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    with translation.override("en"):
        assert [round_name(r, event) for r in rounds] == [
            "Quarter-finals",
            "Semi-finals",
            "Final · Third place",
        ]
        names = sorted(game_name(p, event) for p in Pairing.objects.filter(event=event))
    assert names == [
        "Final",
        *(f"Quarter-final {n}" for n in range(1, 5)),
        "Semi-final 1",
        "Semi-final 2",
        "Third place",
    ]
    with translation.override("fr"):
        assert round_name(rounds[-1], event) == "Finale · Troisième place"


def test_the_round_page_names_the_round_and_its_games(client):
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    organiser(client, event)
    html = client.get(f"/events/{event.id}/rounds/1/").content.decode()
    assert "<h1>Semi-finals" in html and "Semi-final 2" in html
    assert "W1-1" not in html and "Round 1 (W1)" not in html


def test_pools_games_say_their_pool(client):
    event = make_event(teams=4, format="pools", pool_count=2, pool_advance=1)
    generate(event)
    organiser(client, event)
    html = client.get(f"/events/{event.id}/rounds/1/").content.decode()
    assert "Pool A" in html and "Pool B" in html
    assert "Pool stage, round 1" in html


def test_csv_row_errors_name_the_player_in_words_in_either_language(client):
    event = make_event(teams=0, format="swiss")
    organiser(client, event)
    rows = "player_one,player_two\nAline,\n"
    html = client.post(f"/events/{event.id}/entries/import/", {"csv": rows}).content.decode()
    assert "No name for the second player." in html and "player two" not in html
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.post(f"/events/{event.id}/entries/import/", {"csv": rows}).content.decode()
    assert "Aucun nom pour le second joueur." in html


def test_the_game_page_says_which_side_took_the_cards_in_words(client):
    event = make_event(teams=2, format="swiss", rounds=1)
    generate(event)
    pairing = Pairing.objects.get(event=event, away__isnull=False)
    game = win_for(pairing, pairing.home)
    organiser(client, event)
    html = client.get(f"/games/{game.id}/").content.decode()
    cards = '<td class="card-col">N–S</td><td class="card-col">N–S</td>'
    assert cards in html and ">NS<" not in html


def test_the_table_page_says_who_is_entering_in_french(client):
    from tournaments import services

    event = make_event(teams=2, format="swiss", rounds=1, verification=True)
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    table = event.tables.order_by("number").first()
    assert table is not None
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(f"/t/{table.code}/", follow=True).content.decode()
    assert "Saisie par\u00a0:" in html and "Entre les donnes" not in html


def test_the_game_page_names_the_sides_not_home_and_away(client):
    event = make_event(teams=2, format="swiss", rounds=1)
    generate(event)
    pairing = Pairing.objects.get(event=event, away__isnull=False)
    assert pairing.home is not None and pairing.away is not None
    win_for(pairing, pairing.home)  # an adjusted result is offered once the game is over
    organiser(client, event)
    html = client.get(f"/events/{event.id}/games/{pairing.id}/").content.decode()
    assert f"{pairing.home.name} (North–South)" in html
    assert f"Points of {pairing.away.name}" in html
    assert "Home" not in html and "Away" not in html


def test_the_public_bracket_names_its_matches(client):
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    html = client.get(f"/e/{event.id}/bracket/").content.decode()
    assert "Semi-final 1" in html and "Final" in html and "W1-1" not in html


def test_double_elimination_games_are_named_within_their_bracket():
    event = make_event(teams=4, format="double_elimination")
    generate(event)
    with translation.override("en"):
        names = {p.code: game_name(p, event) for p in Pairing.objects.filter(event=event)}
        short = {
            p.code: game_name(p, event, short=True) for p in Pairing.objects.filter(event=event)
        }
    assert names["W1-1"] == "Winners' round 1, game 1"
    assert names["L1-1"] == "Losers' round 1, game 1"
    assert names["GF"] == "Grand final"
    assert short["W1-1"] == "Round 1, game 1"
