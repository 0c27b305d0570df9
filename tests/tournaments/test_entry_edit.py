"""An entry changed after registration (issue 29): its name, seed, rating and players, with
registration's checks, the seed until the first round exists, the players until a game of the
entry has been played (then a substitution says who played instead)."""

from __future__ import annotations

import pytest
from django.db.models import Q

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


def _refused(call, sentence: str) -> InvalidInput:
    with pytest.raises(InvalidInput) as refused:
        call()
    assert str(refused.value.message) == sentence
    return refused.value


def test_a_team_entry_takes_a_new_partner_before_its_games_are_played():
    event = make_event(teams=4)
    entry = _entry(event, 1)
    old_team, keeper = entry.team, entry.team.player_one
    newcomer = player(name="Nell New")
    done = services.entry_update(
        actor=staff_actor(), entry=entry, seed=1, name="", player_two=newcomer
    )
    team = Team.objects.get(id=done.team_id)
    assert {team.player_one_id, team.player_two_id} == {keeper.id, newcomer.id}
    assert done.team_id != old_team.id and done.name == "Team 1" and done.seed == 1
    old_team.refresh_from_db()  # the old partnership is kept as it was, for its other games
    assert old_team.player_two.name == "T1b"


def test_the_same_players_in_either_order_change_nothing():
    event = make_event(teams=2)
    entry = _entry(event, 1)
    one, two = entry.team.player_one, entry.team.player_two
    done = services.entry_update(
        actor=staff_actor(), entry=entry, seed=1, player_one=two, player_two=one
    )
    assert done.team_id == entry.team_id


def test_a_player_of_another_entry_is_refused_with_its_name():
    event = make_event(teams=2)
    taken = _entry(event, 2).team.player_one
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
            actor=staff_actor(), entry=entry, seed=1, player_two=entry.team.player_one
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
    assert _entry(event, 1).team.player_one.name == "T1a"


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
    game = Game.objects.get(id=row.game_id)
    seats = {game.north_id, game.south_id, game.east_id, game.west_id}
    assert newcomer.id in seats and entry.team.player_two_id not in seats
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
    keeper = entry.team.player_one
    before = Player.objects.count()
    done = services.entry_update_by_names(
        actor=staff_actor(), entry=entry, seed=1, player_one="T1a", player_two="Vi Visitor"
    )
    team = Team.objects.select_related("player_one", "player_two").get(id=done.team_id)
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
            player_one=gone.team.player_one,
            player_two=gone.team.player_two,
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
