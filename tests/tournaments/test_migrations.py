"""Data migrations of the events app, run against rows made by today's services."""

from __future__ import annotations

import datetime as dt
import importlib
import uuid

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.utils import timezone

from scoring import services as scoring
from scoring.models import Game
from scoring.rules import Side
from tests.factories import start_game
from tournaments.choices import JobStatus
from tournaments.models import GenerationJob, Pairing, ReportJob
from tournaments.services.games import game_for

from .helpers import generate, make_event, winning_hand

pytestmark = pytest.mark.django_db

DROP_ORPHANS = ("tournaments", "0004_drop_orphan_bracket_games")
drop_orphan_twins = importlib.import_module(
    f"tournaments.migrations.{DROP_ORPHANS[1]}"
).drop_orphan_twins


def models_before(migration: tuple[str, str]) -> Apps:
    """The models as the migration sees them (the rows are today's: the tables are the same)."""
    return MigrationLoader(connection).project_state(migration, at_end=False).apps


def test_only_untouched_twins_of_bracket_games_are_deleted():
    """The twin a bracket made of a match it opened twice goes; a twin someone played in, the
    bracket's own games, a club game of other teams and a later club game of the same teams
    stay."""
    event = make_event(teams=2, format="double_elimination")
    generate(event)
    final = Pairing.objects.select_related("home_team", "away_team").get(code="W1-1")
    twin = game_for(event=event, pairing=final)  # made with the pairing's own game, unlinked
    played = game_for(event=event, pairing=final)
    scoring.hand_record(game_id=played.id, entry=winning_hand(Side.NS), client_id=uuid.uuid4())
    later = game_for(event=event, pairing=final)
    Game.objects.filter(id=later.id).update(created_at=timezone.now() + dt.timedelta(hours=2))
    other = start_game(club=event.club)

    drop_orphan_twins(models_before(DROP_ORPHANS), None)

    left = set(Game.objects.values_list("id", flat=True))
    assert twin.id not in left
    assert {played.id, later.id, other.id, final.game_id} <= left


def test_extra_active_generation_jobs_fail_before_the_one_active_job_constraint():
    """Of an event's queued and running jobs the running one is kept (else the oldest queued);
    the others fail with a sentence; other events' jobs and finished jobs are untouched."""
    migration = ("tournaments", "0005_one_generation_at_a_time")
    fail_extra = importlib.import_module(f"tournaments.migrations.{migration[1]}")
    event, other = make_event(teams=2), make_event(teams=2)
    with connection.cursor() as cursor:  # rows as they could be before the constraint
        cursor.execute("DROP INDEX generationjob_one_active_per_event")
    older = GenerationJob.objects.create(event=event, status=JobStatus.QUEUED)
    running = GenerationJob.objects.create(event=event, status=JobStatus.RUNNING)
    newer = GenerationJob.objects.create(event=event, status=JobStatus.QUEUED)
    done = GenerationJob.objects.create(event=event, status=JobStatus.DONE)
    alone = GenerationJob.objects.create(event=other, status=JobStatus.QUEUED)

    fail_extra.fail_extra_active_jobs(models_before(migration), None)

    status = dict(GenerationJob.objects.values_list("id", "status"))
    assert status == {
        older.id: "failed",
        running.id: "running",
        newer.id: "failed",
        done.id: "done",
        alone.id: "queued",
    }
    assert GenerationJob.objects.get(id=older.id).error == (
        "Another generation of this event was already under way; ask again once it has finished."
    )


def test_extra_active_report_jobs_fail_before_the_one_active_job_constraint():
    """Per report (event, kind, subject) the running job is kept, else the oldest queued; the
    others fail naming it; other reports' jobs are untouched."""
    migration = ("tournaments", "0006_one_active_report_job")
    fail_extra = importlib.import_module(f"tournaments.migrations.{migration[1]}")
    event = make_event(teams=2)
    with connection.cursor() as cursor:  # rows as they could be before the constraint
        cursor.execute("DROP INDEX reportjob_one_active_per_subject")

    def job(status: str, kind: str = "standings", subject: str = "") -> ReportJob:
        return ReportJob.objects.create(event=event, kind=kind, subject=subject, status=status)

    older, newer = job(JobStatus.QUEUED), job(JobStatus.QUEUED)
    sheet_queued, sheet_running = (
        job(JobStatus.QUEUED, "blank_sheets", "round-1"),
        job(JobStatus.RUNNING, "blank_sheets", "round-1"),
    )
    other_subject = job(JobStatus.QUEUED, "blank_sheets", "round-2")

    fail_extra.fail_extra_active_jobs(models_before(migration), None)

    status = dict(ReportJob.objects.values_list("id", "status"))
    assert status == {
        older.id: "queued",
        newer.id: "failed",
        sheet_queued.id: "failed",
        sheet_running.id: "running",
        other_subject.id: "queued",
    }
    assert ReportJob.objects.get(id=newer.id).error == (
        f"The same report was asked for twice; job {older.id} makes it."
    )
