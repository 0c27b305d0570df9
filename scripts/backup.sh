#!/usr/bin/env bash
# Backs up the database named by DATABASE_URL with pg_dump's custom format (compressed, restored
# with pg_restore) into a dated file, and keeps the newest KEEP dumps (default 14).
#
#   DATABASE_URL=postgres://kaiser:secret@127.0.0.1:5432/kaiser scripts/backup.sh /var/backups/kaiser
#
# Arguments: [DIR] where the dumps go (default $BACKUP_DIR, else ./backups).
# Environment: DATABASE_URL (required), KEEP (how many dumps to keep, default 14).
# Prints the path of the new dump. A dump is written under a temporary name and renamed when
# complete, so a failed or interrupted run never leaves a half dump that looks like a backup.
# Cron, every night at 03:15 (see the README's backups section):
#   15 3 * * * cd /srv/kaiser && DATABASE_URL=... scripts/backup.sh /var/backups/kaiser >>/var/log/kaiser-backup.log 2>&1
set -euo pipefail

: "${DATABASE_URL:?set DATABASE_URL (postgres://user:password@host:port/dbname)}"
dir="${1:-${BACKUP_DIR:-./backups}}"
keep="${KEEP:-14}"
if ! [[ "$keep" =~ ^[1-9][0-9]*$ ]]; then
  echo "KEEP must be a whole number of dumps, at least 1 (got '$keep')." >&2
  exit 2
fi

# django-environ also accepts pgsql:// and psql://; libpq wants postgres(ql)://
url="$(printf '%s' "$DATABASE_URL" | sed -E 's#^(pgsql|psql)://#postgresql://#')"
case "$url" in
  postgres://* | postgresql://*) ;;
  *)
    echo "DATABASE_URL is not a PostgreSQL URL; backups need PostgreSQL (pg_dump)." >&2
    exit 2
    ;;
esac

mkdir -p "$dir"
stamp="$(date -u +%Y%m%dT%H%M%S.%NZ)"
name="kaiser-$stamp.dump"
partial="$dir/.$name.partial"
trap 'rm -f "$partial"' EXIT
pg_dump --format=custom --no-owner --no-privileges --dbname="$url" --file="$partial"
mv "$partial" "$dir/$name"

# The names sort by time; remove all but the newest $keep.
find "$dir" -maxdepth 1 -name 'kaiser-*.dump' -printf '%f\n' | sort -r | tail -n +"$((keep + 1))" |
  while read -r old; do rm -f -- "$dir/$old"; done

echo "$dir/$name"
