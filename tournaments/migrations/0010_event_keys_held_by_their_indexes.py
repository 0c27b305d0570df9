"""Rounds, tables, pairings and report jobs are looked up by event, and seasons by club, through
indexes that start with that column (their unique constraints, the pairings' (event, result),
the report jobs' (event, kind, subject)): their own indexes on it go.

Only the index goes (kaiser_club/migration_ops.py says why not Django's AlterField)."""

import django.db.models.deletion
from django.db import migrations, models

from kaiser_club.migration_ops import key_index_dropped


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0009_translated_model_names")]

    operations = [
        key_index_dropped(
            model_name="pairing",
            name="event",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="pairings",
                to="tournaments.event",
            ),
            table="tournaments_pairing",
            index="tournaments_pairing_event_id_2b91a2ce",
        ),
        key_index_dropped(
            model_name="reportjob",
            name="event",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="report_jobs",
                to="tournaments.event",
            ),
            table="tournaments_reportjob",
            index="tournaments_reportjob_event_id_e85e2310",
        ),
        key_index_dropped(
            model_name="round",
            name="event",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="round_set",
                to="tournaments.event",
            ),
            table="tournaments_round",
            index="tournaments_round_event_id_1589ea7a",
        ),
        key_index_dropped(
            model_name="season",
            name="club",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seasons",
                to="kaiser_club.club",
            ),
            table="tournaments_season",
            index="tournaments_season_club_id_f9b210bf",
        ),
        key_index_dropped(
            model_name="table",
            name="event",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="tables",
                to="tournaments.event",
            ),
            table="tournaments_table",
            index="tournaments_table_event_id_9bcbf05f",
        ),
    ]
