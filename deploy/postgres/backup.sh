#!/usr/bin/env bash
# A backup of the service's PostgreSQL database, taken while the service runs (pg_dump reads one
# consistent snapshot and blocks no writer).
#
#   DATABASE_URL=postgresql://gin@db:5432/ginrummy deploy/postgres/backup.sh /var/backups/ginrummy
#
# Writes OUTPUT_DIR/ginrummy-<UTC time>.dump (pg_dump --format=custom: compressed, restored by restore.sh
# with pg_restore) and its SHA-256 beside it (.dump.sha256, in sha256sum's format), readable by their owner
# only, and prints the dump's path and size. pg_dump is the one on PATH, or $PG_BIN/pg_dump; it must be of
# the server's major version or newer. The password is never an argument: it stays in the environment
# (common.sh). Exit status: 0 written; 1 nothing written (the message says why); 2 bad command line.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/common.sh"

if [[ $# -ne 1 || $1 == -* ]]; then
    printf 'usage: DATABASE_URL=postgresql://… %s OUTPUT_DIR\n' "$PROGRAM" >&2
    exit 2
fi
output_dir=$1

connect_from_environment
pg_dump=$(pg_program pg_dump)
umask 077 # a dump holds every player's token digest
mkdir -p -- "$output_dir" || die "cannot make the output directory $output_dir"

dump=$output_dir/ginrummy-$(date -u +%Y%m%dT%H%M%SZ).dump
[[ ! -e $dump ]] || die "$dump exists already: wait a second and run again"
# Written under another name and renamed once whole: a file named *.dump is always a complete dump.
partial=$dump.partial
trap 'rm -f -- "$partial"' EXIT

"$pg_dump" --format=custom --file="$partial" --dbname="$CONNECTION" ||
    die "pg_dump failed (its message is above); nothing was written"
mv -- "$partial" "$dump"
checksum=$(sha256_of "$dump")
printf '%s  %s\n' "$checksum" "$(basename -- "$dump")" >"$dump.sha256"

printf '%s %s bytes sha256:%s\n' "$dump" "$(wc -c <"$dump" | tr -d ' ')" "$checksum"
