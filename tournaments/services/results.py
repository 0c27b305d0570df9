"""Results: from a finished game to the pairing (and on through the bracket), and what the
organiser records by hand: a forfeit, an adjusted result, a bye's points, a game played late,
a roll back of later bracket games.

Every path ends in ``apply_result``, under the event's row lock, so two games that finish at
once and feed the same next match cannot both miss that it is ready.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Avg, F, Q
from django.db.models.functions import Greatest, Least

from kaiser_club.errors import Conflict, InvalidInput
from kaiser_club.sentences import N_, Np_, Sentence, joined, render
from kaiser_club.text import clean_reason
from scoring import services as scoring
from scoring.choices import EndReasonChoice, GameStatus
from scoring.models import Game
from scoring.rules import Side

from ..choices import EventStatus, Format, ResultKind, RoundStatus, SlotSide
from ..game_result import pairing_result
from ..models import Entry, Event, Pairing, Rollback, Round
from .brackets import (
    LoadedBracket,
    carry_result,
    clear_after,
    later_activity,
    load_bracket,
    rows_after,
)
from .games import drop_games, game_touched
from .locks import lock_event

Outcome = tuple[str, str, int | None, int | None]  # kind, winner side, home points, away points


def outcome_of_game(event: Event, game: Game) -> Outcome:
    if game.status != GameStatus.FINISHED or not game.winner:
        return (ResultKind.PENDING, "", None, None)
    side = SlotSide.HOME if game.winner == Side.NS else SlotSide.AWAY
    if game.end_reason == EndReasonChoice.FORFEIT:
        return (ResultKind.FORFEIT, side, *forfeit_points(event, side))
    return (ResultKind.PLAYED, side, game.ns_score, game.ew_score)


def forfeit_points(event: Event, winner_side: str) -> tuple[int, int]:
    win, lose = event.forfeit_winner_score, event.forfeit_loser_score
    return (win, lose) if winner_side == SlotSide.HOME else (lose, win)


def outcome_of_row(row: Pairing) -> Outcome:
    return (row.result, row.winner_side, row.home_points, row.away_points)


# --- from the games -------------------------------------------------------------------------


@transaction.atomic
def game_result_sync(*, game_id: int, by: User | None = None) -> Pairing | None:
    """Brings the pairing of a game in line with the game: its result, the bracket after it,
    the round's byes and status. Idempotent: called after every change to a game.

    The pairing and the game are read only once the event's lock is held: read before it, they
    may be what another result (or an undo) has changed by the time the lock is ours."""
    event_id = Pairing.objects.filter(game_id=game_id).values_list("event_id", flat=True).first()
    if event_id is None:
        return None  # a game of no event
    event = lock_event(event_id)
    row = Pairing.objects.filter(game_id=game_id).select_related("game").first()
    if row is None or row.game is None:
        return None  # taken back (a roll back) while this waited for the lock
    if row.result == ResultKind.ADJUSTED:
        return row  # the organiser's word stands over the game's
    outcome = outcome_of_game(event, row.game)
    if outcome == outcome_of_row(row) and (row.advanced or not row.decided or not row.code):
        return row
    return apply_result(event=event, row=row, outcome=outcome, by=by)


def apply_result(
    *,
    event: Event,
    row: Pairing,
    outcome: Outcome,
    reason: str = "",
    by: User | None = None,
    rollback: bool = False,
    points_by_hand: bool = False,
) -> Pairing:
    """Stores a result and carries it on. Caller holds the event lock."""
    loaded: LoadedBracket | None = None
    if row.match_number is not None:
        loaded = load_bracket(event, lock=True)
        row = loaded.row_of(row)
        changes_winner = outcome[0] == ResultKind.PENDING or outcome[1] != row.winner_side
        if row.advanced and changes_winner:
            undo_later(event=event, loaded=loaded, row=row, by=by, reason=reason, allowed=rollback)
    kind, side, home_points, away_points = outcome
    row.result, row.winner_side = kind, side
    row.home_points, row.away_points = home_points, away_points
    row.reason = clean_reason(reason)
    row.points_set_by_organiser = points_by_hand
    row.save(
        update_fields=[
            "result",
            "winner_side",
            "home_points",
            "away_points",
            "reason",
            "points_set_by_organiser",
        ]
    )
    if loaded is not None and row.decided:
        carry_on(event=event, loaded=loaded, row=row, by=by)
    if loaded is None:
        refresh_bye_points(round_id=row.round_id)
    refresh_status(event=event, round_ids=[row.round_id])
    return row


def undo_later(
    *,
    event: Event,
    loaded: LoadedBracket,
    row: Pairing,
    by: User | None,
    reason: str = "",
    allowed: bool = False,
) -> list[dict[str, Any]]:
    """Takes back what ``row``'s result carried forward. Refused, naming the later games,
    when something has happened in them and the organiser has not chosen to roll back.
    Games nothing happened in are deleted; the others leave the event but stay in scoring."""
    active = later_activity(loaded, row)
    if active and not allowed:
        raise Conflict(played_on_message(row, active), extra={"later_games": describe(active)})
    later = rows_after(loaded, row)
    record = describe(later)
    games = [p.game for p in later if p.game is not None]
    clear_after(loaded, row)
    drop_games([g for g in games if not game_touched(g)], why=N_("Roll back"))
    if active:
        Rollback.objects.create(
            event=event,
            pairing=row,
            undone=record,
            reason=clean_reason(reason),
            by=by if getattr(by, "is_authenticated", False) else None,
        )
    return record


def played_on_message(row: Pairing, active: Sequence[Pairing]) -> Sentence:
    return Np_(
        "Game %(game)s cannot change its winner: the teams have already played on in "
        "%(names)s. Roll that game back first, after checking what it undoes, then change the "
        "result.",
        "Game %(game)s cannot change its winner: the teams have already played on in "
        "%(names)s. Roll those games back first, after checking what it undoes, then change the "
        "result.",
        count=len(active),
        game=row.code,
        names=joined([_name(p) for p in active]),
    )


def _name(row: Pairing) -> Sentence:
    game = row.game
    result = pairing_result(row)  # the game's result as every surface shows it
    state: Sentence
    if game is not None and game.status == GameStatus.FINISHED:
        ns, ew = game.ns_score, game.ew_score
        if result is not None and result.ns_score is not None and result.ew_score is not None:
            ns, ew = result.ns_score, result.ew_score  # the event's: a forfeit's 52–0
        state = N_("finished %(ns)s–%(ew)s", ns=ns, ew=ew)
    elif game is not None and game.hand_count:
        state = Np_(
            "in progress, %(ns)s–%(ew)s after %(count)s hand",
            "in progress, %(ns)s–%(ew)s after %(count)s hands",
            count=game.hand_count,
            ns=game.ns_score,
            ew=game.ew_score,
        )
    elif row.decided:
        state = N_("%(result)s result", result=row.get_result_display().lower())
    else:
        state = N_("clock started")
    if row.table:
        return N_(
            "%(code)s at table %(table)s (%(state)s)",
            code=row.code,
            table=row.table.number,
            state=state,
        )
    return N_("%(code)s (%(state)s)", code=row.code, state=state)


def describe(rows: Sequence[Pairing]) -> list[dict[str, Any]]:
    out = []
    for row in rows:
        game = row.game
        out.append(
            {
                "pairing": row.id,
                "code": row.code,
                "table": row.table.number if row.table else None,
                "home": str(row.home) if row.home else None,
                "away": str(row.away) if row.away else None,
                "game": game.id if game else None,
                "hands": game.hand_count if game else 0,
                "score": [game.ns_score, game.ew_score] if game else None,
                "result": row.result,
                "description": render(_name(row)),  # in the language of the request
            }
        )
    return out


def rollback_preview(*, pairing: Pairing) -> list[dict[str, Any]]:
    """What rolling back the games after ``pairing`` would undo: every later bracket game that
    has a game or a result, each described for a person."""
    if pairing.match_number is None:
        return []
    loaded = load_bracket(pairing.event)
    return describe(rows_after(loaded, loaded.row_of(pairing)))


@transaction.atomic
def pairing_rollback_unchecked(
    *, pairing: Pairing, by: User | None = None, reason: str = ""
) -> list[dict[str, Any]]:
    """Rolls back every later game fed by ``pairing``: their games leave the event (kept in
    the scoring history; untouched ones are deleted), their slots empty, and the pairing's
    current result is carried forward again into fresh games."""
    if pairing.match_number is None:
        raise InvalidInput(N_("Only a bracket game has later games to roll back."))
    event = lock_event(pairing.event_id)
    loaded = load_bracket(event, lock=True)
    row = loaded.row_of(pairing)
    undone = undo_later(event=event, loaded=loaded, row=row, by=by, reason=reason, allowed=True)
    if row.decided:
        carry_on(event=event, loaded=loaded, row=row, by=by)
    refresh_status(event=event, round_ids=[row.round_id])
    return undone


def lock_event_of_game(*, game_id: int) -> None:
    """Receiver of scoring's game_correcting: the event of a game about to be corrected is
    locked before the game, as every service of an event takes them, so that a roll back the
    correction makes (``refuse_if_played_on``) never waits on a lock held by one that waits on
    the game."""
    event_id = Pairing.objects.filter(game_id=game_id).values_list("event_id", flat=True).first()
    if event_id is not None:
        lock_event(event_id)


def refuse_if_played_on(*, game_id: int, over: bool, winner: str, roll_back: bool) -> None:
    """Receiver of scoring's game_result_changing: a finished game's winner is about to change
    (a correction or an undo). Refused when the winner has played on, unless ``roll_back``:
    the organiser's correction asked that the later games be rolled back."""
    row = Pairing.objects.filter(game_id=game_id, match_number__isnull=False).first()
    if row is None or not row.advanced or row.result == ResultKind.ADJUSTED:
        return
    # Only a roll back writes, and the correction that asks for one took the event's lock
    # before the game's (``lock_event_of_game``); a plain refusal only reads.
    event = lock_event(row.event_id) if roll_back else Event.objects.get(id=row.event_id)
    loaded = load_bracket(event)
    row = loaded.row_of(row)
    active = later_activity(loaded, row)
    if not active:
        return  # the sync after the change takes the untouched later games back
    if not roll_back:
        raise Conflict(played_on_message(row, active), extra={"later_games": describe(active)})
    undo_later(event=event, loaded=loaded, row=row, by=None, allowed=True)


# --- recorded by the organiser --------------------------------------------------------------


def _both_known(row: Pairing) -> None:
    if row.home_team_id is None or row.away_team_id is None:
        raise InvalidInput(
            N_(
                "%(game)s does not have both its teams yet.",
                game=row.code or N_("This game"),
            )
        )


@transaction.atomic
def pairing_forfeit_unchecked(
    *, pairing: Pairing, forfeiting: str, by: User | None = None, reason: str = ""
) -> Pairing:
    """``forfeiting`` ("home" or "away") forfeits: the other team wins by the event's forfeit
    score (52–0 unless the organiser set another)."""
    event = lock_event(pairing.event_id)
    row = Pairing.objects.select_related("game").get(id=pairing.id)
    _both_known(row)
    if forfeiting not in SlotSide.values:
        raise InvalidInput(N_("Say which team forfeits: home or away."))
    if row.decided:
        raise InvalidInput(
            N_(
                "%(game)s already has a result (%(result)s); adjust the result instead.",
                game=_label(row),
                result=row.get_result_display(),
            )
        )
    winner = SlotSide.AWAY if forfeiting == SlotSide.HOME else SlotSide.HOME
    if row.game is not None:
        if row.game.status == GameStatus.FINISHED:
            raise InvalidInput(N_("%(game)s is over; adjust the result instead.", game=_label(row)))
        scoring.game_forfeit(
            game_id=row.game.id,
            forfeited_by=Side.NS if forfeiting == SlotSide.HOME else Side.EW,
            by=by,
            reason=reason,
        )
        row.game.refresh_from_db()
        return apply_result(event=event, row=row, outcome=outcome_of_game(event, row.game), by=by)
    outcome = (ResultKind.FORFEIT, winner, *forfeit_points(event, winner))
    return apply_result(event=event, row=row, outcome=outcome, reason=reason, by=by)


@transaction.atomic
def pairing_forfeit_undo_unchecked(
    *, pairing: Pairing, by: User | None = None, reason: str = ""
) -> Pairing:
    """Takes a forfeit back while nothing after it depends on it: its game goes on where it
    stood (its hands kept), or the pairing waits for its result again. Refused once a later
    round has been drawn with it counted, or once the winner has played on in the bracket."""
    event = lock_event(pairing.event_id)
    row = Pairing.objects.select_related("game", "round").get(id=pairing.id)
    forfeited_game = row.game is not None and bool(row.game.forfeited_by)
    if row.result != ResultKind.FORFEIT and not forfeited_game:
        raise InvalidInput(N_("%(game)s has no forfeit to take back.", game=_label(row)))
    if row.match_number is None:
        later = Round.objects.filter(
            event=event, number__gt=row.round.number, pairings__isnull=False
        ).first()
        if later is not None:
            raise InvalidInput(
                N_(
                    "%(game)s's forfeit counted when %(round_)s was drawn: it can no longer be "
                    "taken back. Adjust the result instead.",
                    game=_label(row),
                    round_=later.said,
                )
            )
    if row.game is not None and forfeited_game:
        scoring.game_forfeit_undo(game_id=row.game.id, by=by, reason=reason)
        row.game.refresh_from_db()
        return apply_result(event=event, row=row, outcome=outcome_of_game(event, row.game), by=by)
    return apply_result(
        event=event, row=row, outcome=(ResultKind.PENDING, "", None, None), reason="", by=by
    )


def carry_on(*, event: Event, loaded: LoadedBracket, row: Pairing, by: User | None) -> None:
    """Carries ``row``'s result on through the bracket, and decides at once each game a
    withdrawn team cannot play (which carries that result on in turn)."""
    for undecided, withdrawn in carry_result(event=event, loaded=loaded, row=row, by=by):
        decide_without_game(event=event, row=undecided, forfeiting=withdrawn, loaded=loaded, by=by)


def decide_without_game(
    *,
    event: Event,
    row: Pairing,
    forfeiting: Sequence[Entry],
    loaded: LoadedBracket | None,
    by: User | None,
) -> None:
    """A game one of whose teams has withdrawn: the other wins by forfeit, without a game.
    (Both withdrawn: the home team is carried on, to forfeit its next game too.)"""
    ids = {e.id for e in forfeiting}
    winner = SlotSide.HOME if row.away_id in ids and row.home_id not in ids else SlotSide.AWAY
    if row.home_id in ids and row.away_id in ids:
        winner = SlotSide.HOME
    outcome = (ResultKind.FORFEIT, winner, *forfeit_points(event, winner))
    apply_result(event=event, row=row, outcome=outcome, reason="Withdrawn", by=by)


@transaction.atomic
def pairing_adjust_unchecked(
    *,
    pairing: Pairing,
    winner: str,
    home_points: int,
    away_points: int,
    reason: str,
    by: User | None = None,
    rollback: bool = False,
) -> Pairing:
    """An adjusted result, with its reason: it stands over the game's own result."""
    reason = clean_reason(reason)
    if not reason:
        raise InvalidInput(
            N_("Give the reason for the adjusted result."),
            field_errors={"reason": [N_("Required.")]},
        )
    if winner not in SlotSide.values:
        raise InvalidInput(N_("Say which team wins: home or away."))
    event = lock_event(pairing.event_id)
    row = Pairing.objects.select_related("game").get(id=pairing.id)
    _both_known(row)
    if row.game is not None and row.game.status != GameStatus.FINISHED and game_touched(row.game):
        raise InvalidInput(
            N_(
                "%(game)s is still being played; let it finish or record a forfeit, then adjust "
                "its result.",
                game=_label(row),
            )
        )
    if (winner == SlotSide.HOME) != (home_points > away_points) and home_points != away_points:
        raise InvalidInput(N_("The winner of an adjusted result needs the higher score, or a tie."))
    outcome = (ResultKind.ADJUSTED, winner, home_points, away_points)
    return apply_result(
        event=event, row=row, outcome=outcome, reason=reason, by=by, rollback=rollback
    )


@transaction.atomic
def pairing_set_bye_points_unchecked(
    *, pairing: Pairing, points_for: int, points_against: int
) -> Pairing:
    """Changes a bye's points (by default the round's average winning and losing scores)."""
    if pairing.result != ResultKind.BYE:
        raise InvalidInput(N_("Only a bye's points can be set this way."))
    pairing.home_points, pairing.away_points = points_for, points_against
    pairing.points_set_by_organiser = True
    pairing.save(update_fields=["home_points", "away_points", "points_set_by_organiser"])
    return pairing


def refresh_bye_points(*, round_id: int) -> None:
    """A bye scores the round's average winning and losing scores (rounded), unless the
    organiser set its points by hand."""
    byes = Pairing.objects.filter(
        round_id=round_id, result=ResultKind.BYE, points_set_by_organiser=False
    )
    if not byes.exists():
        return
    averages = Pairing.objects.filter(round_id=round_id, result=ResultKind.PLAYED).aggregate(
        win=Avg(Greatest(F("home_points"), F("away_points"))),
        lose=Avg(Least(F("home_points"), F("away_points"))),
    )
    win = round(averages["win"]) if averages["win"] is not None else None
    lose = round(averages["lose"]) if averages["lose"] is not None else None
    byes.update(home_points=win, away_points=lose)


@transaction.atomic
def pairing_mark_late_unchecked(*, pairing: Pairing, late: bool = True) -> Pairing:
    """A game to be played after its round: the round's start leaves its clock alone, and the
    next round may be generated without its result (it counts when it ends)."""
    row = Pairing.objects.select_related("game").get(id=pairing.id)
    if row.decided:
        raise InvalidInput(N_("%(game)s already has a result.", game=_label(row)))
    if late and row.game is not None and row.game.started_at is not None:
        raise InvalidInput(
            N_(
                "%(game)s's clock is already running; pause it rather than marking the game as "
                "played late.",
                game=_label(row),
            )
        )
    row.played_late = late
    row.save(update_fields=["played_late"])
    return row


def _label(row: Pairing) -> Sentence:
    if row.code:
        return N_("Game %(code)s", code=row.code)
    if row.table:
        return N_("The game at table %(table)s", table=row.table.number)
    return N_("This game")


# --- statuses -------------------------------------------------------------------------------


def refresh_status(*, event: Event, round_ids: Sequence[int]) -> None:
    """A round is finished when every game has a result (or will not be played); a bracket
    event when every match has, a round-by-round event when its last round has."""
    for round_ in Round.objects.filter(id__in=round_ids):
        pending = Pairing.objects.filter(
            round=round_, result=ResultKind.PENDING, cancelled=False
        ).exists()
        status = round_.status
        if not pending and round_.status == RoundStatus.STARTED:
            status = RoundStatus.FINISHED
        elif pending and round_.status == RoundStatus.FINISHED:
            status = RoundStatus.STARTED
        if status != round_.status:
            round_.status = status
            round_.save(update_fields=["status"])
    open_rows = Pairing.objects.filter(event=event, result=ResultKind.PENDING, cancelled=False)
    finished = not open_rows.exists() and last_round_made(event)
    status = EventStatus.FINISHED if finished else EventStatus.RUNNING
    if event.status != status and (event.status != EventStatus.DRAFT or finished):
        event.status = status
        event.save(update_fields=["status"])


def last_round_made(event: Event) -> bool:
    """Whether the event's last round exists, so that it ends when its last game does: a
    bracket (or a staged event's knockout, which ends it) is made whole; a round robin has as
    many rounds as its schedule of the first round's field, whatever "Rounds" says (blank, or
    another number); Swiss and progressive events play the rounds the organiser set."""
    if event.is_bracket or Pairing.objects.filter(event=event, match_number__isnull=False).exists():
        return True
    made = Round.objects.filter(event=event).count()
    if event.format == Format.ROUND_ROBIN:
        return made > 0 and made >= round_robin_rounds(event)
    if event.staged:
        return False  # the knockout ends it
    return event.rounds is not None and made >= event.rounds


def round_robin_rounds(event: Event) -> int:
    """The rounds of a round robin: every pair of the first round's field meets once (n - 1
    rounds for n teams, n when n is odd and one team sits out each round)."""
    first = Pairing.objects.filter(event=event, round__number=1)
    teams = {
        team
        for pair in first.values_list("home_id", "away_id")
        for team in pair
        if team is not None
    }
    return len(teams) - 1 if len(teams) % 2 == 0 else len(teams)


def resync_missed(*, limit: int = 500) -> int:
    """Finished games whose pairing did not take the result (or a bracket that did not carry
    it on), e.g. after a crash between the two commits. Each is synced again."""
    game_ids = list(
        Pairing.objects.filter(game__isnull=False, game__status=GameStatus.FINISHED)
        .exclude(result=ResultKind.ADJUSTED)
        .filter(
            Q(result=ResultKind.PENDING)
            | Q(match_number__isnull=False, advanced=False, cancelled=False)
        )
        .values_list("game_id", flat=True)[:limit]
    )
    for game_id in game_ids:
        game_result_sync(game_id=game_id)
    return len(game_ids)
