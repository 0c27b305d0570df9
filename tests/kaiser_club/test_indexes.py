"""No index of ours that another one already holds: an index on (a) beside a unique constraint
on (a, b) is one more tree to write at every insert (a hand's row, a pairing's) and to keep in
memory, and answers no query the other does not (PostgreSQL reads (a) from (a, b)'s index).

Read from PostgreSQL's catalogue, as the migrations made the tables: a plain index whose
columns (with the same operator classes) lead another full index on the same table. Partial
and expression indexes answer other questions and are left out; so are other apps' tables."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection

pytestmark = pytest.mark.django_db

OURS = ("kaiser_club", "scoring", "tournaments")

# Each index as (table, name, its columns with their operator classes, unique, plain): plain
# means no predicate and no expression, the only kind whose work another index can take on.
INDEXES = """
SELECT c.relname, i.relname,
       ARRAY(SELECT ROW(x.attnum, x.opclass)::text
             FROM unnest(ix.indkey::int2[], ix.indclass::oid[]) AS x(attnum, opclass)),
       ix.indisunique,
       ix.indpred IS NULL AND ix.indexprs IS NULL
FROM pg_index ix
JOIN pg_class c ON c.oid = ix.indrelid
JOIN pg_class i ON i.oid = ix.indexrelid
WHERE c.relname = ANY(%s)
"""


def redundant_indexes() -> list[str]:
    tables = [m._meta.db_table for name in OURS for m in apps.get_app_config(name).get_models()]
    with connection.cursor() as cursor:
        cursor.execute(INDEXES, [tables])
        rows = cursor.fetchall()
    found = []
    for table, name, keys, unique, plain in rows:
        if unique or not plain:
            continue
        for other_table, other, other_keys, _unique, other_plain in rows:
            if (
                other_table == table
                and other != name
                and other_plain
                and len(other_keys) > len(keys)
                and other_keys[: len(keys)] == keys
            ):
                found.append(f"{table}: {name} is the start of {other}")
                break
    return sorted(found)


def test_no_index_of_ours_is_the_start_of_another() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("read from PostgreSQL's catalogue")
    assert redundant_indexes() == []


def test_the_check_finds_an_index_another_holds() -> None:
    """The check itself, on a table made for it: (a) is held by (a, b), (b) is not, and a
    partial index on (a) answers another question."""
    if connection.vendor != "postgresql":
        pytest.skip("read from PostgreSQL's catalogue")
    table = "scoring_hand"  # one of ours: the check reads our tables only
    before = set(redundant_indexes())
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE INDEX probe_bid ON {table} (bid)")
        cursor.execute(f"CREATE INDEX probe_bid_dealer ON {table} (bid, dealer)")
        cursor.execute(f"CREATE INDEX probe_dealer ON {table} (dealer)")
        cursor.execute(f"CREATE INDEX probe_bid_partial ON {table} (bid) WHERE forced")
    found = set(redundant_indexes()) - before
    assert found == {f"{table}: probe_bid is the start of probe_bid_dealer"}


def test_every_constraint_and_index_the_models_name_is_in_the_database() -> None:
    """What the migrations left is what the models say: a named constraint or index dropped on
    the way (Django's AlterField drops every index on a column it un-indexes, a partial unique
    constraint's among them) is found here, not on the day two pending hands meet."""
    if connection.vendor != "postgresql":
        pytest.skip("read from PostgreSQL's catalogue")
    missing = []
    with connection.cursor() as cursor:
        for name in OURS:
            for model in apps.get_app_config(name).get_models():
                table = model._meta.db_table
                present = connection.introspection.get_constraints(cursor, table)
                named = [*model._meta.constraints, *model._meta.indexes]
                missing += [f"{table}: {c.name}" for c in named if c.name not in present]
    assert missing == []
