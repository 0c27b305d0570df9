"""A hand's game is looked up through one_hand_per_number's index (game, number): its own index on
the game goes, one tree fewer to write at every hand.

Only the index goes (kaiser_club/migration_ops.py says why not Django's AlterField)."""

import django.db.models.deletion
from django.db import migrations, models

from kaiser_club.migration_ops import key_index_dropped


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_translated_model_names")]

    operations = [
        key_index_dropped(
            model_name="hand",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="hands",
                to="scoring.game",
            ),
            table="scoring_hand",
            index="scoring_hand_game_id_6105eeca",
        ),
    ]
