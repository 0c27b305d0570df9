"""Rounds, tables, pairings and report jobs are looked up by event, and seasons by club, through
indexes that start with that column (their unique constraints, the pairings' (event, result),
the report jobs' (event, kind, subject)): their own indexes on it go.

Only the index goes: Django's AlterField would also drop and re-add the foreign key (a scan of
the table to check it again) and, beside a unique constraint with a condition on the same
column (scoring_hand's one_pending_hand_per_game), drop that constraint's index too."""

import django.db.models.deletion
from django.db import migrations, models

OPERATIONS = [
    migrations.SeparateDatabaseAndState(
        state_operations=[
            migrations.AlterField(
                model_name="pairing",
                name="event",
                field=models.ForeignKey(
                    db_index=False,
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="pairings",
                    to="tournaments.event",
                ),
            ),
        ],
        database_operations=[
            migrations.RunSQL(
                'DROP INDEX IF EXISTS "tournaments_pairing_event_id_2b91a2ce"',
                reverse_sql='CREATE INDEX "tournaments_pairing_event_id_2b91a2ce" ON "tournaments_pairing" ("event_id")',
            ),
        ],
    ),
    migrations.SeparateDatabaseAndState(
        state_operations=[
            migrations.AlterField(
                model_name="reportjob",
                name="event",
                field=models.ForeignKey(
                    db_index=False,
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="report_jobs",
                    to="tournaments.event",
                ),
            ),
        ],
        database_operations=[
            migrations.RunSQL(
                'DROP INDEX IF EXISTS "tournaments_reportjob_event_id_e85e2310"',
                reverse_sql='CREATE INDEX "tournaments_reportjob_event_id_e85e2310" ON "tournaments_reportjob" ("event_id")',
            ),
        ],
    ),
    migrations.SeparateDatabaseAndState(
        state_operations=[
            migrations.AlterField(
                model_name="round",
                name="event",
                field=models.ForeignKey(
                    db_index=False,
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="round_set",
                    to="tournaments.event",
                ),
            ),
        ],
        database_operations=[
            migrations.RunSQL(
                'DROP INDEX IF EXISTS "tournaments_round_event_id_1589ea7a"',
                reverse_sql='CREATE INDEX "tournaments_round_event_id_1589ea7a" ON "tournaments_round" ("event_id")',
            ),
        ],
    ),
    migrations.SeparateDatabaseAndState(
        state_operations=[
            migrations.AlterField(
                model_name="season",
                name="club",
                field=models.ForeignKey(
                    db_index=False,
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="seasons",
                    to="kaiser_club.club",
                ),
            ),
        ],
        database_operations=[
            migrations.RunSQL(
                'DROP INDEX IF EXISTS "tournaments_season_club_id_f9b210bf"',
                reverse_sql='CREATE INDEX "tournaments_season_club_id_f9b210bf" ON "tournaments_season" ("club_id")',
            ),
        ],
    ),
    migrations.SeparateDatabaseAndState(
        state_operations=[
            migrations.AlterField(
                model_name="table",
                name="event",
                field=models.ForeignKey(
                    db_index=False,
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="tables",
                    to="tournaments.event",
                ),
            ),
        ],
        database_operations=[
            migrations.RunSQL(
                'DROP INDEX IF EXISTS "tournaments_table_event_id_9bcbf05f"',
                reverse_sql='CREATE INDEX "tournaments_table_event_id_9bcbf05f" ON "tournaments_table" ("event_id")',
            ),
        ],
    ),
]


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0009_translated_model_names")]

    operations = OPERATIONS
