# shellcheck shell=bash
# Sourced by backup.sh and restore.sh: messages, PostgreSQL's client programs, the connection, checksums.

# The name of the script that failed, in front of every message it prints.
PROGRAM=$(basename -- "$0")

die() {
    printf '%s: %s\n' "$PROGRAM" "$*" >&2
    exit 1
}

# The path of a PostgreSQL client program (pg_dump, pg_restore, psql): in $PG_BIN when that is set (the
# pgserver wheel's pginstall/bin, a /usr/lib/postgresql/16/bin), else on PATH.
pg_program() {
    local name=$1
    if [[ -n ${PG_BIN:-} ]]; then
        [[ -x $PG_BIN/$name ]] || die "$name not found in PG_BIN=$PG_BIN"
        printf '%s\n' "$PG_BIN/$name"
    else
        command -v -- "$name" ||
            die "$name not found on PATH: install PostgreSQL 16's client programs, or set PG_BIN to their directory"
    fi
}

# Sets CONNECTION: $DATABASE_URL without its password, which goes to PGPASSWORD instead. Every program is
# given CONNECTION as an argument, and arguments are visible to every user of the machine (ps); libpq
# reads PGPASSWORD from the environment (or a password from ~/.pgpass when the URL has none). A password
# given as ?password=… is not taken out: put it in the user part of the URL.
# shellcheck disable=SC2034 # CONNECTION is for the scripts that source this file
connect_from_environment() {
    [[ -n ${DATABASE_URL:-} ]] ||
        die "set DATABASE_URL (postgresql://user@host:5432/database; the password in it, in PGPASSWORD or in ~/.pgpass)"
    CONNECTION=$DATABASE_URL
    local pattern='^(postgres(ql)?://)([^:@/?#]*):([^@/?#]*)@(.*)$'
    if [[ $DATABASE_URL =~ $pattern ]]; then
        CONNECTION=${BASH_REMATCH[1]}${BASH_REMATCH[3]}@${BASH_REMATCH[5]}
        PGPASSWORD=$(percent_decode "${BASH_REMATCH[4]}")
        export PGPASSWORD
    fi
}

# A URL's percent-encoded text decoded ("s3cr%40t" -> "s3cr@t"); backslashes stay backslashes.
percent_decode() {
    local text=${1//\\/\\\\}
    printf '%b' "${text//%/\\x}"
}

# The SHA-256 of a file, as hex.
sha256_of() {
    local line
    if command -v sha256sum >/dev/null; then
        line=$(sha256sum -- "$1")
    else
        line=$(shasum -a 256 -- "$1")
    fi
    printf '%s\n' "${line%% *}"
}
