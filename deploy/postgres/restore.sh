#!/usr/bin/env bash
# Restore a dump of backup.sh into a new, empty database, bring its schema up to date, and count its rows.
#
#   createdb -T template0 ginrummy_restored        # or CREATE DATABASE, or a new managed database
#   DATABASE_URL=postgresql://gin@db:5432/ginrummy_restored deploy/postgres/restore.sh DUMP
#
# In order, stopping at the first failure: the dump's SHA-256 must match DUMP.sha256 (a damaged or
# replaced dump is refused before anything is touched); the database must hold no table (--force restores
# over one, dropping and recreating every object of the dump; what is not in the dump stays); pg_restore
# --no-owner --exit-on-error in one transaction (the database is unchanged when it fails); then
# ginrummy-migrate (from PATH: nothing to apply when the dump is of the running release, the missing
# migrations when it is older); then one line per table with its row count. PostgreSQL's programs come from
# PATH or $PG_BIN, the password from the environment (common.sh). Exit status: 0 restored; 1 refused or
# failed (the message says which); 2 bad command line.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/common.sh"

usage() {
    printf 'usage: DATABASE_URL=postgresql://… %s [--force] DUMP\n' "$PROGRAM" >&2
    exit 2
}

force=false
dump=
while [[ $# -gt 0 ]]; do
    case $1 in
    --force) force=true ;;
    -h | --help) usage ;;
    -*) usage ;;
    *)
        [[ -z $dump ]] || usage
        dump=$1
        ;;
    esac
    shift
done
[[ -n $dump ]] || usage

connect_from_environment
pg_restore=$(pg_program pg_restore)
psql=$(pg_program psql)
migrate=$(command -v ginrummy-migrate) ||
    die "ginrummy-migrate not found on PATH: run this where the service is installed (its image, or .venv/bin)"

[[ -f $dump ]] || die "no dump at $dump"
[[ -f $dump.sha256 ]] || die "no checksum at $dump.sha256: refusing to restore a dump that cannot be checked"
expected=
read -r expected _ <"$dump.sha256" || true
actual=$(sha256_of "$dump")
[[ $actual == "$expected" ]] ||
    die "checksum mismatch: $dump has SHA-256 $actual, $dump.sha256 says ${expected:-nothing}; the dump is damaged or not the one backed up: refusing to restore"

run_psql() {
    "$psql" --no-psqlrc --quiet --tuples-only --no-align --set=ON_ERROR_STOP=1 --dbname="$CONNECTION" "$@"
}
tables=$(run_psql --command="SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')") ||
    die "cannot connect to the database (psql's message is above)"
options=(--no-owner --exit-on-error --single-transaction)
if [[ $tables -gt 0 ]]; then
    $force || die "the database already has $tables tables: restore into a new empty database, or pass --force to replace what the dump holds"
    options+=(--clean --if-exists)
fi

"$pg_restore" "${options[@]}" --dbname="$CONNECTION" -- "$dump" ||
    die "pg_restore failed (its message is above); the database is as it was before"
printf '%s: restored %s\n' "$PROGRAM" "$dump"
"$migrate" || die "ginrummy-migrate failed (its message is above): the data is restored, the schema is not up to date"

# Exact counts: \gexec runs each count query the first one writes, in its order.
run_psql --field-separator=' ' <<'SQL' |
SELECT format('SELECT %L, count(*) FROM %I.%I', format('%I.%I', schemaname, tablename), schemaname, tablename)
FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY schemaname, tablename
\gexec
SQL
    while read -r table rows; do
        printf '%-32s %12s rows\n' "$table" "$rows"
    done || die "cannot count the rows (psql's message is above)"
