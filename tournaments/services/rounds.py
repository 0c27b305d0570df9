"""Running a round: start every clock at once, pause, resume and add minutes for one game or
the whole round, and swap teams or tables before the start."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from kaiser_club.errors import InvalidInput
from kaiser_club.sentences import N_
from scoring import services as scoring
from scoring.choices import GameStatus
from scoring.models import Game

from ..choices import EventStatus, ResultKind, RoundStatus
from ..models import Entry, Pairing, Round
from .games import drop_games, event_rules, game_for
from .locks import lock_event


def _round(round_: Round) -> Round:
    lock_event(round_.event_id)
    return Round.objects.select_for_update().select_related("event").get(id=round_.id)


def _clocked_games(round_: Round) -> list[Game]:
    """The round's games with a clock that can still change."""
    return list(
        Game.objects.filter(
            pairing__round=round_,
            status=GameStatus.IN_PROGRESS,
            time_limit_minutes__isnull=False,
            started_at__isnull=False,
            time_called_at__isnull=True,
        ).order_by("id")
    )


@transaction.atomic
def round_start_unchecked(*, round_: Round, by: User | None = None) -> Round:
    """Starts the clock of every game of the round at the same instant (games marked as played
    late wait for their own start)."""
    round_ = _round(round_)
    if round_.started:
        raise InvalidInput(N_("%(round_)s has already started.", round_=round_.said))
    now = timezone.now()
    games = Game.objects.filter(
        pairing__round=round_,
        pairing__played_late=False,
        status=GameStatus.IN_PROGRESS,
        started_at__isnull=True,
        time_limit_minutes__isnull=False,
    ).values_list("id", flat=True)
    for game_id in games:
        scoring.clock_start(game_id=game_id, at=now)
    pending = Pairing.objects.filter(round=round_, result=ResultKind.PENDING, cancelled=False)
    round_.status = RoundStatus.STARTED if pending.exists() else RoundStatus.FINISHED
    round_.started_at = now
    round_.save(update_fields=["status", "started_at"])
    event = round_.event
    if event.status == EventStatus.DRAFT:
        event.status = EventStatus.RUNNING
        event.save(update_fields=["status"])
    return round_


@transaction.atomic
def round_start_waiting_unchecked(*, round_: Round) -> int:
    """In a started round, starts the clocks of games created since (a bracket's next games)
    and not marked as late. Returns how many started."""
    round_ = _round(round_)
    if not round_.started:
        raise InvalidInput(
            N_("%(round_)s has not started yet; start the round.", round_=round_.said)
        )
    now = timezone.now()
    ids = list(
        Game.objects.filter(
            pairing__round=round_,
            pairing__played_late=False,
            status=GameStatus.IN_PROGRESS,
            started_at__isnull=True,
            time_limit_minutes__isnull=False,
        ).values_list("id", flat=True)
    )
    for game_id in ids:
        scoring.clock_start(game_id=game_id, at=now)
    return len(ids)


@transaction.atomic
def round_pause_unchecked(*, round_: Round) -> int:
    """Pauses every running clock of the round; returns how many."""
    games = [g for g in _clocked_games(_round(round_)) if g.paused_at is None]
    for game in games:
        scoring.clock_pause(game_id=game.id)
    return len(games)


@transaction.atomic
def round_resume_unchecked(*, round_: Round) -> int:
    games = [g for g in _clocked_games(_round(round_)) if g.paused_at is not None]
    for game in games:
        scoring.clock_resume(game_id=game.id)
    return len(games)


def _check_minutes(minutes: int) -> None:
    if not -60 <= minutes <= 120 or minutes == 0:
        message = N_("Add between 1 and 120 minutes (or take back up to 60).")
        raise InvalidInput(message, field_errors={"minutes": [message]})


@transaction.atomic
def round_add_minutes_unchecked(*, round_: Round, minutes: int) -> int:
    _check_minutes(minutes)
    games = _clocked_games(_round(round_))
    for game in games:
        scoring.clock_add_minutes(game_id=game.id, minutes=minutes)
    return len(games)


def _game_of(pairing: Pairing) -> Game:
    if pairing.game_id is None:
        raise InvalidInput(N_("This pairing has no game yet."))
    game = Game.objects.get(id=pairing.game_id)
    return game


@transaction.atomic
def pairing_clock_unchecked(*, pairing: Pairing, action: str, minutes: int = 0) -> Game:
    """One game's clock: "start", "pause", "resume" or "add" (``minutes``)."""
    game = _game_of(pairing)
    if action == "start":
        return scoring.clock_start(game_id=game.id)
    if action == "pause":
        return scoring.clock_pause(game_id=game.id)
    if action == "resume":
        return scoring.clock_resume(game_id=game.id)
    if action == "add":
        _check_minutes(minutes)
        return scoring.clock_add_minutes(game_id=game.id, minutes=minutes)
    raise InvalidInput(
        N_("Unknown clock action %(action)r: start, pause, resume or add.", action=action)
    )


def _unstarted(round_: Round) -> None:
    if round_.started:
        raise InvalidInput(
            N_(
                "%(round_)s has started; its teams and tables can no longer change.",
                round_=round_.said,
            )
        )


@transaction.atomic
def round_swap_tables_unchecked(*, round_: Round, first: Pairing, second: Pairing) -> None:
    """Two games of a round that has not started exchange tables."""
    round_ = _round(round_)
    _unstarted(round_)
    a, b = (Pairing.objects.select_for_update().get(id=p.id) for p in (first, second))
    if a.round_id != round_.id or b.round_id != round_.id or a.id == b.id:
        raise InvalidInput(N_("Choose two different games of this round."))
    if a.table_id is None or b.table_id is None:
        raise InvalidInput(N_("A bye has no table to swap."))
    table_a, table_b = a.table_id, b.table_id
    Pairing.objects.filter(id=a.id).update(table=None)
    Pairing.objects.filter(id=b.id).update(table_id=table_a)
    Pairing.objects.filter(id=a.id).update(table_id=table_b)


@transaction.atomic
def round_swap_teams_unchecked(
    *, round_: Round, first: Entry, second: Entry, by: User | None = None
) -> None:
    """Two teams of a round that has not started exchange places (their games are created
    again; two teams of one game exchange seats)."""
    round_ = _round(round_)
    _unstarted(round_)
    if first.id == second.id:
        raise InvalidInput(N_("Choose two different teams."))
    rows = list(
        Pairing.objects.select_for_update(of=("self",))
        .select_related(
            "home__team__player_one",
            "home__team__player_two",
            "away__team__player_one",
            "away__team__player_two",
            "game",
        )
        .filter(round=round_)
        .filter(Q(home__in=[first.id, second.id]) | Q(away__in=[first.id, second.id]))
    )
    places: dict[int, tuple[Pairing, str]] = {}
    for row in rows:
        for side in ("home", "away"):
            entry_id = getattr(row, f"{side}_id")
            if entry_id in (first.id, second.id):
                places[entry_id] = (row, side)
    missing = [e for e in (first, second) if e.id not in places]
    if missing:
        raise InvalidInput(
            N_("%(entry)s does not play in %(round_)s.", entry=missing[0].name, round_=round_.said)
        )
    if any(row.decided and row.result != ResultKind.BYE for row in rows):
        raise InvalidInput(N_("A game of these teams already has a result."))
    drop_games([row.game for row in rows], why=N_("These teams cannot be swapped"))
    (row_a, side_a), (row_b, side_b) = places[first.id], places[second.id]
    entry_a, entry_b = getattr(row_a, side_a), getattr(row_b, side_b)
    setattr(row_a, side_a, entry_b)
    setattr(row_b, side_b, entry_a)
    event = round_.event
    rules = event_rules(event)
    for row in {r.id: r for r in (row_a, row_b)}.values():
        row.home_team = row.home.team if row.home else None
        row.away_team = row.away.team if row.away else None
        row.game = None
        if row.result != ResultKind.BYE:
            row.game = game_for(event=event, pairing=row, rules=rules, by=by)
        row.save()
