"""A membership's and a former membership's club are looked up through their unique constraints'
indexes, which start with the club: their own indexes on the club go.

Only the index goes: Django's AlterField would also drop and re-add the foreign key (a scan of
the table to check it again) and, beside a unique constraint with a condition on the same
column (scoring_hand's one_pending_hand_per_game), drop that constraint's index too."""

import django.db.models.deletion
from django.db import migrations, models

OPERATIONS = [
    migrations.SeparateDatabaseAndState(
        state_operations=[
            migrations.AlterField(
                model_name="membership",
                name="club",
                field=models.ForeignKey(
                    db_index=False,
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="memberships",
                    to="kaiser_club.club",
                ),
            ),
        ],
        database_operations=[
            migrations.RunSQL(
                'DROP INDEX IF EXISTS "kaiser_club_membership_club_id_de5f414a"',
                reverse_sql='CREATE INDEX "kaiser_club_membership_club_id_de5f414a" ON "kaiser_club_membership" ("club_id")',
            ),
        ],
    ),
    migrations.SeparateDatabaseAndState(
        state_operations=[
            migrations.AlterField(
                model_name="formermembership",
                name="club",
                field=models.ForeignKey(
                    db_index=False,
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="former_memberships",
                    to="kaiser_club.club",
                ),
            ),
        ],
        database_operations=[
            migrations.RunSQL(
                'DROP INDEX IF EXISTS "kaiser_club_formermembership_club_id_2f20bc9e"',
                reverse_sql='CREATE INDEX "kaiser_club_formermembership_club_id_2f20bc9e" ON "kaiser_club_formermembership" ("club_id")',
            ),
        ],
    ),
]


class Migration(migrations.Migration):
    dependencies = [("kaiser_club", "0005_translated_model_names")]

    operations = OPERATIONS
