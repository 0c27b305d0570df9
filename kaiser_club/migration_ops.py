"""A migration operation: a foreign key gives up its own index because another index on its
table already leads with its column (a unique constraint on (key, ...), say).

The model's field changes (``db_index=False``) and only that index is dropped. Django's
AlterField would also drop and re-add the foreign key (a scan of the table to check it again)
and drop every other index on that one column, a partial unique constraint's among them
(scoring_hand's one_pending_hand_per_game). Going back creates the index as Django named it.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def key_index_dropped(
    *, model_name: str, name: str, field: models.Field[Any, Any], table: str, index: str
) -> migrations.SeparateDatabaseAndState:
    column = f"{name}_id"
    return migrations.SeparateDatabaseAndState(
        state_operations=[migrations.AlterField(model_name=model_name, name=name, field=field)],
        database_operations=[
            migrations.RunSQL(
                f'DROP INDEX IF EXISTS "{index}"',
                reverse_sql=f'CREATE INDEX "{index}" ON "{table}" ("{column}")',
            )
        ],
    )
