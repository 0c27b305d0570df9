"""Events and their rule sets; tables, their codes and QR links."""

from __future__ import annotations

import datetime as dt

import pytest

from kaiser_club.errors import InvalidInput
from scoring.models import Game
from tournaments import services
from tournaments.models import Round, Table
from tournaments.qr import qr_svg
from tournaments.selectors import table_for_code

from .helpers import generate, make_event, new_club, staff_actor

pytestmark = pytest.mark.django_db


def test_a_tournament_starts_from_the_tournament_preset_and_a_club_night_from_the_clubs():
    club = new_club(default_preset="club")
    tournament = services.event_create(club=club, name="Open", date=dt.date(2026, 12, 5), rounds=5)
    assert (tournament.preset, tournament.rules["min_bid"], tournament.time_limit) == (
        "tournament",
        7,
        60,
    )
    assert tournament.check_in_required
    night = services.event_create(
        club=club,
        name="Tuesday",
        date=dt.date(2026, 12, 1),
        kind="club_night",
        format="progressive",
        rounds=4,
    )
    assert (night.preset, night.rules["min_bid"], night.time_limit) == ("club", 5, None)
    assert not night.check_in_required


def test_rule_options_change_until_the_first_game_starts_and_games_follow():
    event = make_event(teams=2, format="swiss")
    generate(event)
    services.event_change_rules_unchecked(event=event, changes={"min_bid": 6})
    game = Game.objects.get(pairing__event=event)
    assert game.rules["min_bid"] == 6
    services.round_start_unchecked(round_=Round.objects.get(event=event))
    with pytest.raises(InvalidInput, match="has started"):
        services.event_change_rules_unchecked(event=event, changes={"min_bid": 8})


def test_an_impossible_rule_change_is_refused_with_the_rules_message():
    event = make_event(teams=0, format="swiss")
    with pytest.raises(InvalidInput) as refused:
        services.event_change_rules_unchecked(event=event, changes={"min_bid": 40})
    assert refused.value.field_errors["rules"]


def test_pairing_settings_are_fixed_once_a_round_exists():
    event = make_event(teams=4, format="swiss")
    services.event_update_unchecked(event=event, format="round_robin")
    generate(event)
    with pytest.raises(InvalidInput, match="format"):
        services.event_update_unchecked(event=event, format="swiss")
    services.event_update_unchecked(event=event, venue="Legion Hall 45")  # still fine


def test_a_pools_event_needs_its_pools():
    with pytest.raises(InvalidInput, match="number of pools"):
        services.event_create(club=new_club(), name="P", date=dt.date(2026, 1, 1), format="pools")


def test_season_of_another_club_is_refused():
    other = services.season_create_unchecked(club=new_club(), name="2026")
    with pytest.raises(InvalidInput, match="another club"):
        services.event_create(
            club=new_club(),
            name="N",
            date=dt.date(2026, 1, 1),
            kind="club_night",
            format="progressive",
            rounds=3,
            season=other,
        )


def test_tables_get_long_random_codes_that_can_be_revoked_and_renewed():
    event = make_event(teams=4, format="swiss")
    generate(event)
    tables = list(Table.objects.filter(event=event))
    assert [t.number for t in tables] == [1, 2]
    codes = [t.code for t in tables]
    assert all(c and len(c) == 20 for c in codes) and len(set(codes)) == 2
    first = tables[0]
    assert first.code is not None
    typed = services.display_code(first.code).lower()
    assert typed.count("-") == 3
    found = table_for_code(typed)
    assert found is not None and found.id == first.id
    actor = staff_actor()
    services.table_revoke(actor=actor, table=first)
    assert table_for_code(typed) is None
    renewed = services.table_renew(actor=actor, table=first)
    assert renewed.code and renewed.code != first.code
    assert table_for_code(renewed.code) is not None


def test_qr_svg_encodes_the_table_link():
    svg = qr_svg("http://hall.local/t/ABCDE/")
    assert svg.startswith("<svg") and "</svg>" in svg


def test_every_events_model_has_an_admin_page(client, django_user_model):
    event = make_event(teams=2, format="swiss")
    generate(event)
    client.force_login(django_user_model.objects.create_superuser("root", "r@example.org", "pw"))
    for name in (
        "season",
        "event",
        "entry",
        "table",
        "pairing",
        "generationjob",
        "rollback",
        "substitution",
    ):
        answer = client.get(f"/admin/tournaments/{name}/")
        assert answer.status_code == 200, name
    assert client.get(f"/admin/tournaments/event/{event.id}/change/").status_code == 200
