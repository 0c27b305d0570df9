"""Registration: typed in, CSV import with a preview, check-in, late entry, withdrawal, and a
substitute for one game."""

from __future__ import annotations

import pytest

from kaiser_club.errors import InvalidInput
from kaiser_club.models import Player
from kaiser_club.people import NEW, ChooseRecord
from kaiser_club.roles import Role
from tests.factories import MembershipFactory
from tournaments import services
from tournaments.models import Entry, Pairing, Round, Substitution
from tournaments.services.entries import known_player_named

from .helpers import game_of, generate, make_event, new_club, player, staff_actor, win_for

pytestmark = pytest.mark.django_db


def test_a_team_is_found_again_when_the_same_two_register():
    event = make_event(teams=0, format="swiss")
    one, two = player(), player()
    first = services.entry_register_team_unchecked(event=event, player_one=one, player_two=two)
    other = make_event(teams=0, format="swiss", club=event.club)
    again = services.entry_register_team_unchecked(event=other, player_one=two, player_two=one)
    assert first.team_id == again.team_id


def test_a_player_plays_in_one_team_of_an_event():
    event = make_event(teams=0, format="swiss")
    one, two, three = player(name="Ann"), player(name="Bo"), player()
    services.entry_register_team_unchecked(event=event, player_one=one, player_two=two, name="A&B")
    with pytest.raises(InvalidInput, match="already plays in A&B"):
        services.entry_register_team_unchecked(event=event, player_one=three, player_two=two)


CSV = """team,player_one,player_two,seed,rating,club
Prairie Fire,Olga Hnatiuk,Walter Kowalchuk,1,1650,
Northern Lights,Marie Desjardins,Ron Bear,2,,
"""


def test_csv_preview_names_new_players_and_import_creates_every_entry():
    event = make_event(teams=0, format="swiss")
    player(name="Olga Hnatiuk")
    MembershipFactory(club=event.club, player__name="Ron Bear", role=Role.PLAYER)
    preview = services.parse(event=event, text=CSV)
    assert preview.ok
    assert [r.new_players for r in preview.rows] == [["Walter Kowalchuk"], ["Marie Desjardins"]]
    result = services.entries_import(actor=staff_actor(), event=event, text=CSV)
    assert [(e.name, e.seed, e.rating) for e in result.created] == [
        ("Prairie Fire", 1, 1650.0),
        ("Northern Lights", 2, None),
    ]


def test_csv_with_any_bad_row_imports_nothing_and_says_what_is_wrong_per_row():
    event = make_event(teams=1, format="swiss")  # Team 1: T1a and T1b, seed 1
    text = """player_one;player_two;seed;club
Ann;Bo;2;
Cy;;x;
Ann;Di;1;nowhere
T1a;Ed;;
"""
    with pytest.raises(InvalidInput) as refused:
        services.entries_import(actor=staff_actor(), event=event, text=text)
    assert refused.value.message == (
        "3 rows have problems, so nothing was imported. Fix the file and try again."
    )
    assert [(r["line"], r["errors"]) for r in refused.value.extra["rows"]] == [
        (3, ["No name for the second player.", "Seed 'x' is not a whole number from 1 to 9999."]),
        (
            4,
            [
                "Ann is also on line 2.",
                "Seed 1 is already Team 1's.",
                "There is no club called 'nowhere'.",
            ],
        ),
        (5, ["T1a is already entered (Team 1)."]),
    ]
    assert Entry.objects.filter(event=event).count() == 1


def test_csv_without_the_player_columns_is_refused():
    event = make_event(teams=0, format="swiss")
    with pytest.raises(InvalidInput, match="missing: player_one, player_two"):
        services.parse(event=event, text="name,partner\nA,B\n")


def test_late_entry_joins_a_swiss_event_from_the_next_round():
    event = make_event(teams=4, format="swiss")
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    late = services.entry_register_team_unchecked(
        event=event, player_one=player(), player_two=player(), name="Latecomers"
    )
    assert late.late
    for p in Pairing.objects.filter(event=event, round__number=1):
        win_for(p, p.home)
    assert generate(event).summary == "Round 2: 2 games and 1 bye."
    assert Pairing.objects.filter(event=event, round__number=2).filter(home=late).exists() or (
        Pairing.objects.filter(event=event, round__number=2, away=late).exists()
    )


def test_no_late_entry_once_a_bracket_has_started():
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    with pytest.raises(InvalidInput, match="draw has started"):
        services.entry_register_team_unchecked(
            event=event, player_one=player(), player_two=player()
        )


def test_withdrawal_forfeits_unfinished_games_and_keeps_played_ones():
    event = make_event(teams=4, format="round_robin")
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    first = list(Pairing.objects.filter(event=event, round__number=1).order_by("table__number"))
    gone = first[0].home
    assert gone is not None
    win_for(first[0], gone)  # played: stands
    other = first[1]
    win_for(other, other.home)
    generate(event)  # round 2 exists, not started
    forfeited = services.entry_withdraw_unchecked(entry=gone, reason="Illness")
    assert len(forfeited) == 1 and forfeited[0].round.number == 2
    row = forfeited[0]
    loser_side = "home" if row.home_id == gone.id else "away"
    assert row.result == "forfeit" and row.winner_side != loser_side
    assert Pairing.objects.get(id=first[0].id).result == "played"
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=2))
    for p in Pairing.objects.filter(event=event, round__number=2, result="pending"):
        win_for(p, p.home)
    generate(event)  # round 3 of the fixed schedule: the withdrawn team's game is a forfeit
    third = Pairing.objects.filter(event=event, round__number=3)
    withdrawn_game = (
        third.get(home=gone) if third.filter(home=gone).exists() else third.get(away=gone)
    )
    assert (withdrawn_game.result, withdrawn_game.game_id, withdrawn_game.reason) == (
        "forfeit",
        None,
        "Withdrawn",
    )


def test_withdrawn_team_is_no_longer_paired_in_swiss():
    event = make_event(teams=4, format="swiss")
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    for p in Pairing.objects.filter(event=event):
        win_for(p, p.home)
    gone = Entry.objects.get(event=event, seed=4)
    services.entry_withdraw_unchecked(entry=gone)
    assert generate(event).summary == "Round 2: 1 game and 1 bye."
    assert not Pairing.objects.filter(event=event, round__number=2, home=gone).exists()
    assert not Pairing.objects.filter(event=event, round__number=2, away=gone).exists()


def test_a_withdrawn_team_forfeits_its_later_bracket_games_as_it_reaches_them():
    event = make_event(teams=4, format="single_elimination")
    generate(event)
    semi = Pairing.objects.get(event=event, code="W1-1")
    win_for(semi, semi.home)
    assert semi.home is not None
    services.entry_withdraw_unchecked(entry=semi.home)
    other = Pairing.objects.get(event=event, code="W1-2")
    win_for(other, other.home)
    final = Pairing.objects.get(event=event, code="W2-1")
    assert (final.result, final.winner_side, final.game_id) == ("forfeit", "away", None)


def test_a_substitute_plays_one_game_in_the_replaced_players_seat():
    event = make_event(teams=2, format="swiss")
    generate(event)
    pairing = Pairing.objects.select_related("game", "home__team").get(event=event)
    assert pairing.home is not None and pairing.home.team is not None
    replaced = pairing.home.team.player_two
    sub = player(name="Sub")
    record = services.pairing_substitute_unchecked(
        pairing=pairing, replaced_id=replaced.id, substitute_id=sub.id, reason="Back pain"
    )
    game = game_of(pairing)
    assert game.south_id == sub.id and record.seat == 2 and record.entry_id == pairing.home_id
    assert Substitution.objects.get().replaced_id == replaced.id
    sub.refresh_from_db()
    assert sub.host_club_id == event.club_id  # a record of no club: now the club's visitor
    with pytest.raises(InvalidInput, match=f"Player {replaced.id} does not sit at this game"):
        services.pairing_substitute_unchecked(
            pairing=pairing, replaced_id=replaced.id, substitute_id=sub.id
        )
    with pytest.raises(InvalidInput, match="Sub already plays in this game"):
        services.pairing_substitute_unchecked(
            pairing=pairing, replaced_id=game.north_id, substitute_id=sub.id
        )
    win_for(pairing, pairing.home)  # the result counts for the team as entered
    pairing.refresh_from_db()
    assert pairing.winner_side == "home"


def _two_player_game():
    event = make_event(teams=2, format="swiss")
    generate(event)
    pairing = Pairing.objects.select_related("game").get(event=event)
    return event, pairing, game_of(pairing)


def test_a_typed_substitute_is_the_clubs_known_player_of_that_name_or_a_new_visitor():
    event, pairing, game = _two_player_game()
    elsewhere = new_club()
    theirs = player(name="Wanda Walk")
    MembershipFactory(club=elsewhere, player=theirs, role=Role.PLAYER)
    services.pairing_substitute_unchecked(
        pairing=pairing, replaced_id=game.north_id, substitute_name="  wanda   WALK "
    )
    seated = game_of(pairing).north
    assert seated.id != theirs.id  # another club's player is never picked by name
    assert (seated.name, seated.host_club_id) == ("wanda WALK", event.club_id)
    assert known_player_named(club=event.club, name="Wanda Walk") == seated  # found again
    with pytest.raises(InvalidInput, match="wanda WALK already plays in this game"):
        services.pairing_substitute_unchecked(
            pairing=pairing, replaced_id=game.east_id, substitute_name="Wanda Walk"
        )


def test_a_refused_substitution_creates_nothing():
    event, pairing, game = _two_player_game()
    elsewhere = new_club()
    theirs = player(name="Private Pat")
    MembershipFactory(club=elsewhere, player=theirs, role=Role.PLAYER)
    players = Player.objects.count()
    refusals = [
        ({"replaced_id": 999999, "substitute_name": "New Ned"}, "Player 999999 does not sit"),
        ({"replaced_id": game.north_id}, "Give the substitute: a player's id, or a name."),
        (
            {"replaced_id": game.north_id, "substitute_id": theirs.id},
            f"Player {theirs.id} is not a member or a known visitor of {event.club.name}",
        ),
        (  # an id that does not exist is refused in the same words as another club's player
            {"replaced_id": game.north_id, "substitute_id": 999999},
            f"Player 999999 is not a member or a known visitor of {event.club.name}",
        ),
        (
            {"replaced_id": game.north_id, "substitute_id": theirs.id, "substitute_name": "X"},
            "Give the substitute by id or by name, not both.",
        ),
    ]
    for arguments, sentence in refusals:
        with pytest.raises(InvalidInput) as refused:
            services.pairing_substitute_unchecked(pairing=pairing, **arguments)
        assert sentence in refused.value.message
    assert Player.objects.count() == players and not Substitution.objects.exists()
    assert game_of(pairing).north_id == game.north_id


def test_a_typed_name_never_picks_another_clubs_player():
    club, elsewhere = new_club(), new_club()
    theirs = player(name="Olga Osh")
    MembershipFactory(club=elsewhere, player=theirs, role=Role.PLAYER)
    assert known_player_named(club=club, name="olga osh") is None  # a new record, not theirs
    visitor = Player.objects.create(name="Olga Osh", host_club=club)
    found = known_player_named(club=club, name="olga osh")
    assert found is not None and found.id == visitor.id
    ours = player(name="Olga Osh")
    MembershipFactory(club=club, player=ours, role=Role.PLAYER)
    # The visitor and the member could both be her: the person typing chooses, or says new.
    with pytest.raises(ChooseRecord) as asked:
        known_player_named(club=club, name="Olga Osh")
    offered = [c["id"] for c in asked.value.extra["choices"]["player"]]
    assert offered == [visitor.id, ours.id] and theirs.id not in offered
    chosen = known_player_named(club=club, name="Olga Osh", choice=ours.id)
    assert chosen is not None and chosen.id == ours.id
    assert known_player_named(club=club, name="Olga Osh", choice=NEW) is None
    with pytest.raises(InvalidInput, match=f"Player {theirs.id} is not a member"):
        known_player_named(club=club, name="Olga Osh", choice=theirs.id)


def test_check_in_and_check_in_all():
    event = make_event(teams=3, format="swiss", check_in=True)
    first = Entry.objects.filter(event=event).first()
    assert first is not None
    services.entry_check_in_unchecked(entry=first)
    assert services.entry_check_in_all(actor=staff_actor(), event=event) == 2
    services.entry_check_in_unchecked(entry=first, checked_in=False)
    first.refresh_from_db()
    assert (first.status, first.checked_in_at) == ("registered", None)


def test_club_is_not_required_for_a_typed_entry():
    club = new_club()
    event = make_event(teams=0, format="swiss", club=club)
    entry = services.entry_register_team_unchecked(
        event=event, player_one=player(), player_two=player(), seed=3
    )
    assert entry.club_id == club.id and entry.seed == 3
    with pytest.raises(InvalidInput, match="Seed 3 is already"):
        services.entry_register_team_unchecked(
            event=event, player_one=player(), player_two=player(), seed=3
        )
