"""A registrant is looked up by its registration, and a push subscription by its registrant,
through their unique constraints, which start with that column: their own indexes on it go.

Only the index goes (kaiser_club/migration_ops.py says why not Django's AlterField)."""

import django.db.models.deletion
from django.db import migrations, models

from kaiser_club.migration_ops import key_index_dropped


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0012_staged_knockout")]

    operations = [
        key_index_dropped(
            model_name="registrant",
            name="registration",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="registrants",
                to="tournaments.registration",
            ),
            table="tournaments_registrant",
            index="tournaments_registrant_registration_id_28d7203a",
        ),
        key_index_dropped(
            model_name="pushsubscription",
            name="registrant",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="push_subscriptions",
                to="tournaments.registrant",
            ),
            table="tournaments_pushsubscription",
            index="tournaments_pushsubscription_registrant_id_a1c84457",
        ),
    ]
