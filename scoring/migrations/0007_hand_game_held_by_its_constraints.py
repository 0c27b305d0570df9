"""A hand's game is looked up through one_hand_per_number's index (game, number): its own index on
the game goes, one tree fewer to write at every hand.

Only the index goes: Django's AlterField would also drop and re-add the foreign key (a scan of
the table to check it again) and, beside a unique constraint with a condition on the same
column (scoring_hand's one_pending_hand_per_game), drop that constraint's index too."""

import django.db.models.deletion
from django.db import migrations, models

OPERATIONS = [
    migrations.SeparateDatabaseAndState(
        state_operations=[
            migrations.AlterField(
                model_name="hand",
                name="game",
                field=models.ForeignKey(
                    db_index=False,
                    on_delete=django.db.models.deletion.CASCADE,
                    related_name="hands",
                    to="scoring.game",
                ),
            ),
        ],
        database_operations=[
            migrations.RunSQL(
                'DROP INDEX IF EXISTS "scoring_hand_game_id_6105eeca"',
                reverse_sql='CREATE INDEX "scoring_hand_game_id_6105eeca" ON "scoring_hand" ("game_id")',
            ),
        ],
    ),
]


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_translated_model_names")]

    operations = OPERATIONS
