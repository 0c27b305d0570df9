"""Deletes the games a bracket left behind when one result filled both slots of a match (the
grand final's winner and loser going on to the reset): that match was opened twice, and the
first of its two games stayed "in progress" with no pairing, reachable by no table.

Only such a twin is deleted: a game of no pairing in which nothing has happened (no hand, no
clock, no change, no end), whose club and teams are those of a bracket pairing's game created
within seconds of it. Every other game is left alone, club games of the same teams included.
"""

from datetime import timedelta

from django.db import migrations
from django.db.models import Exists, OuterRef

TWIN_WITHIN = timedelta(seconds=5)


def drop_orphan_twins(apps, schema_editor):
    Game = apps.get_model("scoring", "Game")
    Pairing = apps.get_model("tournaments", "Pairing")
    Substitution = apps.get_model("tournaments", "Substitution")
    ReportJob = apps.get_model("tournaments", "ReportJob")
    twin = Pairing.objects.filter(
        match_number__isnull=False,
        game__club_id=OuterRef("club_id"),
        game__ns_team_id=OuterRef("ns_team_id"),
        game__ew_team_id=OuterRef("ew_team_id"),
        game__created_at__gte=OuterRef("created_at") - TWIN_WITHIN,
        game__created_at__lte=OuterRef("created_at") + TWIN_WITHIN,
    )
    untouched = Game.objects.filter(
        pairing__isnull=True,
        status="in_progress",
        hand_count=0,
        started_at__isnull=True,
        time_called_at__isnull=True,
        ended_at__isnull=True,
        forfeited_by="",
        winner="",
        hands__isnull=True,  # a join sees every hand, one waiting for confirmation too
        changes__isnull=True,
    ).exclude(
        Exists(Substitution.objects.filter(game=OuterRef("pk")))
        | Exists(ReportJob.objects.filter(game=OuterRef("pk")))
    )
    orphans = list(untouched.filter(Exists(twin)).values_list("id", flat=True))
    if orphans:
        Game.objects.filter(id__in=orphans).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_hand_verification"),
        ("tournaments", "0003_report_job_language"),
    ]

    operations = [
        migrations.RunPython(drop_orphan_twins, migrations.RunPython.noop, elidable=True),
    ]
