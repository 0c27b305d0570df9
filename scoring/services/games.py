"""Starting a game, and ending one other than by its hands: time called, forfeit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, NotAllowed
from kaiser_club.models import Club, Player
from kaiser_club.roles import Role
from kaiser_club.sentences import N_
from kaiser_club.sentences import of as said_by

from ..choices import GameStatus, HandAction, HandStatus
from ..errors import HandNotAccepted
from ..models import Game, Hand, Team
from ..rows_and_rules import hand_to_entry
from ..rules import (
    HandRefused,
    RuleSet,
    RuleSetInvalid,
    Seat,
    Side,
    UnknownPreset,
    new_game,
    preset,
)
from ..scope import require_club_team
from .state import (
    audit,
    current_state,
    first_broken_hand,
    guard_result_change,
    lock_game,
    replay_entries,
    save_state,
    stored_entries,
    write_hand_results,
)
from .verification import drop_pending_hand


def rules_from(*, preset_name: str, changes: Mapping[str, Any] | None = None) -> RuleSet:
    """A preset's rule set with the organiser's changes, or a clear refusal."""
    try:
        rules = preset(preset_name)
    except UnknownPreset as exc:
        said = said_by(exc)  # the refusal, in the reader's language where it is shown
        raise InvalidInput(said, field_errors={"preset": [said]}) from None
    if not changes:
        return rules
    try:
        return RuleSet.from_dict({**rules.to_dict(), **changes})
    except RuleSetInvalid as exc:
        raise InvalidInput(said_by(exc), field_errors={"rules": list(exc.refusals)}) from None


def _seating(
    ns_team: Team, ew_team: Team, seats: Mapping[Seat, Player] | None
) -> dict[Seat, Player]:
    if seats is None:
        return {
            Seat.NORTH: ns_team.player_one,
            Seat.SOUTH: ns_team.player_two,
            Seat.EAST: ew_team.player_one,
            Seat.WEST: ew_team.player_two,
        }
    if set(seats) != set(Seat):
        raise InvalidInput(N_("Every seat needs a player: north, east, south and west."))
    if {seats[Seat.NORTH].id, seats[Seat.SOUTH].id} != ns_team.player_ids:
        raise InvalidInput(
            N_("North and south must be the two players of %(ns_team)s.", ns_team=str(ns_team))
        )
    if {seats[Seat.EAST].id, seats[Seat.WEST].id} != ew_team.player_ids:
        raise InvalidInput(
            N_("East and west must be the two players of %(ew_team)s.", ew_team=str(ew_team))
        )
    return dict(seats)


def _new_game_row(
    *,
    club: Club,
    ns_team: Team,
    ew_team: Team,
    first_dealer: Seat,
    rules: RuleSet,
    preset_name: str,
    seats: Mapping[Seat, Player] | None = None,
    from_paper: bool = False,
    start_clock: bool = True,
    by: User | None = None,
) -> Game:
    """A checked, unsaved game row: the one place that says what a new game is."""
    if ns_team.id == ew_team.id:
        raise InvalidInput(N_("A game needs two different teams."))
    if ns_team.player_ids & ew_team.player_ids:
        raise InvalidInput(
            N_(
                "%(ns_team)s and %(ew_team)s share a player; a game needs four different players.",
                ns_team=str(ns_team),
                ew_team=str(ew_team),
            )
        )
    seating = _seating(ns_team, ew_team, seats)
    state = new_game(rules, first_dealer)
    limit = None if from_paper else rules.time_limit_minutes
    return Game(
        club=club,
        ns_team=ns_team,
        ew_team=ew_team,
        north=seating[Seat.NORTH],
        east=seating[Seat.EAST],
        south=seating[Seat.SOUTH],
        west=seating[Seat.WEST],
        first_dealer=int(first_dealer),
        preset=preset_name,
        rules=rules.to_dict(),
        from_paper=from_paper,
        time_limit_minutes=limit,
        started_at=timezone.now() if (limit and start_clock) else None,
        dealer=int(state.dealer),
        target=state.target,
        bid_out_line=state.bid_out_line,
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )


@transaction.atomic
def game_start(
    *,
    club: Club,
    ns_team: Team,
    ew_team: Team,
    first_dealer: Seat,
    rules: RuleSet,
    preset_name: str,
    seats: Mapping[Seat, Player] | None = None,
    from_paper: bool = False,
    start_clock: bool = True,
    by: User | None = None,
) -> Game:
    game = _new_game_row(
        club=club,
        ns_team=ns_team,
        ew_team=ew_team,
        first_dealer=first_dealer,
        rules=rules,
        preset_name=preset_name,
        seats=seats,
        from_paper=from_paper,
        start_clock=start_clock,
        by=by,
    )
    game.save()
    return game


@transaction.atomic
def game_create(
    *,
    actor: Actor,
    club: Club,
    ns_team: Team,
    ew_team: Team,
    first_dealer: Seat,
    preset_name: str = "",
    rule_changes: Mapping[str, Any] | None = None,
    seats: Mapping[Seat, Player] | None = None,
    from_paper: bool = False,
) -> Game:
    """A game of two of the club's teams, started by one of its organisers."""
    if not actor.has_role(club_id=club.id, at_least=Role.ORGANISER):
        raise NotAllowed(
            gettext("Only organisers of %(club)s can start its games.") % {"club": club.name}
        )
    require_club_team(club=club, team=ns_team, field="ns_team")
    require_club_team(club=club, team=ew_team, field="ew_team")
    preset_name = preset_name or club.default_preset
    return game_start(
        club=club,
        ns_team=ns_team,
        ew_team=ew_team,
        seats=seats,
        first_dealer=first_dealer,
        rules=rules_from(preset_name=preset_name, changes=rule_changes),
        preset_name=preset_name,
        from_paper=from_paper,
        by=actor.by,
    )


def games_start_many(
    *,
    club: Club,
    pairs: Sequence[tuple[Team, Team, Seat]],
    rules: RuleSet,
    preset_name: str,
    start_clock: bool = True,
    by: User | None = None,
) -> list[Game]:
    """Starts many games at once, each checked as ``game_start`` checks it (``pairs``: north-
    south team, east-west team, first dealer), written with one insert: a round of a large
    event has hundreds. The caller's transaction holds them; nothing to lock, they are new."""
    games = [
        _new_game_row(
            club=club,
            ns_team=ns,
            ew_team=ew,
            first_dealer=dealer,
            rules=rules,
            preset_name=preset_name,
            start_clock=start_clock,
            by=by,
        )
        for ns, ew, dealer in pairs
    ]
    return Game.objects.bulk_create(games)


@transaction.atomic
def game_call_time(*, game_id: int, at: datetime | None = None, by: User | None = None) -> Game:
    """Calls time now (or at ``at``, never later than now). Calling it twice changes nothing."""
    game = lock_game(game_id)
    if game.time_called_at is not None or game.status == GameStatus.FINISHED:
        return game
    if game.from_paper:
        raise InvalidInput(N_("This game was entered from a paper score sheet; it has no clock."))
    now = timezone.now()
    game.time_called_at = min(at or now, now)
    # Called late (``at`` in the past), the hands completed since are replayed as after time:
    # their rows are rewritten, and a hand the call makes one too many refuses the call.
    hands = stored_entries(game)
    entries = [hand_to_entry(h) for h in hands]
    try:
        state = replay_entries(game, entries)
    except HandRefused as exc:
        broken = first_broken_hand(game, entries)
        raise HandNotAccepted.from_refused(
            exc,
            prefix=N_(
                "With time called then, hand %(number)s would no longer be possible: ",
                number=broken,
            ),
        ) from None
    audit(game, HandAction.CALL_TIME, by=by, by_label="" if by else "clock")
    write_hand_results(hands, state)
    save_state(game, state)
    return game


@transaction.atomic
def game_seat_player(*, game_id: int, seat: Seat, player: Player) -> Game:
    """Puts ``player`` in ``seat`` for this game only: a substitute. The event that asks keeps
    the record of who replaced whom; a finished game keeps its players."""
    game = lock_game(game_id)
    if game.status == GameStatus.FINISHED:
        raise InvalidInput(N_("This game is over; its players can no longer change."))
    seat_fields = {Seat.NORTH: "north", Seat.EAST: "east", Seat.SOUTH: "south", Seat.WEST: "west"}
    others = {getattr(game, f"{name}_id") for s, name in seat_fields.items() if s != seat}
    if player.id in others:
        raise InvalidInput(
            N_("%(player)s already plays in this game, in another seat.", player=player.name)
        )
    setattr(game, seat_fields[seat], player)
    game.version += 1
    game.save(update_fields=[seat_fields[seat], "version", "updated_at"])
    return game


@transaction.atomic
def game_forfeit(
    *, game_id: int, forfeited_by: Side, by: User | None = None, reason: str = ""
) -> Game:
    game = lock_game(game_id)
    if game.status == GameStatus.FINISHED:
        raise InvalidInput(N_("This game is already over; a forfeit cannot change its result."))
    game.forfeited_by = forfeited_by.value
    _drop_pending_hand(game, by=by)
    audit(game, HandAction.FORFEIT, by=by, reason=reason)
    save_state(game, current_state(game))
    return game


def game_forfeit_undo(*, game_id: int, by: User | None = None, reason: str = "") -> Game:
    """Takes a forfeit back: the game goes on where it stood, its hands kept. A change to the
    winner of a finished game may be refused (``state.guard_result_change``: an event's winner
    who already played on)."""
    game = lock_game(game_id)
    if not game.forfeited_by:
        raise InvalidInput(N_("This game was not forfeited: there is no forfeit to take back."))
    game.forfeited_by = ""
    state = current_state(game)
    guard_result_change(game, state)
    audit(game, HandAction.FORFEIT_UNDO, by=by, reason=reason)
    save_state(game, state)
    return game


def _drop_pending_hand(game: Game, *, by: User | None) -> None:
    """A hand still waiting for confirmation can never count once the game is forfeited."""
    pending = Hand.with_pending.filter(game=game, status=HandStatus.PENDING).first()
    if pending is not None:
        drop_pending_hand(
            game, pending, by=by, reason="The game was forfeited before this hand was confirmed."
        )
