"""The write services of scoring: start a game, record hands (idempotent, stale-safe), undo,
correct a past hand, forfeit, and the audit trail. The clock has its own module (test_clock.py).

Expected scores are worked out by hand from docs/rules.md, "Scoring a hand" and "Bid-out" (a
trick is 1, the 5♥ +5, the 3♠ -3; a made bid adds the points taken, doubled at no-trump; a failed
bid subtracts the bid; bid-out defenders add nothing positive unless they steal the five under
the tournament rules)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from kaiser_club.errors import InvalidInput, NotFound
from scoring import services
from scoring.errors import ClientIdReused, HandNotAccepted, StaleGame
from scoring.models import Game, GameChange, Hand
from scoring.rules import Contract, MisdealReason, Seat, Suit
from tests.factories import start_game
from tests.scoring.hands import (
    EW,
    NS,
    E,
    N,
    S,
    W,
    make_club,
    make_player,
    make_team,
    make_user,
    misdeal,
    played,
    record,
)

pytestmark = pytest.mark.django_db


def codes(exc: pytest.ExceptionInfo[HandNotAccepted]) -> list[str]:
    return [r["code"] for r in exc.value.extra["refusals"]]


def snapshot(game: Game) -> dict[str, Any]:
    """Everything a refused write must leave as it was."""
    game.refresh_from_db()
    return {
        "game": {f.attname: getattr(game, f.attname) for f in Game._meta.concrete_fields},
        "hands": list(Hand.objects.filter(game=game).order_by("number").values()),
        "changes": list(GameChange.objects.filter(game=game).order_by("id").values()),
    }


# --- Starting a game ---------------------------------------------------------------------------


def test_start_seats_the_teams_and_copies_the_preset() -> None:
    club = make_club()
    ns, ew = make_team(club=club), make_team(club=club)
    game = services.game_start(
        club=club,
        ns_team=ns,
        ew_team=ew,
        first_dealer=Seat.EAST,
        rules=services.rules_from(preset_name="tournament"),
        preset_name="tournament",
    )
    game.refresh_from_db()
    assert (game.north, game.south) == (ns.player_one, ns.player_two)
    assert (game.east, game.west) == (ew.player_one, ew.player_two)
    assert game.first_dealer == 1
    assert game.dealer == 1
    assert game.status == "in_progress"
    assert (game.ns_score, game.ew_score, game.hand_count) == (0, 0, 0)
    assert (game.target, game.bid_out_line) == (52, 47)
    assert game.preset == "tournament"
    assert game.rules["min_bid"] == 7
    assert game.rules["time_limit_minutes"] == 60
    assert game.time_limit_minutes == 60
    assert game.started_at is not None
    assert game.version == 1


def test_start_with_explicit_seats() -> None:
    club = make_club()
    ns, ew = make_team(club=club), make_team(club=club)
    seats = {N: ns.player_two, S: ns.player_one, E: ew.player_two, W: ew.player_one}
    game = services.game_start(
        club=club,
        ns_team=ns,
        ew_team=ew,
        seats=seats,
        first_dealer=Seat.NORTH,
        rules=services.rules_from(preset_name="club"),
        preset_name="club",
    )
    game.refresh_from_db()
    assert (game.north, game.east, game.south, game.west) == (
        ns.player_two,
        ew.player_two,
        ns.player_one,
        ew.player_one,
    )


@pytest.mark.parametrize(
    ("swap", "message"),
    [
        ("north_east", "North and south must be the two players of"),
        ("east_outsider", "East and west must be the two players of"),
        ("missing", "Every seat needs a player: north, east, south and west."),
    ],
)
def test_start_refuses_wrong_seating(swap: str, message: str) -> None:
    club = make_club()
    ns, ew = make_team(club=club), make_team(club=club)
    seats = {N: ns.player_one, S: ns.player_two, E: ew.player_one, W: ew.player_two}
    if swap == "north_east":
        seats[N], seats[E] = seats[E], seats[N]
    elif swap == "east_outsider":
        seats[E] = make_player()
    else:
        del seats[W]
    with pytest.raises(InvalidInput, match=message):
        services.game_start(
            club=club,
            ns_team=ns,
            ew_team=ew,
            seats=seats,
            first_dealer=Seat.NORTH,
            rules=services.rules_from(preset_name="club"),
            preset_name="club",
        )
    assert Game.objects.count() == 0


def test_start_refuses_one_team_against_itself() -> None:
    club = make_club()
    team = make_team(club=club)
    with pytest.raises(InvalidInput, match="A game needs two different teams"):
        services.game_start(
            club=club,
            ns_team=team,
            ew_team=team,
            first_dealer=Seat.NORTH,
            rules=services.rules_from(preset_name="club"),
            preset_name="club",
        )


def test_start_refuses_a_player_in_both_teams() -> None:
    club = make_club()
    shared = make_player(name="Olga")
    ns = make_team(club=club, name="Aces", player_one=shared)
    ew = make_team(club=club, name="Kings", player_two=shared)
    with pytest.raises(InvalidInput) as exc:
        services.game_start(
            club=club,
            ns_team=ns,
            ew_team=ew,
            first_dealer=Seat.NORTH,
            rules=services.rules_from(preset_name="club"),
            preset_name="club",
        )
    assert exc.value.message == (
        "Aces and Kings share a player; a game needs four different players."
    )
    assert Game.objects.count() == 0


def test_start_from_a_preset_with_changes() -> None:
    rules = services.rules_from(
        preset_name="club", changes={"target": 62, "bid_out_line": 57, "min_bid": 6}
    )
    game = start_game(preset_name="club", changes={"target": 62, "bid_out_line": 57})
    assert (rules.target, rules.bid_out_line, rules.min_bid) == (62, 57, 6)
    assert rules.steal_the_five.value == "scores"  # the rest is the preset's
    game.refresh_from_db()
    assert (game.target, game.bid_out_line) == (62, 57)
    assert game.rules["target"] == 62
    assert game.rules["min_bid"] == 5
    assert game.preset == "club"


@pytest.mark.parametrize(
    ("preset_name", "changes", "field", "message"),
    [
        (
            "poker",
            None,
            "preset",
            "There is no preset named 'poker'; the presets are: standard, club, tournament, "
            "saskatchewan, les_rois, joffre.",
        ),
        ("club", {"colour": "red"}, "rules", "There is no rule option named 'colour'."),
        (
            "club",
            {"bid_out_line": 60},
            "rules",
            "The bid-out line (60) must be below the target (52).",
        ),
        (
            "club",
            {"min_bid": "seven"},
            "rules",
            "The minimum bid must be a whole number; 'seven' is not.",
        ),
    ],
)
def test_a_bad_preset_or_option_is_refused_with_a_message(
    preset_name: str, changes: dict[str, Any] | None, field: str, message: str
) -> None:
    with pytest.raises(InvalidInput) as exc:
        services.rules_from(preset_name=preset_name, changes=changes)
    assert exc.value.message == message
    assert exc.value.field_errors == {field: [message]}


def test_a_game_keeps_its_own_copy_of_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    game = start_game(preset_name="club")  # minimum bid 5
    # The club's preset changes afterwards: new games get minimum 9, this one keeps 5.
    changed = services.rules_from(preset_name="club", changes={"min_bid": 9})
    monkeypatch.setattr("scoring.services.games.preset", lambda name: changed)
    assert services.rules_from(preset_name="club").min_bid == 9
    recorded = record(game, played(N, 5, 5, NS, EW))
    assert recorded.created
    assert recorded.game.rules["min_bid"] == 5


# --- Recording hands ---------------------------------------------------------------------------

# Tournament rules (minimum 7, bid-out at 47, steal the five scores). First dealer North.
# (entry, NS score, EW score, dealer of the next hand) after each hand, worked out by hand.
TO_A_WIN = [
    # S bids 8 ♥, NS 7 tricks + 5♥ = 12, made; EW 1 trick + 3♠ = -2.
    (played(S, 8, 7, NS, EW, trump=Suit.HEARTS), 12, -2, E),
    # N bids 9 no-trump, NS 7 tricks + 5♥ = 12, made at no-trump: +24; EW -2.
    (played(N, 9, 7, NS, EW, contract=Contract.NO_TRUMP), 36, -4, S),
    # W bids 7 ♠, EW 4 tricks + 5♥ = 9, made; NS 4 tricks + 3♠ = 1.
    (played(W, 7, 4, EW, NS, trump=Suit.SPADES), 37, 5, W),
    # N bids 8 ♣, NS all 8 tricks and both cards = 10. NS reaches 47: bid out.
    (played(N, 8, 8, NS, NS), 47, 5, N),
    # E bids 7 ♦, EW 5 tricks + 5♥ + 3♠ = 7, made; NS 3 points, bid out: adds nothing.
    (played(E, 7, 5, EW, EW, trump=Suit.DIAMONDS), 47, 12, E),
    # W bids 7 ♠, EW 5 tricks + 3♠ = 2, fails: -7; bid-out NS steals the five: 3 + 5 = 8 → 55.
    (played(W, 7, 5, NS, EW, trump=Suit.SPADES), 55, 5, S),
]


def test_hands_recorded_through_to_a_win() -> None:
    game = start_game(preset_name="tournament")
    for number, (entry, ns, ew, next_dealer) in enumerate(TO_A_WIN, start=1):
        recorded = record(game, entry)
        assert recorded.created
        assert recorded.hand.number == number
        assert (recorded.hand.ns_score, recorded.hand.ew_score) == (ns, ew)
        assert (recorded.game.ns_score, recorded.game.ew_score) == (ns, ew)
        assert recorded.game.dealer == next_dealer
        assert recorded.game.hand_count == number
    game.refresh_from_db()
    assert game.status == "finished"
    assert (game.winner, game.end_reason) == ("ns", "target")
    assert game.ended_at is not None
    assert game.version == 1 + len(TO_A_WIN)
    assert (game.ns_bid_out, game.ew_bid_out) == (True, False)
    rows = list(Hand.objects.filter(game=game).order_by("number"))
    assert [(h.dealer, h.ns_score, h.ew_score) for h in rows] == [
        (0, 12, -2),
        (1, 36, -4),
        (2, 37, 5),
        (3, 47, 5),
        (0, 47, 12),
        (1, 55, 5),
    ]
    assert [(h.ns_change, h.ew_change, h.made) for h in rows] == [
        (12, -2, True),
        (24, -2, True),
        (1, 9, True),
        (10, 0, True),
        (0, 7, True),
        (8, -7, False),
    ]
    assert all(h.completed_at is not None for h in rows)

    with pytest.raises(HandNotAccepted) as exc:
        record(game, played(N, 7, 5, NS, EW))
    assert codes(exc) == ["game_over"]
    assert exc.value.message == "This game is over: North–South won."
    assert Hand.objects.filter(game=game).count() == 6


def test_a_hand_the_rules_refuse_is_not_recorded_and_says_why() -> None:
    game = start_game(preset_name="tournament")
    before = snapshot(game)
    with pytest.raises(HandNotAccepted) as exc:
        record(game, played(N, 4, 5, NS, EW))
    assert exc.value.status == 400
    assert exc.value.message == "Bid 4 is below this game's minimum of 7."
    assert exc.value.field_errors == {"bid": ["Bid 4 is below this game's minimum of 7."]}
    assert exc.value.extra["refusals"] == [
        {
            "code": "bid_below_minimum",
            "field": "bid",
            "params": {"bid": 4, "minimum": 7},
            "message": "Bid 4 is below this game's minimum of 7.",
        }
    ]
    assert snapshot(game) == before


def test_a_misdeal_is_refused_under_tournament_rules_and_moves_the_deal_in_a_club_game() -> None:
    tournament = start_game(preset_name="tournament")
    with pytest.raises(HandNotAccepted) as exc:
        record(tournament, misdeal(MisdealReason.NO_FACE_CARD))
    assert codes(exc) == ["misdeal_not_allowed"]

    club = start_game(preset_name="club")
    recorded = record(club, misdeal(MisdealReason.NO_FACE_CARD))
    assert recorded.hand.kind == "misdeal"
    assert (recorded.game.ns_score, recorded.game.ew_score) == (0, 0)
    assert recorded.game.dealer == 1  # the club sheet: the deal passes on


# --- Idempotency and stale writes -------------------------------------------------------------


def test_the_same_client_id_and_body_records_one_hand() -> None:
    game = start_game()
    client_id = uuid.uuid4()
    entry = played(N, 7, 6, NS, EW)
    first = record(game, entry, client_id=client_id, number=1)
    again = record(game, entry, client_id=client_id, number=1)
    assert first.created is True
    assert again.created is False
    assert again.hand.id == first.hand.id
    assert Hand.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.version == 2  # the retry changed nothing
    assert GameChange.objects.filter(game=game, action="record").count() == 1


def test_a_retry_is_answered_even_after_the_game_moved_on() -> None:
    game = start_game()
    client_id = uuid.uuid4()
    entry = played(N, 7, 6, NS, EW)
    first = record(game, entry, client_id=client_id, number=1)
    record(game, played(E, 7, 5, EW, NS), number=2)
    again = record(game, entry, client_id=client_id, number=1)
    assert (again.created, again.hand.id) == (False, first.hand.id)
    assert Hand.objects.filter(game=game).count() == 2


def test_the_same_client_id_with_another_body_is_refused() -> None:
    game = start_game()
    client_id = uuid.uuid4()
    record(game, played(N, 7, 6, NS, EW), client_id=client_id)
    before = snapshot(game)
    with pytest.raises(ClientIdReused) as exc:
        record(game, played(N, 8, 6, NS, EW), client_id=client_id)
    assert exc.value.status == 409
    assert exc.value.code == "client_id_reused"
    assert exc.value.message == (
        f"Hand id {client_id} was already used for hand 1 with other details. "
        "Each new hand needs a new id."
    )
    assert exc.value.extra == {"hand_number": 1}
    assert snapshot(game) == before


def test_a_stale_hand_number_is_refused() -> None:
    game = start_game()
    with pytest.raises(StaleGame) as exc:
        record(game, played(N, 7, 6, NS, EW), number=2)
    assert exc.value.status == 409
    assert exc.value.game_id == game.id
    assert "was for hand 2, but the game has 0 hands recorded" in exc.value.message

    record(game, played(N, 7, 6, NS, EW), number=1)
    before = snapshot(game)
    with pytest.raises(StaleGame, match="was for hand 1, but the game has 1 hand recorded"):
        record(game, played(E, 7, 5, EW, NS), number=1)
    assert snapshot(game) == before


# --- Undo --------------------------------------------------------------------------------------


def test_undo_the_last_hand() -> None:
    game = start_game()
    user = make_user()
    record(game, played(N, 7, 6, NS, EW))  # NS 11, EW -1
    second = played(E, 7, 5, EW, NS)
    record(game, second)  # NS 11, EW 9
    game = services.hand_undo(game_id=game.id, number=2, by=user)
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score, game.hand_count, game.dealer) == (11, -1, 1, 1)
    assert game.version == 4
    assert list(Hand.objects.filter(game=game).values_list("number", flat=True)) == [1]
    change = GameChange.objects.get(game=game, action="undo")
    assert (change.hand_number, change.by, change.after) == (2, user, None)
    assert change.before is not None
    assert (change.before["bidder"], change.before["bid"], change.before["five_hearts"]) == (
        1,
        7,
        "ew",
    )


def test_undo_the_winning_hand_reopens_the_game() -> None:
    game = start_game(preset_name="tournament")
    for entry, *_ in TO_A_WIN:
        record(game, entry)
    services.hand_undo(game_id=game.id)
    game.refresh_from_db()
    assert (game.status, game.winner, game.end_reason, game.ended_at) == (
        "in_progress",
        "",
        "",
        None,
    )
    assert (game.ns_score, game.ew_score) == (47, 12)


def test_undo_with_nothing_to_undo_is_refused() -> None:
    game = start_game()
    with pytest.raises(InvalidInput) as exc:
        services.hand_undo(game_id=game.id)
    assert exc.value.message == "There is no hand to undo: this game has none recorded yet."


def test_undo_of_a_hand_that_is_not_the_last_is_refused() -> None:
    game = start_game()
    record(game, played(N, 7, 6, NS, EW))
    record(game, played(E, 7, 5, EW, NS))
    before = snapshot(game)
    with pytest.raises(StaleGame) as exc:
        services.hand_undo(game_id=game.id, number=1)
    assert exc.value.message == (
        "You asked to undo hand 1, but the last hand is 2. Only the last hand can be undone."
    )
    assert snapshot(game) == before


def test_undo_after_a_forfeit_is_refused() -> None:
    game = start_game()
    record(game, played(N, 7, 6, NS, EW))
    services.game_forfeit(game_id=game.id, forfeited_by=EW)
    before = snapshot(game)
    with pytest.raises(InvalidInput, match="ended by forfeit; its hands can no longer be undone"):
        services.hand_undo(game_id=game.id)
    assert snapshot(game) == before


def test_undo_of_an_unknown_game() -> None:
    with pytest.raises(NotFound, match="There is no game 999999"):
        services.hand_undo(game_id=999999)


# --- Correcting a past hand --------------------------------------------------------------------


def test_correct_a_past_hand_recomputes_every_later_score() -> None:
    game = start_game(preset_name="tournament")
    user = make_user()
    record(game, played(N, 7, 6, NS, EW))  # NS 6 + 5 = 11 made; EW 2 - 3 = -1  → 11, -1
    record(game, played(E, 7, 5, EW, NS, trump=Suit.SPADES))  # EW 10 made; NS 0 → 11, 9
    record(game, played(S, 8, 4, NS, NS))  # NS 4 + 5 - 3 = 6 < 8: -8; EW 4 → 3, 13
    assert list(
        Hand.objects.filter(game=game).order_by("number").values_list("ns_score", "ew_score")
    ) == [(11, -1), (11, 9), (3, 13)]

    # Hand 1 was really: NS took 3 tricks and the 3♠ (0 points, failed: -7); EW 5 + 5♥ = 10.
    corrected = played(N, 7, 3, EW, NS)
    services.hand_correct(
        game_id=game.id,
        number=1,
        entry=corrected,
        by=user,
        reason="Sheet misread",
        expected_version=4,
    )
    rows = list(Hand.objects.filter(game=game).order_by("number"))
    assert [(h.ns_points, h.ew_points, h.made) for h in rows] == [
        (0, 10, False),
        (0, 10, True),
        (6, 4, False),
    ]
    assert [(h.ns_change, h.ew_change) for h in rows] == [(-7, 10), (0, 10), (-8, 4)]
    assert [(h.ns_score, h.ew_score) for h in rows] == [(-7, 10), (-7, 20), (-15, 24)]
    assert (rows[0].bidding_team_tricks, rows[0].five_hearts, rows[0].three_spades) == (
        3,
        "ew",
        "ns",
    )
    game.refresh_from_db()
    assert (game.ns_score, game.ew_score, game.hand_count, game.version) == (-15, 24, 3, 5)
    change = GameChange.objects.get(game=game, action="correct")
    assert (change.hand_number, change.by, change.reason) == (1, user, "Sheet misread")
    assert change.before is not None and change.after is not None
    assert (change.before["bidding_team_tricks"], change.after["bidding_team_tricks"]) == (6, 3)
    # The time it was completed at the table is kept when the correction gives none.
    assert change.after["completed_at"] == change.before["completed_at"] is not None


def test_a_correction_that_makes_a_later_hand_impossible_changes_nothing() -> None:
    # Standard rules: after a misdeal the same dealer deals again.
    game = start_game(preset_name="standard")
    record(game, played(N, 6, 5, NS, EW))  # dealer North
    record(game, played(E, 6, 4, EW, NS, forced=True))  # dealer East, forced to bid 6
    before = snapshot(game)
    with pytest.raises(HandNotAccepted) as exc:
        services.hand_correct(game_id=game.id, number=1, entry=misdeal())
    assert exc.value.message == (
        "With this correction hand 2 would no longer be possible: "
        "A forced bid is the dealer's: North deals this hand, not East."
    )
    assert codes(exc) == ["forced_not_dealer"]
    assert snapshot(game) == before


def test_a_correction_that_ends_the_game_earlier_is_refused_naming_the_next_hand() -> None:
    game = start_game(preset_name="tournament")
    for entry, *_ in TO_A_WIN[:5]:
        record(game, entry)  # NS 47 (bid out), EW 12
    # W bids 7 ♠, EW 5 tricks + both cards = 7, made → 19; bid-out NS adds nothing → 47.
    record(game, played(W, 7, 5, EW, EW, trump=Suit.SPADES))
    before = snapshot(game)
    assert (before["game"]["ns_score"], before["game"]["ew_score"]) == (47, 19)
    # Had NS stolen the five in hand 5 (3 + 5 = 8 → 55), the game would have ended there.
    with pytest.raises(HandNotAccepted) as exc:
        services.hand_correct(
            game_id=game.id, number=5, entry=played(E, 7, 5, NS, EW, trump=Suit.DIAMONDS)
        )
    assert exc.value.message == (
        "With this correction hand 6 would no longer be possible: "
        "This game is over: North–South won."
    )
    assert codes(exc) == ["game_over"]
    assert snapshot(game) == before


def test_a_correction_the_rules_refuse_names_the_hand() -> None:
    game = start_game(preset_name="tournament")
    record(game, played(N, 7, 6, NS, EW))
    record(game, played(E, 7, 5, EW, NS))
    before = snapshot(game)
    with pytest.raises(HandNotAccepted) as exc:
        services.hand_correct(game_id=game.id, number=1, entry=played(N, 3, 6, NS, EW))
    assert exc.value.message == "Hand 1: Bid 3 is below this game's minimum of 7."
    assert exc.value.field_errors == {"bid": ["Bid 3 is below this game's minimum of 7."]}
    assert snapshot(game) == before


def test_correct_an_unknown_hand_or_against_an_old_version() -> None:
    game = start_game()
    record(game, played(N, 7, 6, NS, EW))
    with pytest.raises(NotFound, match=f"Game {game.id} has no hand 2."):
        services.hand_correct(game_id=game.id, number=2, entry=played(E, 7, 5, EW, NS))
    before = snapshot(game)
    with pytest.raises(StaleGame, match="The game changed since you opened it"):
        services.hand_correct(
            game_id=game.id, number=1, entry=played(N, 7, 5, NS, EW), expected_version=1
        )
    assert snapshot(game) == before


# --- Forfeit -----------------------------------------------------------------------------------


def test_forfeit_ends_the_game_for_the_other_team() -> None:
    game = start_game()
    user = make_user()
    record(game, played(N, 7, 6, NS, EW))  # NS 11, EW -1
    services.game_forfeit(game_id=game.id, forfeited_by=NS, by=user, reason="Left early")
    game.refresh_from_db()
    assert (game.status, game.winner, game.end_reason, game.forfeited_by) == (
        "finished",
        "ew",
        "forfeit",
        "ns",
    )
    assert (game.ns_score, game.ew_score) == (11, -1)  # the scores stay as played
    assert game.ended_at is not None
    change = GameChange.objects.get(game=game, action="forfeit")
    assert (change.by, change.reason) == (user, "Left early")

    with pytest.raises(HandNotAccepted) as exc:
        record(game, played(E, 7, 5, EW, NS))
    assert codes(exc) == ["game_over"]
    with pytest.raises(InvalidInput, match="already over; a forfeit cannot change its result"):
        services.game_forfeit(game_id=game.id, forfeited_by=EW)


# --- The audit trail ---------------------------------------------------------------------------


def test_every_change_is_kept_with_who_when_before_and_after() -> None:
    game = start_game(preset_name="tournament")
    keeper, organiser = make_user(), make_user()
    first, second = played(N, 7, 6, NS, EW), played(E, 7, 5, EW, NS)
    record(game, first, by=keeper)
    record(game, second, by=keeper)
    services.hand_undo(game_id=game.id, by=keeper)
    services.hand_correct(game_id=game.id, number=1, entry=played(N, 8, 6, NS, EW), by=organiser)
    services.game_call_time(game_id=game.id, by=organiser)
    services.game_forfeit(game_id=game.id, forfeited_by=EW, by=organiser, reason="No show")

    rows = list(GameChange.objects.filter(game=game).order_by("id"))
    assert [(c.action, c.hand_number, c.by) for c in rows] == [
        ("record", 1, keeper),
        ("record", 2, keeper),
        ("undo", 2, keeper),
        ("correct", 1, organiser),
        ("call_time", None, organiser),
        ("forfeit", None, organiser),
    ]
    assert all(c.at is not None for c in rows)
    assert [c.at for c in rows] == sorted(c.at for c in rows)
    record1, record2, undo, correct, _, forfeit = rows
    assert record1.before is None and record1.after is not None
    assert (
        record1.after["bidder"],
        record1.after["bid"],
        record1.after["bidding_team_tricks"],
    ) == (
        0,
        7,
        6,
    )
    assert undo.before == record2.after and undo.after is None
    assert correct.before is not None and correct.after is not None
    assert (correct.before["bid"], correct.after["bid"]) == (7, 8)
    assert forfeit.reason == "No show"


def test_a_refused_write_leaves_no_audit_row() -> None:
    game = start_game()
    with pytest.raises(HandNotAccepted):
        record(game, played(N, 4, 6, NS, EW))
    assert not GameChange.objects.filter(game=game).exists()
