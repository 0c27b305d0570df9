"""An entry changed after registration (issue 29): its name, seed, rating and players, with
registration's checks, the seed until the first round exists, the players until a game of the
entry has been played (then a substitution says who played instead)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db.models import Q
from rest_framework.test import APIClient

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, NotAllowed
from kaiser_club.models import Membership, Player
from kaiser_club.roles import Role
from scoring.models import Game, Team
from tests.factories import member
from tournaments import services
from tournaments.models import Entry, Pairing, Round

from .helpers import generate, make_event, new_club, player, staff_actor, win_for

pytestmark = pytest.mark.django_db

PLAYED = (
    "A game of Team 1 has been played, so its players can no longer change. Record a "
    "substitution on the game where someone else plays instead."
)


def _entry(event, n: int) -> Entry:
    return Entry.objects.select_related("team").get(event=event, name=f"Team {n}")


def _team(entry: Entry) -> Team:
    assert entry.team is not None
    return entry.team


def _refused(call, sentence: str) -> InvalidInput:
    with pytest.raises(InvalidInput) as refused:
        call()
    assert str(refused.value.message) == sentence
    return refused.value


def test_a_team_entry_takes_a_new_partner_before_its_games_are_played():
    event = make_event(teams=4)
    entry = _entry(event, 1)
    old_team, keeper = _team(entry), _team(entry).player_one
    newcomer = player(name="Nell New")
    done = services.entry_update(
        actor=staff_actor(), entry=entry, seed=1, name="", player_two=newcomer
    )
    team = Team.objects.get(id=_team(done).id)
    assert {team.player_one_id, team.player_two_id} == {keeper.id, newcomer.id}
    assert done.team_id != old_team.id and done.name == "Team 1" and done.seed == 1
    old_team.refresh_from_db()  # the old partnership is kept as it was, for its other games
    assert old_team.player_two.name == "T1b"


def test_the_same_players_in_either_order_change_nothing():
    event = make_event(teams=2)
    entry = _entry(event, 1)
    one, two = _team(entry).player_one, _team(entry).player_two
    done = services.entry_update(
        actor=staff_actor(), entry=entry, seed=1, player_one=two, player_two=one
    )
    assert done.team_id == entry.team_id


def test_a_player_of_another_entry_is_refused_with_its_name():
    event = make_event(teams=2)
    taken = _team(_entry(event, 2)).player_one
    refusal = _refused(
        lambda: services.entry_update(
            actor=staff_actor(), entry=_entry(event, 1), seed=1, player_one=taken
        ),
        "T2a already plays in Team 2.",
    )
    assert set(refusal.field_errors) == {"player_one"}


def test_a_team_of_one_player_twice_is_refused():
    event = make_event(teams=2)
    entry = _entry(event, 1)
    _refused(
        lambda: services.entry_update(
            actor=staff_actor(), entry=entry, seed=1, player_two=_team(entry).player_one
        ),
        "A team needs two different players.",
    )


def test_another_clubs_player_is_refused_as_unknown():
    event = make_event(teams=2)
    stranger = player(name="Stan Stranger")
    Membership.objects.create(club=new_club(), player=stranger, role=Role.PLAYER)
    with pytest.raises(InvalidInput) as refused:
        services.entry_update(
            actor=staff_actor(), entry=_entry(event, 1), seed=1, player_one=stranger
        )
    assert str(stranger.id) in str(refused.value.message)
    assert _team(_entry(event, 1)).player_one.name == "T1a"


def test_a_seed_taken_or_after_the_draw_is_refused():
    event = make_event(teams=4)
    _refused(
        lambda: services.entry_update(actor=staff_actor(), entry=_entry(event, 1), seed=2),
        "Seed 2 is already Team 2's.",
    )
    generate(event)
    _refused(
        lambda: services.entry_update(actor=staff_actor(), entry=_entry(event, 1), seed=9),
        "Seeds are fixed once the first round exists.",
    )


def test_drawn_games_not_yet_played_seat_the_new_player():
    event = make_event(teams=4)
    generate(event)
    entry = _entry(event, 1)
    row = Pairing.objects.get(_plays(entry), round__number=1)
    newcomer = player(name="Nell New")
    services.entry_update(actor=staff_actor(), entry=entry, seed=1, player_two=newcomer)
    row.refresh_from_db()
    game = Game.objects.get(pairing=row)
    seats = {game.north_id, game.south_id, game.east_id, game.west_id}
    assert newcomer.id in seats and _team(entry).player_two_id not in seats
    assert (
        row.home_team_id == _entry(event, 1).team_id or row.away_team_id == _entry(event, 1).team_id
    )


def _plays(entry: Entry) -> Q:
    return Q(home=entry) | Q(away=entry)


def test_players_are_fixed_once_a_game_of_the_entry_is_played():
    event = make_event(teams=4)
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    entry = _entry(event, 1)
    row = Pairing.objects.get(_plays(entry), round__number=1)
    win_for(row, entry)
    refusal = _refused(
        lambda: services.entry_update(
            actor=staff_actor(), entry=entry, seed=1, player_two=player(name="Late Larry")
        ),
        PLAYED,
    )
    assert set(refusal.field_errors) == {"player_one", "player_two"}
    # The name, rating and seed (unchanged) still change.
    done = services.entry_update(actor=staff_actor(), entry=entry, seed=1, rating=1620, name="A")
    assert (done.name, done.rating) == ("A", 1620)


def test_typed_names_keep_the_players_named_and_find_or_make_the_others():
    event = make_event(teams=2)
    entry = _entry(event, 1)
    keeper = _team(entry).player_one
    before = Player.objects.count()
    done = services.entry_update_by_names(
        actor=staff_actor(), entry=entry, seed=1, player_one="T1a", player_two="Vi Visitor"
    )
    team = Team.objects.select_related("player_one", "player_two").get(id=_team(done).id)
    assert keeper.id in (team.player_one_id, team.player_two_id)
    assert Player.objects.count() == before + 1
    assert Player.objects.get(name="Vi Visitor").host_club_id == event.club_id


def test_a_refused_change_by_names_makes_no_player_record():
    event = make_event(teams=2)
    before = Player.objects.count()
    with pytest.raises(InvalidInput):
        services.entry_update_by_names(
            actor=staff_actor(),
            entry=_entry(event, 1),
            seed=2,  # Team 2's
            player_one="T1a",
            player_two="Vi Visitor",
        )
    assert Player.objects.count() == before


def test_a_withdrawn_entry_of_the_same_pair_is_reinstated_not_copied():
    event = make_event(teams=3)
    gone = _entry(event, 2)
    services.entry_withdraw_unchecked(entry=gone)
    _refused(
        lambda: services.entry_update(
            actor=staff_actor(),
            entry=_entry(event, 1),
            seed=1,
            player_one=_team(gone).player_one,
            player_two=_team(gone).player_two,
        ),
        "Team 2, withdrawn, is already these players' entry in this event: reinstate it instead.",
    )


def test_a_progressive_player_changes_until_the_rounds_are_drawn():
    event = make_event(teams=4, format="progressive")
    entry = Entry.objects.get(event=event, name="P1")
    newcomer = player(name="Pat New")
    done = services.entry_update(actor=staff_actor(), entry=entry, seed=1, player=newcomer)
    assert (done.player_id, done.name) == (newcomer.id, "Pat New")
    generate(event)
    _refused(
        lambda: services.entry_update(
            actor=staff_actor(), entry=done, seed=1, player=player(name="Too Late")
        ),
        "The rounds of progressive event are drawn with Pat New in them, so the player can no "
        "longer change. Record a substitution on the game where someone else plays instead.",
    )


def test_only_an_organiser_changes_an_entry():
    event = make_event(teams=2)
    someone = Actor.of(member(event.club, Role.SCOREKEEPER))
    with pytest.raises(NotAllowed):
        services.entry_update(actor=someone, entry=_entry(event, 1), seed=1, rating=1500)


# --- The doors: the entry's page, the API ------------------------------------------------------


def _organiser(event) -> User:
    return member(event.club, Role.ORGANISER)


def test_the_entries_page_links_each_entry_to_its_page_prefilled(client):
    event = make_event(teams=2)
    entry = _entry(event, 1)
    client.force_login(_organiser(event))
    listing = client.get(f"/events/{event.id}/entries/").content.decode()
    assert f"/events/{event.id}/entries/{entry.id}/edit/" in listing
    page = client.get(f"/events/{event.id}/entries/{entry.id}/edit/")
    assert page.status_code == 200
    form = page.context["form"]
    assert (form["player_one"].value(), form["player_two"].value()) == ("T1a", "T1b")
    assert (form["name"].value(), form["seed"].value()) == ("Team 1", 1)
    assert not form.fields["seed"].disabled and not form.fields["player_one"].disabled


def test_the_page_changes_a_player_and_goes_back_to_the_entries(client):
    event = make_event(teams=2)
    entry = _entry(event, 1)
    client.force_login(_organiser(event))
    body = {"player_one": "T1a", "player_two": "Nell New", "name": "Team 1", "seed": "1"}
    answer = client.post(f"/events/{event.id}/entries/{entry.id}/edit/", body)
    assert answer.status_code == 302 and answer["Location"] == f"/events/{event.id}/entries/"
    team = Team.objects.select_related("player_two").get(id=_team(_entry(event, 1)).id)
    assert {team.player_one.name, team.player_two.name} == {"T1a", "Nell New"}


def test_the_page_shows_a_refusal_under_its_field(client):
    event = make_event(teams=2)
    entry = _entry(event, 1)
    client.force_login(_organiser(event))
    body = {"player_one": "T2a", "player_two": "T1b", "name": "Team 1", "seed": "2"}
    answer = client.post(f"/events/{event.id}/entries/{entry.id}/edit/", body)
    assert answer.status_code == 400
    assert answer.context["form"].errors["seed"] == ["Taken."]
    body["seed"] = "1"
    answer = client.post(f"/events/{event.id}/entries/{entry.id}/edit/", body)
    assert answer.context["form"].errors["player_one"] == ["T2a already plays in Team 2."]
    assert _team(_entry(event, 1)).player_one.name == "T1a"


def test_the_page_offers_what_the_state_allows(client):
    event = make_event(teams=4)
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    entry = _entry(event, 1)
    win_for(Pairing.objects.get(_plays(entry), round__number=1), entry)
    client.force_login(_organiser(event))
    page = client.get(f"/events/{event.id}/entries/{entry.id}/edit/")
    form = page.context["form"]
    assert form.fields["seed"].disabled and form.fields["player_two"].disabled
    assert "record a substitution" in page.content.decode()
    # What is disabled is kept whatever is sent; the rating still changes.
    body = {"player_one": "X", "player_two": "Y", "name": "Team 1", "seed": "7", "rating": "1610"}
    answer = client.post(f"/events/{event.id}/entries/{entry.id}/edit/", body)
    assert answer.status_code == 302
    done = _entry(event, 1)
    assert (done.seed, done.rating, _team(done).player_one.name) == (1, 1610, "T1a")


def test_the_page_of_an_entry_of_another_event_is_not_found(client):
    event = make_event(teams=2)
    other = make_event(teams=2, club=event.club)
    client.force_login(_organiser(event))
    answer = client.get(f"/events/{event.id}/entries/{_entry(other, 1).id}/edit/")
    assert answer.status_code == 404


def test_the_api_changes_players_by_id(client):
    event = make_event(teams=2)
    entry = _entry(event, 1)
    newcomer = player(name="Nell New")
    api = APIClient()
    api.force_login(_organiser(event))
    url = f"/api/events/{event.id}/entries/{entry.id}/"
    answer = api.patch(url, {"player_two": newcomer.id, "rating": 1550}, format="json")
    assert answer.status_code == 200
    names = [p["name"] for p in answer.json()["players"]]
    assert sorted(names) == ["Nell New", "T1a"] and answer.json()["seed"] == 1
    taken = _team(_entry(event, 2)).player_one
    answer = api.patch(url, {"player_one": taken.id}, format="json")
    assert answer.status_code == 400
    assert answer.json()["detail"] == "T2a already plays in Team 2."


def test_the_rating_column_shows_the_players_rating_when_none_was_typed(client):
    event = make_event(teams=4)
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    entry = _entry(event, 1)
    win_for(Pairing.objects.get(_plays(entry), round__number=1), entry)
    services.entry_update(actor=staff_actor(), entry=_entry(event, 2), seed=2, rating=0)
    client.force_login(_organiser(event))
    rows = {
        e.name: rating
        for e, rating in client.get(f"/events/{event.id}/entries/").context["entries"]
    }
    assert rows["Team 1"] is not None and rows["Team 1"] > 1500  # won its rated game
    assert rows["Team 2"] == 0  # typed: shown, even 0
    unrated = [n for n in ("Team 3", "Team 4") if rows[n] is None]
    assert len(unrated) == 1  # the team that lost to Team 1 is rated; the other has not played


def test_the_entrys_page_speaks_french(client, settings):
    event = make_event(teams=4)
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    entry = _entry(event, 1)
    win_for(Pairing.objects.get(_plays(entry), round__number=1), entry)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.force_login(_organiser(event))
    page = client.get(f"/events/{event.id}/entries/{entry.id}/edit/").content.decode()
    assert "Modifier Team 1" in page
    assert "Fixée dès que la première ronde existe." in page
    assert "enregistrez plutôt un remplacement sur sa page" in page
    body = {"player_one": "T1a", "player_two": "T1b", "name": "Team 1", "rating": "99999"}
    refused = client.post(f"/events/{event.id}/entries/{entry.id}/edit/", body)
    assert refused.status_code == 400 and "10000" in refused.content.decode()
