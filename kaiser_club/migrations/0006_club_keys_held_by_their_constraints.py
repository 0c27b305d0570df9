"""A membership's and a former membership's club are looked up through their unique constraints'
indexes, which start with the club: their own indexes on the club go.

Only the index goes (kaiser_club/migration_ops.py says why not Django's AlterField)."""

import django.db.models.deletion
from django.db import migrations, models

from kaiser_club.migration_ops import key_index_dropped


class Migration(migrations.Migration):
    dependencies = [("kaiser_club", "0005_translated_model_names")]

    operations = [
        key_index_dropped(
            model_name="membership",
            name="club",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="memberships",
                to="kaiser_club.club",
            ),
            table="kaiser_club_membership",
            index="kaiser_club_membership_club_id_de5f414a",
        ),
        key_index_dropped(
            model_name="formermembership",
            name="club",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="former_memberships",
                to="kaiser_club.club",
            ),
            table="kaiser_club_formermembership",
            index="kaiser_club_formermembership_club_id_2f20bc9e",
        ),
    ]
