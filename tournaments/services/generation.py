"""Generating rounds and brackets: a Celery job the organiser's page watches.

``generation_request`` writes a ``GenerationJob`` row and queues the task when the transaction
commits; the task calls ``generation_run`` with the job's id, which turns the event's rows into
the pure ``pairing`` module's plain objects, calls the format, and stores what comes back. A
round can be generated again (replaced) until it starts.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from kaiser_club import broker
from kaiser_club.errors import Conflict, InvalidInput, KaiserError
from kaiser_club.sentences import N_, Np_, Sentence
from kaiser_club.sentences import of as said_by

from ..choices import EntryStatus, EventStatus, Format, JobStatus, ResultKind, Seeding
from ..models import Entry, Event, GenerationJob, Pairing, Round
from ..pairing import pools as pools_module
from ..pairing import round_robin as rr
from ..pairing import swiss
from ..pairing.knockout import knockout_bracket, qualifiers
from ..pairing.model import (
    Bye,
    Entrant,
    PairingError,
    PlannedGame,
    PlannedRound,
    PlayedBye,
    PlayedGame,
)
from ..pairing.progressive import ProgressiveRound, SitOut, TableOfFour, progressive_round
from ..standings import event_standings, pool_standings
from .brackets import make_bracket, store_bracket
from .entries import team_for
from .games import drop_games, event_rules, games_for
from .locks import lock_event
from .results import forfeit_points, refresh_bye_points, round_robin_rounds
from .tables import tables_ensure

log = logging.getLogger(__name__)

# Games are started from the entries' teams: load the players with them, not one by one.
TEAM_PLAYERS = ("team__player_one", "team__player_two")


# --- the job --------------------------------------------------------------------------------


@transaction.atomic
def generation_request(*, event: Event, by: User | None = None) -> GenerationJob:
    """Queues the generation of the event's next round (or its bracket, or a new draw of a
    round that has not started). The task runs once this transaction commits. One at a time:
    while a job is queued or running a second request is refused, naming it (the event's
    lock orders requests; the database's one-active-job constraint holds without it)."""
    event = lock_event(event.id)
    running = _job_under_way(event)
    if running is not None:
        raise _already(running)
    if event.status == EventStatus.FINISHED:
        raise InvalidInput(N_("This event is finished; there is nothing left to generate."))
    try:
        with transaction.atomic():
            job = GenerationJob.objects.create(
                event=event, requested_by=by if getattr(by, "is_authenticated", False) else None
            )
    except IntegrityError:  # generationjob_one_active_per_event: another request was first
        running = _job_under_way(event)
        if running is not None:
            raise _already(running) from None
        raise Conflict(
            N_(
                "Another generation of this event was asked for at the same moment; see its result "
                "before asking again."
            )
        ) from None
    transaction.on_commit(lambda: _send(job.id))
    return job


def _send(job_id: int) -> None:
    """Hands the job to a worker, or, with the broker away, runs it here: the organiser gets
    the round (or the sentence saying why there is none) in this answer, not a job queued
    that no worker will ever see, which would refuse every later request as "already
    queued"."""
    try:
        broker.send("tournaments.generate", job_id)
    except broker.Unreachable as exc:
        log.info("Generation job %s run here: the broker is away (%s)", job_id, exc)
        generation_run(job_id=job_id)


def _job_under_way(event: Event) -> GenerationJob | None:
    return GenerationJob.objects.filter(
        event=event, status__in=[JobStatus.QUEUED, JobStatus.RUNNING]
    ).first()


def _already(running: GenerationJob) -> Conflict:
    if running.status == JobStatus.QUEUED:
        return Conflict(N_("A generation is already queued for this event; wait for it to finish."))
    return Conflict(N_("A generation is already running for this event; wait for it to finish."))


def generation_run(*, job_id: int) -> GenerationJob:
    """Runs a queued job once (a repeated delivery of the task finds it taken and stops)."""
    taken = GenerationJob.objects.filter(id=job_id, status=JobStatus.QUEUED).update(
        status=JobStatus.RUNNING, started_at=timezone.now()
    )
    job = GenerationJob.objects.select_related("requested_by").get(id=job_id)
    if not taken:
        return job
    try:
        with transaction.atomic():
            event = lock_event(job.event_id)
            summary, number = generate(event=event, by=job.requested_by)
        job.status, job.round_number = JobStatus.DONE, number
        job.tell(summary=summary)
    except (KaiserError, PairingError) as exc:
        job.status = JobStatus.FAILED
        job.tell(error=said_by(exc))
    except Exception as exc:  # the page must show something, and the worker must go on
        log.exception("Generation job %s failed", job_id)
        job.status = JobStatus.FAILED
        job.tell(
            error=N_(
                "Generation failed unexpectedly (%(kind)s: %(exc)s).",
                kind=type(exc).__name__,
                exc=str(exc),
            )
        )
    job.finished_at = timezone.now()
    job.save(
        update_fields=[
            "status",
            "summary",
            "summary_said",
            "error",
            "error_said",
            "round_number",
            "finished_at",
        ]
    )
    return job


# --- what gets generated --------------------------------------------------------------------


def generate(*, event: Event, by: User | None = None) -> tuple[Sentence, int]:
    """Generates the next step of the event; returns a sentence for the organiser and the
    number of the (first) round made. Caller holds the event lock."""
    fmt = event.format_enum
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    if fmt.is_bracket:
        return _bracket(event, rounds, by)
    if fmt.first_stage is not None and _first_stage_over(event, rounds):
        return _knockout(event, rounds, by)
    stage = fmt.first_stage or fmt  # how the rounds before a knockout are paired
    last = rounds[-1] if rounds else None
    if last is not None and not last.started:
        number = last.number
        delete_rounds([last])
    else:
        number = (last.number + 1) if last else 1
        if last is not None:
            _check_round_over(last)
    if stage == Format.ROUND_ROBIN:
        plan, entries = _round_robin(event, number)
    elif stage == Format.SWISS:
        plan, entries = _swiss(event, number)
    elif stage == Format.POOLS:
        plan, entries, pool_of = _pools(event, number)
        round_ = store_round(
            event=event, number=number, plan=plan, entries=entries, by=by, pool_of=pool_of
        )
        _mark_running(event)
        pools = len(set(pool_of.values()))
        return (
            N_(
                "%(round)s of %(pools)s pools: %(games)s games.",
                round=round_.said,
                pools=pools,
                games=len(plan.pairings),
            ),
            number,
        )
    elif stage == Format.PROGRESSIVE:
        return _progressive(event, number, by)
    else:  # pragma: no cover - every format is handled above
        raise InvalidInput(N_("Generating %(label)s events is not available.", label=fmt.label))
    if event.knockout_size and number == 1:
        _check_knockout_fits(event, teams=len(entries))
    round_ = store_round(event=event, number=number, plan=plan, entries=entries, by=by)
    _mark_running(event)
    games = sum(1 for p in plan.pairings)
    byes = (
        Np_(" and %(count)s bye", " and %(count)s byes", count=len(plan.byes)) if plan.byes else ""
    )
    said = Np_(
        "%(round)s: %(count)s game%(byes)s.",
        "%(round)s: %(count)s games%(byes)s.",
        count=games,
        round=round_.said,
        byes=byes,
    )
    return (said, number)


def _mark_running(event: Event) -> None:
    if event.status == EventStatus.DRAFT:
        event.status = EventStatus.RUNNING
        event.save(update_fields=["status"])


def _check_round_over(last: Round) -> None:
    waiting = list(
        Pairing.objects.filter(
            round=last, result=ResultKind.PENDING, cancelled=False, played_late=False
        ).select_related("table")
    )
    if waiting:
        tables = ", ".join(str(p.table.number) for p in waiting if p.table)
        raise InvalidInput(
            Np_(
                "%(last)s is still being played (table %(tables)s). Record those results, or "
                "mark the games as played late, then generate again.",
                "%(last)s is still being played (tables %(tables)s). Record those results, or "
                "mark the games as played late, then generate again.",
                count=len(waiting),
                last=last.said,
                tables=tables,
            )
        )


def delete_rounds(rounds: Sequence[Round]) -> None:
    """Removes rounds that have not started, with their pairings and untouched games."""
    pairings = Pairing.objects.filter(round__in=rounds).select_related("game")
    drop_games([p.game for p in pairings], why=N_("This round cannot be generated again"))
    Pairing.objects.filter(round__in=rounds).delete()
    Round.objects.filter(id__in=[r.id for r in rounds]).delete()


def eligible_entries(event: Event) -> list[Entry]:
    """The entries to pair: not withdrawn, and checked in when the event asks for it."""
    qs = Entry.objects.filter(event=event).exclude(status=EntryStatus.WITHDRAWN)
    if event.check_in_required:
        qs = qs.filter(status=EntryStatus.CHECKED_IN)
    entries = list(qs.select_related(*TEAM_PLAYERS).order_by("id"))
    if len(entries) < 2:
        said = (
            N_("Pairing needs at least two checked-in entries; this event has %(count)s.")
            if event.check_in_required
            else N_("Pairing needs at least two entries; this event has %(count)s.")
        )
        raise InvalidInput(said.with_params(count=len(entries)))
    return entries


def entrants(event: Event, entries: Sequence[Entry]) -> list[Entrant]:
    """Entries as the pairing module's plain objects, seeded as the event says. Random
    seeding draws the seeds once, at the first round, and keeps them."""
    if event.seeding == Seeding.RANDOM and any(e.seed is None for e in entries):
        order = list(entries)
        random.SystemRandom().shuffle(order)
        Entry.objects.filter(event=event).update(seed=None)
        for seed, entry in enumerate(order, start=1):
            entry.seed = seed
        Entry.objects.bulk_update(order, ["seed"])
    use_seed = event.seeding != Seeding.RATING
    return [
        Entrant(
            id=e.id,
            seed=e.seed if use_seed else None,
            club=e.club_id,
            rating=e.rating,
            name=e.name,
        )
        for e in entries
    ]


def store_round(
    *,
    event: Event,
    number: int,
    plan: PlannedRound,
    entries: dict[int, Entry],
    by: User | None = None,
    label: str = "",
    pool_of: dict[int, int] | None = None,
) -> Round:
    """A round's rows from a plan: tables, pairings, and the games of teams still entered (a
    withdrawn team's game is forfeited without play)."""
    round_ = Round.objects.create(event=event, number=number, label=label)
    tables = tables_ensure(event=event, count=max((p.table for p in plan.pairings), default=0))
    rules = event_rules(event)
    rows = []
    for p in plan.pairings:
        home, away = entries[p.home], entries[p.away]
        row = Pairing(
            event=event,
            round=round_,
            table=tables[p.table],
            home=home,
            away=away,
            home_team=home.team,
            away_team=away.team,
            first_dealer_home=p.first_dealer_home,
            pool=(pool_of or {}).get(home.id),
        )
        gone = {e.id for e in (home, away) if e.status == EntryStatus.WITHDRAWN}
        if gone:
            side = "away" if home.id in gone and away.id not in gone else "home"
            row.result, row.winner_side, row.reason = ResultKind.FORFEIT, side, "Withdrawn"
            row.home_points, row.away_points = forfeit_points(event, side)
        rows.append(row)
    games_for(event=event, pairings=[r for r in rows if not r.decided], rules=rules, by=by)
    for bye in plan.byes:
        entry = entries[bye.team]
        rows.append(
            Pairing(
                event=event,
                round=round_,
                home=entry,
                home_team=entry.team,
                result=ResultKind.BYE,
                winner_side="home",
                pool=(pool_of or {}).get(entry.id),
            )
        )
    Pairing.objects.bulk_create(rows)
    refresh_bye_points(round_id=round_.id)
    return round_


# --- formats --------------------------------------------------------------------------------


def _bracket(event: Event, rounds: list[Round], by: User | None) -> tuple[Sentence, int]:
    if any(r.started for r in rounds):
        raise InvalidInput(
            N_(
                "The bracket is under way: it advances by itself as games end. It can only be "
                "drawn again before its first round starts."
            )
        )
    if rounds:
        delete_rounds(rounds)
    entries = eligible_entries(event)
    bracket = make_bracket(event, entrants(event, entries))
    stored = store_bracket(event=event, bracket=bracket, entries={e.id: e for e in entries}, by=by)
    _mark_running(event)
    byes = (
        Np_(", %(count)s bye", ", %(count)s byes", count=len(bracket.byes)) if bracket.byes else ""
    )
    said = N_(
        "Bracket of %(teams)s teams: %(games)s games in %(rounds)s rounds%(byes)s.",
        teams=len(entries),
        games=bracket.games,
        rounds=len(stored),
        byes=byes,
    )
    return (said, 1)


def _round_robin(event: Event, number: int) -> tuple[PlannedRound, dict[int, Entry]]:
    if number == 1:
        entries = eligible_entries(event)
    else:  # the schedule is fixed by the field of round 1
        first = Pairing.objects.filter(event=event, round__number=1)
        ids = set(first.values_list("home_id", flat=True)) | set(
            first.exclude(away__isnull=True).values_list("away_id", flat=True)
        )
        entries = list(
            Entry.objects.filter(id__in=ids).select_related(*TEAM_PLAYERS).order_by("id")
        )
    schedule = rr.round_robin_schedule(entrants(event, entries))
    if number > len(schedule):
        raise InvalidInput(
            N_(
                "All %(rounds)s rounds of this round robin have been generated.",
                rounds=len(schedule),
            )
        )
    return schedule[number - 1], {e.id: e for e in entries}


def played_records(event: Event, before_round: int) -> list[PlayedGame | PlayedBye]:
    """Earlier games and byes as the pairing module reads them (a game not yet decided, such as
    one played late, counts as undecided)."""
    records: list[PlayedGame | PlayedBye] = []
    rows = (
        Pairing.objects.filter(event=event, round__number__lt=before_round, cancelled=False)
        .filter(Q(away__isnull=False) | Q(result=ResultKind.BYE))
        .values_list(
            "round__number", "home_id", "away_id", "result", "winner_side", "first_dealer_home"
        )
    )
    for number, home, away, result, winner_side, deals_home in rows:
        if result == ResultKind.BYE:
            records.append(PlayedBye(round=number, team_id=home))
            continue
        winner = {"home": home, "away": away}.get(winner_side)
        records.append(
            PlayedGame(
                round=number,
                home_id=home,
                away_id=away,
                winner_id=winner,
                first_dealer_home=deals_home,
            )
        )
    return records


def _swiss(event: Event, number: int) -> tuple[PlannedRound, dict[int, Entry]]:
    if not event.rounds:
        raise InvalidInput(N_("Set the number of rounds of this Swiss event first."))
    if number > event.rounds:
        raise InvalidInput(
            N_("All %(rounds)s rounds of this event have been generated.", rounds=event.rounds)
        )
    entries = eligible_entries(event)
    ids = {e.id for e in entries}
    standings = event_standings(event=event, before_round=number)
    order = [row.id for row in standings if row.id in ids]
    plan = swiss.swiss_round(entrants(event, entries), played_records(event, number), order, number)
    return plan, {e.id: e for e in entries}


# --- pools ----------------------------------------------------------------------------------


def _pool_list(event: Event, entries: Sequence[Entry]) -> list[pools_module.Pool]:
    """The pools as stored on the entries (``Entry.pool``), strongest first within each."""
    by_pool: dict[int, list[Entry]] = {}
    for entry in entries:
        if entry.pool is not None:
            by_pool.setdefault(entry.pool, []).append(entry)
    result = []
    for index in sorted(by_pool):
        members = pools_module.seed_order(entrants(event, by_pool[index]))
        result.append(pools_module.Pool(pools_module.pool_name(index - 1), tuple(members)))
    return result


def _pools(event: Event, number: int) -> tuple[PlannedRound, dict[int, Entry], dict[int, int]]:
    """Round ``number`` of the pool stage: every pool's round robin round, tables numbered on
    from one pool to the next. The pools are drawn at round 1 (clubs spread) and kept."""
    if number == 1:
        entries = eligible_entries(event)
        assert event.pool_count
        size = -(-len(entries) // event.pool_count)
        drawn = pools_module.split_into_pools(entrants(event, entries), pool_size=size)
        by_id = {e.id: e for e in entries}
        Entry.objects.filter(event=event).update(pool=None)
        for index, pool in enumerate(drawn, start=1):
            for team in pool.teams:
                by_id[team].pool = index
        Entry.objects.bulk_update(entries, ["pool"])
    else:
        entries = list(
            Entry.objects.filter(event=event, pool__isnull=False).select_related(*TEAM_PLAYERS)
        )
    pools = _pool_list(event, entries)
    games: list[PlannedGame] = []
    byes: list[Bye] = []
    pool_of: dict[int, int] = {e.id: e.pool for e in entries if e.pool is not None}
    for pool in pools:
        schedule = pools_module.pool_rounds(pool)
        if number > len(schedule):
            continue
        for game in schedule[number - 1].pairings:
            games.append(PlannedGame(len(games) + 1, game.home, game.away, game.first_dealer_home))
        byes.extend(schedule[number - 1].byes)
    if not games and not byes:
        raise InvalidInput(N_("Every pool has played all its rounds; generate the knockout."))
    return PlannedRound(number, tuple(games), tuple(byes)), {e.id: e for e in entries}, pool_of


def _first_stage_over(event: Event, rounds: Sequence[Round]) -> bool:
    """Whether the next thing to generate is the knockout (or a new draw of it): the first
    stage's last round has begun, or the knockout exists."""
    if not rounds:
        return False
    if Pairing.objects.filter(event=event, match_number__isnull=False).exists():
        return True
    return rounds[-1].number >= _first_stage_rounds(event) and rounds[-1].started


def _first_stage_rounds(event: Event) -> int:
    """The rounds of a staged event's first stage: its longest pool's round robin, the Swiss
    rounds the organiser set, or the round robin of the first round's field."""
    stage = event.format_enum.first_stage
    if stage == Format.POOLS:
        entries = list(Entry.objects.filter(event=event, pool__isnull=False))
        return max(
            (len(pools_module.pool_rounds(p)) for p in _pool_list(event, entries)), default=0
        )
    if stage == Format.SWISS:
        return event.rounds or 0
    return round_robin_rounds(event)


def _check_knockout_fits(event: Event, *, teams: int) -> None:
    """A Swiss or round robin starts only if its knockout can be filled."""
    size = event.knockout_size or 0
    if teams < size:
        raise InvalidInput(
            N_(
                "The knockout takes %(size)s teams, but only %(teams)s would play the first "
                "stage. Lower the knockout's size in the event's settings, or enter more teams.",
                size=size,
                teams=teams,
            )
        )


def _knockout(event: Event, rounds: list[Round], by: User | None) -> tuple[Sentence, int]:
    knockout = [r for r in rounds if r.pairings.filter(match_number__isnull=False).exists()]
    if any(r.started for r in knockout):
        raise InvalidInput(N_("The knockout is under way: it advances by itself as games end."))
    if knockout:
        delete_rounds(knockout)
    first_stage = [r for r in rounds if r not in knockout]
    _check_round_over(first_stage[-1])
    if Pairing.objects.filter(
        round__in=first_stage, result=ResultKind.PENDING, cancelled=False
    ).exists():
        if event.format == Format.POOLS:
            raise InvalidInput(N_("Every pool game needs its result before the knockout is drawn."))
        raise InvalidInput(
            N_("Every game of the first stage needs its result before the knockout is drawn.")
        )
    bracket = knockout_bracket(
        _knockout_seeds(event),
        double=event.double_bracket,
        third_place=event.third_place,
        reset=event.grand_final_reset,
    )
    ids = set(bracket.seeds)
    entries = {e.id: e for e in Entry.objects.filter(id__in=ids).select_related(*TEAM_PLAYERS)}
    first = first_stage[-1].number + 1
    stored = store_bracket(event=event, bracket=bracket, entries=entries, first_round=first, by=by)
    said = N_(
        "Knockout of %(teams)s teams: %(games)s games in %(rounds)s rounds.",
        teams=len(ids),
        games=bracket.games,
        rounds=len(stored),
    )
    return (said, first)


def _knockout_seeds(event: Event) -> list[int]:
    """The knockout's teams, seed 1 first, from the standings every surface shows: the pool
    tables' leaders, crossed; or the first ``knockout_size`` teams of the Swiss or round
    robin, by its tie-breaks (a withdrawn team does not go on: the next one does)."""
    if event.format == Format.POOLS:
        assert event.pool_advance
        finishing = [[row.id for row in rows] for rows in pool_standings(event=event).values()]
        return pools_module.knockout_seeds(finishing, qualifiers=event.pool_advance)
    assert event.knockout_size
    standings = event_standings(event=event, first_stage=True)
    order = [row.id for row in standings if not row.withdrawn]
    return qualifiers(order, size=event.knockout_size)


# --- individual progressive -----------------------------------------------------------------


def _history(
    event: Event, before_round: int, entry_of_player: dict[int, int]
) -> list[ProgressiveRound]:
    rows = (
        Pairing.objects.filter(event=event, round__number__lt=before_round)
        .select_related("round", "home_team", "away_team", "table")
        .order_by("round__number", "id")
    )
    tables: dict[int, list[TableOfFour]] = {}
    outs: dict[int, list[int]] = {}
    for row in rows:
        number = row.round.number
        if row.result == ResultKind.BYE and row.home_id:
            outs.setdefault(number, []).append(row.home_id)
            continue
        if row.home_team is None or row.away_team is None:
            continue
        ns = (row.home_team.player_one_id, row.home_team.player_two_id)
        ew = (row.away_team.player_one_id, row.away_team.player_two_id)
        if not all(p in entry_of_player for p in (*ns, *ew)):
            continue
        tables.setdefault(number, []).append(
            TableOfFour(
                table=row.table.number if row.table else 0,
                north_south=(entry_of_player[ns[0]], entry_of_player[ns[1]]),
                east_west=(entry_of_player[ew[0]], entry_of_player[ew[1]]),
                first_dealer_north_south=row.first_dealer_home,
            )
        )
    return [
        ProgressiveRound(
            number=n,
            tables=tuple(tables.get(n, [])),
            sit_outs=tuple(SitOut(p) for p in outs.get(n, [])),
        )
        for n in sorted(set(tables) | set(outs))
    ]


def _progressive(event: Event, number: int, by: User | None) -> tuple[Sentence, int]:
    """A round of new partnerships among the players entered; each partnership is a scoring
    Team of the club (found again if those two have played together before)."""
    if not event.rounds:
        raise InvalidInput(N_("Set the number of rounds of this progressive event first."))
    if number > event.rounds:
        raise InvalidInput(
            N_("All %(rounds)s rounds of this event have been generated.", rounds=event.rounds)
        )
    entries = eligible_entries(event)
    if len(entries) < 4:
        raise InvalidInput(N_("A progressive round needs at least four players."))
    everyone = {e.player_id: e.id for e in Entry.objects.filter(event=event, player__isnull=False)}
    history = _history(event, number, {p: e for p, e in everyone.items() if p is not None})
    plan = progressive_round([e.id for e in entries], history, number, seed=event.id)
    by_id = {e.id: e for e in Entry.objects.filter(event=event).select_related("player")}
    round_ = Round.objects.create(event=event, number=number)
    tables = tables_ensure(event=event, count=len(plan.tables))
    rules = event_rules(event)
    rows = []
    for table in plan.tables:
        one, two = (by_id[i].player for i in table.north_south)
        three, four = (by_id[i].player for i in table.east_west)
        assert one and two and three and four
        row = Pairing(
            event=event,
            round=round_,
            table=tables[table.table],
            home_team=_partnership(event, one, two),
            away_team=_partnership(event, three, four),
            first_dealer_home=table.first_dealer_north_south,
        )
        rows.append(row)
    games_for(event=event, pairings=rows, rules=rules, by=by)
    for out in plan.sit_outs:
        rows.append(
            Pairing(event=event, round=round_, home=by_id[out.player], result=ResultKind.BYE)
        )
    Pairing.objects.bulk_create(rows)
    _mark_running(event)
    outs = N_("; %(count)s sitting out", count=len(plan.sit_outs)) if plan.sit_outs else ""
    said = N_(
        "%(round)s: %(tables)s tables%(outs)s.",
        round=round_.said,
        tables=len(plan.tables),
        outs=outs,
    )
    return (said, number)


def _partnership(event: Event, one: Any, two: Any) -> Any:
    """The partnership as a scoring Team of the club (found again if these two have played
    together before; then its own order decides who sits North)."""
    return team_for(club=event.club, player_one=one, player_two=two)
