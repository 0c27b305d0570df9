"""The triggers that move an event's version counters (``models.versions``) with every row
of it that changes, in the database itself: whatever writes (a service, an import, the admin, a
bulk update) moves them. Migration 0007 creates them.

SQLite drops a table's triggers when a migration remakes the table (adding a column that
cannot be null, say), so after every migrate they are made again where missing
(``restore_sqlite_triggers``, connected to ``post_migrate``). PostgreSQL keeps them."""

from __future__ import annotations

from typing import Any

from django.db import connections

V = "tournaments_eventversion"
BOTH = "results = results + 1, live = live + 1"
LIVE = "live = live + 1"
# (table, the event's column, what moves). Rows with an event of their own.
EVENT_ROWS = [
    ("tournaments_pairing", "event_id", BOTH),
    ("tournaments_entry", "event_id", BOTH),
    ("tournaments_round", "event_id", LIVE),
    ("tournaments_table", "event_id", LIVE),
]
# Rows reached through others: (table, the events the row (R) is in, what moves).
THROUGH = [
    (
        "scoring_game",
        "SELECT event_id FROM tournaments_pairing WHERE game_id = R.id",
        LIVE,
    ),
    (
        "scoring_team",
        "SELECT event_id FROM tournaments_pairing WHERE home_team_id = R.id "
        "OR away_team_id = R.id UNION SELECT event_id FROM tournaments_entry WHERE team_id = R.id",
        BOTH,
    ),
    (
        "kaiser_club_player",
        "SELECT p.event_id FROM tournaments_pairing p JOIN scoring_team t "
        "ON t.id = p.home_team_id OR t.id = p.away_team_id "
        "WHERE t.player_one_id = R.id OR t.player_two_id = R.id "
        "UNION SELECT event_id FROM tournaments_entry WHERE player_id = R.id",
        BOTH,
    ),
]


def sqlite_triggers() -> list[str]:
    made = [
        f"CREATE TRIGGER kv_event_insert AFTER INSERT ON tournaments_event BEGIN "
        f"INSERT INTO {V} (event_id, results, live, epoch) "
        "VALUES (NEW.id, 0, 0, (abs(random()) % 1000000000)); END",
        f"CREATE TRIGGER kv_event_update AFTER UPDATE ON tournaments_event BEGIN "
        f"UPDATE {V} SET {BOTH} WHERE event_id = NEW.id; END",
    ]
    for table, column, moves in EVENT_ROWS:
        made += [
            f"CREATE TRIGGER kv_{table}_insert AFTER INSERT ON {table} BEGIN "
            f"UPDATE {V} SET {moves} WHERE event_id = NEW.{column}; END",
            f"CREATE TRIGGER kv_{table}_update AFTER UPDATE ON {table} BEGIN "
            f"UPDATE {V} SET {moves} WHERE event_id IN (OLD.{column}, NEW.{column}); END",
            f"CREATE TRIGGER kv_{table}_delete AFTER DELETE ON {table} BEGIN "
            f"UPDATE {V} SET {moves} WHERE event_id = OLD.{column}; END",
        ]
    for table, events, moves in THROUGH:
        made.append(
            f"CREATE TRIGGER kv_{table}_update AFTER UPDATE ON {table} BEGIN "
            f"UPDATE {V} SET {moves} WHERE event_id IN ({events.replace('R.', 'NEW.')}); END"
        )
    return made


def postgresql_triggers() -> list[str]:
    made = [
        f"""CREATE FUNCTION kv_event_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO {V} (event_id, results, live, epoch)
          VALUES (NEW.id, 0, 0, (random() * 1e9)::bigint);
          RETURN NULL;
        END $$""",
        "CREATE TRIGGER kv_event_insert AFTER INSERT ON tournaments_event "
        "FOR EACH ROW EXECUTE FUNCTION kv_event_insert()",
        f"""CREATE FUNCTION kv_event_update() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN UPDATE {V} SET {BOTH} WHERE event_id = NEW.id; RETURN NULL; END $$""",
        "CREATE TRIGGER kv_event_update AFTER UPDATE ON tournaments_event "
        "FOR EACH ROW EXECUTE FUNCTION kv_event_update()",
    ]
    for table, column, moves in EVENT_ROWS:
        made += [
            f"""CREATE FUNCTION kv_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF TG_OP <> 'INSERT' THEN
                UPDATE {V} SET {moves} WHERE event_id = OLD.{column};
              END IF;
              IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.{column} <> OLD.{column}) THEN
                UPDATE {V} SET {moves} WHERE event_id = NEW.{column};
              END IF;
              RETURN NULL;
            END $$""",
            f"CREATE TRIGGER kv_{table} AFTER INSERT OR UPDATE OR DELETE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION kv_{table}()",
        ]
    for table, events, moves in THROUGH:
        made += [
            f"""CREATE FUNCTION kv_{table}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              UPDATE {V} SET {moves} WHERE event_id IN ({events.replace("R.", "NEW.")});
              RETURN NULL;
            END $$""",
            f"CREATE TRIGGER kv_{table} AFTER UPDATE ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION kv_{table}()",
        ]
    return made


def sqlite_drops() -> list[str]:
    names = ["kv_event_insert", "kv_event_update"]
    for table, _column, _moves in EVENT_ROWS:
        names += [f"kv_{table}_insert", f"kv_{table}_update", f"kv_{table}_delete"]
    names += [f"kv_{table}_update" for table, _events, _moves in THROUGH]
    return [f"DROP TRIGGER IF EXISTS {name}" for name in names]


def postgresql_drops() -> list[str]:
    functions = ["kv_event_insert", "kv_event_update"]
    functions += [f"kv_{table}" for table, _c, _m in EVENT_ROWS]
    functions += [f"kv_{table}" for table, _e, _m in THROUGH]
    return [f"DROP FUNCTION IF EXISTS {name}() CASCADE" for name in functions]


def restore_sqlite_triggers(*, using: str = "default", **kwargs: Any) -> None:
    """Receiver of ``post_migrate``: on SQLite, every counter trigger a remade table lost is
    made again, and every event has its counters."""
    connection = connections[using]
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name = %s", [V])
        if cursor.fetchone() is None:
            return  # not migrated that far
        for statement in sqlite_triggers():
            cursor.execute(statement.replace("CREATE TRIGGER", "CREATE TRIGGER IF NOT EXISTS", 1))
        cursor.execute(
            f"INSERT INTO {V} (event_id, results, live, epoch) "
            "SELECT id, 0, 0, (abs(random()) % 1000000000) FROM tournaments_event "
            f"WHERE id NOT IN (SELECT event_id FROM {V})"
        )
