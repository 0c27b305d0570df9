"""The rows of the public tables of games (written in Python, tournaments/templatetags/
game_rows.py): the markup the template gave, names escaped, links to each team's page and
each game's sheet, a bye, a progressive night's players by name."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from kaiser_club.models import Player
from tournaments.models import Pairing

from ..helpers import generate, make_event, win_game
from .world import bye, hall, live_game, result

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()


def test_a_rounds_rows_escape_names_and_link_each_team_and_game(client):
    made = hall(["A<b>", "B&co", "C", "D", "E"], format="swiss")
    played = result(made, "A<b>", "B&co", 52, 30, round=1)
    byed = bye(made, "E", 31, 20, round=1)
    live_game(made, "C", "D", round=1, table_number=3)
    e = made.event.id
    html = client.get(f"/e/{e}/rounds/1/?part=1").content.decode()
    a, b, f = (made[name].id for name in ("A<b>", "B&co", "E"))
    assert (
        f'<tr class="game final" data-pairing="{played.id}">\n'
        '    <td class="num"></td>\n'
        f'    <td class="winner"><a href="/e/{e}/teams/{a}/">A&lt;b&gt;</a></td>\n'
        f'    <td class="num pts"><a href="/e/{e}/games/{played.id}/" class="score-link">'
        '<span class="home-score">52</span>–<span class="away-score">30</span></a></td>\n'
        f'    <td class=""><a href="/e/{e}/teams/{b}/">B&amp;co</a></td>\n'
        "    <td>final</td>\n"
        "  </tr>"
    ) in html
    assert (
        f'<tr class="game bye" data-pairing="{byed.id}">\n'
        '    <td class="num"></td>\n'
        f'    <td class="winner"><a href="/e/{e}/teams/{f}/">E</a></td>\n'
        '    <td class="num pts">31</td>\n'
        '    <td class=""><span class="muted">bye</span></td>\n'
        "    <td>bye</td>\n"
        "  </tr>"
    ) in html
    assert '<span class="live-dot" aria-hidden="true"></span>playing</td>' in html  # no round
    live = client.get(f"/e/{e}/live/?part=1").content.decode()
    assert '<span class="live-dot" aria-hidden="true"></span>playing · Round 1</td>' in live


def test_a_progressive_nights_rows_name_the_players_and_link_the_public_ones(client):
    event = make_event(teams=8, format="progressive", rounds=2)
    generate(event)
    pairing = Pairing.objects.filter(event=event, game__isnull=False).first()
    assert pairing is not None and pairing.home_team is not None
    win_game(pairing.game_id)
    one, two = pairing.home_team.player_one, pairing.home_team.player_two
    Player.objects.filter(id=one.id).update(is_public=True)
    html = client.get(f"/e/{event.id}/rounds/1/?part=1").content.decode()
    assert (
        f'<td class="winner"><a href="/e/{event.id}/players/{one.id}/">{one.name}</a>'
        f" &amp; {two.name}\n</td>"
    ) in html
