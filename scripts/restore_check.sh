#!/usr/bin/env bash
# Proves the newest backup restores: restores it into a scratch database on the same server,
# compares the row count of every table with the source database, drops the scratch database,
# and exits non-zero on any difference.
#
#   DATABASE_URL=postgres://kaiser:secret@127.0.0.1:5432/kaiser scripts/restore_check.sh /var/backups/kaiser
#
# Arguments: [DIR] where scripts/backup.sh wrote the dumps (default $BACKUP_DIR, else ./backups).
# Environment:
#   DATABASE_URL     the source database (required); its server must let this user create a
#                    database (the scratch one).
#   SCRATCH_DB       the scratch database's name (default kaiser_restore_check); it is dropped
#                    first if it exists, and again at the end unless KEEP_SCRATCH=1.
#   SOURCE_MAY_GROW  1: accept a source table with MORE rows than the dump (a live server that
#                    went on recording after the backup); fewer is always a failure. Default 0:
#                    counts must be equal (run it right after the backup, or on a quiet server).
#   SKIP_TABLES      tables not compared (default: sessions and sign-in logs, which churn).
# Exit status: 0 the restore matches; 1 a table differs or is missing; 2 it could not run.
set -euo pipefail

: "${DATABASE_URL:?set DATABASE_URL (postgres://user:password@host:port/dbname)}"
dir="${1:-${BACKUP_DIR:-./backups}}"
scratch="${SCRATCH_DB:-kaiser_restore_check}"
may_grow="${SOURCE_MAY_GROW:-0}"
skip="${SKIP_TABLES:-django_session axes_accessattempt axes_accesslog axes_accessfailurelog}"

fail() { echo "restore check: $*" >&2; exit 2; }
[[ "$scratch" =~ ^[a-z_][a-z0-9_]*$ ]] || fail "SCRATCH_DB must be a plain lower-case name."

source_url="$(printf '%s' "$DATABASE_URL" | sed -E 's#^(pgsql|psql)://#postgresql://#')"
case "$source_url" in
  postgres://*/* | postgresql://*/*) ;;
  *) fail "DATABASE_URL is not a PostgreSQL URL with a database name." ;;
esac
with_db() { printf '%s' "$source_url" | sed -E "s#^([a-z]+://[^/]*)/[^?]*#\\1/$1#"; }
admin_url="$(with_db postgres)"
scratch_url="$(with_db "$scratch")"
[[ "$scratch_url" != "$source_url" ]] || fail "SCRATCH_DB is the source database."

dump="$(find "$dir" -maxdepth 1 -name 'kaiser-*.dump' -printf '%f\n' 2>/dev/null | sort | tail -n 1)"
[[ -n "$dump" ]] || fail "no kaiser-*.dump in $dir (run scripts/backup.sh first)."
dump="$dir/$dump"

psql_q() { psql --no-psqlrc --quiet --tuples-only --no-align --set ON_ERROR_STOP=1 "$@"; }
drop_scratch() { PGOPTIONS="-c client_min_messages=warning" psql_q --dbname="$admin_url" -c "DROP DATABASE IF EXISTS \"$scratch\"" >/dev/null; }

drop_scratch
psql_q --dbname="$admin_url" -c "CREATE DATABASE \"$scratch\"" >/dev/null
if [[ "${KEEP_SCRATCH:-0}" != 1 ]]; then trap drop_scratch EXIT; fi
pg_restore --no-owner --no-privileges --exit-on-error --dbname="$scratch_url" "$dump"

tables_of() {
  psql_q --dbname="$1" -c \
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
}
# One query per database: "table|rows" for each table named.
counts_of() {
  local url="$1" sql="" table
  shift
  for table in "$@"; do
    [[ -n "$sql" ]] && sql+=" UNION ALL "
    sql+="SELECT '$table', count(*) FROM public.\"$table\""
  done
  [[ -z "$sql" ]] || psql_q --field-separator='|' --dbname="$url" -c "$sql"
}

declare -A restored_rows=() source_rows=()
compare=()
for table in $(tables_of "$source_url"); do
  [[ " $skip " == *" $table "* ]] || compare+=("$table")
done
[[ "${#compare[@]}" -gt 0 ]] || fail "the source database has no tables to compare."
present=()
for table in $(tables_of "$scratch_url"); do
  [[ " ${compare[*]} " == *" $table "* ]] && present+=("$table")
done
while IFS='|' read -r table rows; do source_rows[$table]="$rows"; done \
  < <(counts_of "$source_url" "${compare[@]}")
while IFS='|' read -r table rows; do restored_rows[$table]="$rows"; done \
  < <(counts_of "$scratch_url" "${present[@]}")

echo "restore check of $dump into $scratch"
printf '%-45s %10s %10s  %s\n' table source restored ""
status=0
compared=0
for table in "${compare[@]}"; do
  source_count="${source_rows[$table]}"
  restored_count="${restored_rows[$table]:-}"
  note=""
  if [[ -z "$restored_count" ]]; then
    restored_count="-"
    note="MISSING"
    status=1
  elif [[ "$source_count" != "$restored_count" ]]; then
    if [[ "$may_grow" == 1 && "$source_count" -gt "$restored_count" ]]; then
      note="source grew since the dump"
    else
      note="DIFFERS"
      status=1
    fi
  fi
  printf '%-45s %10s %10s  %s\n' "$table" "$source_count" "$restored_count" "$note"
  compared=$((compared + 1))
done
if [[ "$status" == 0 ]]; then
  echo "OK: $compared tables restored with the source's row counts."
else
  echo "FAILED: the restore does not match the source (see DIFFERS/MISSING above)." >&2
fi
exit "$status"
