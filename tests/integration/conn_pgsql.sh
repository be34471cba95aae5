#!/bin/sh
# PostgreSQL connection conventions, as psql and pgbench follow them: a
# service (PGSERVICE, PGSERVICEFILE, ~/.pg_service.conf) and PG* variables
# say where to connect when the command line does not; the command line
# beats both; libpq's own order between them (the service file first) holds;
# sysbench's defaults fill in only what nothing names. A Lua script connects
# the same way.
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql
API=$(cd "$(dirname "$0")" && pwd)/lua/api.lua
# nothing of the caller's may leak in
unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGSERVICE PGSERVICEFILE PGCONNECT_TIMEOUT
export HOME="$SERVER_DIR/home"
mkdir -p "$HOME"
SMALL="--db-driver=pgsql --tables=1 --table-size=10"

svc() { # svc FILE NAME PORT [USER]: a service for the throwaway server
    printf '[%s]\nhost=127.0.0.1\nport=%s\nuser=%s\ndbname=%s\n' "$2" "$3" "${4:-$SERVER_USER}" \
        "$SERVER_DB" >>"$1"
}

# connects WHAT CMD...: prepare through CMD, the rows are there, cleanup
connects() {
    what=$1
    shift
    out=$("$@" prepare 2>&1) || fail "$what: prepare failed: $out"
    expect_eq "$what: rows" "$(pg_sql 'SELECT count(*) FROM sbtest1')" 10
    out=$("$@" cleanup 2>&1) || fail "$what: cleanup failed: $out"
}

svc "$SERVER_DIR/services.conf" bench "$SERVER_PORT"
svc "$SERVER_DIR/services.conf" wrongport 1
connects "PGSERVICEFILE + PGSERVICE" env PGSERVICEFILE="$SERVER_DIR/services.conf" \
    PGSERVICE=bench "$DBSCALE" oltp_point_select $SMALL
svc "$HOME/.pg_service.conf" home "$SERVER_PORT"
connects "~/.pg_service.conf" env PGSERVICE=home "$DBSCALE" oltp_point_select $SMALL
connects "service= in --pgsql-conninfo" env PGSERVICEFILE="$SERVER_DIR/services.conf" \
    "$DBSCALE" oltp_point_select $SMALL --pgsql-conninfo=service=bench
connects "PGHOST + PGPORT" env PGHOST=127.0.0.1 PGPORT="$SERVER_PORT" \
    "$DBSCALE" oltp_point_select $SMALL
# the command line beats the service
connects "--pgsql-port over the service" env PGSERVICEFILE="$SERVER_DIR/services.conf" \
    PGSERVICE=wrongport "$DBSCALE" oltp_point_select $SMALL --pgsql-port="$SERVER_PORT"
# libpq's order: the service file's port before PGPORT (psql does the same)
connects "service over PGPORT" env PGSERVICEFILE="$SERVER_DIR/services.conf" PGSERVICE=bench \
    PGPORT=1 "$DBSCALE" oltp_point_select $SMALL
psql -X -w -At -c 'SELECT 1' >/dev/null 2>&1 && fail "test setup: psql without a service connected"
expect_eq "psql, service over PGPORT" "$(PGSERVICEFILE="$SERVER_DIR/services.conf" PGSERVICE=bench \
    PGPORT=1 psql -X -w -At -c 'SELECT 1')" 1
# a Lua script's connection follows the same conventions
out=$(PGSERVICE=home "$DBSCALE" "$API" --db-driver=pgsql prepare 2>&1) ||
    fail "Lua script with PGSERVICE: prepare failed: $out"
out=$(PGSERVICE=home "$DBSCALE" "$API" --db-driver=pgsql cleanup 2>&1) ||
    fail "Lua script with PGSERVICE: cleanup failed: $out"
# the connection's name: PGAPPNAME (libpq's) wins over dbscale's own
cat >"$SERVER_DIR/app.lua" <<'LUA'
function prepare()
   local rs = sysbench.sql.driver():connect():query("SELECT current_setting('application_name')")
   print("app=" .. rs:fetch_row()[1])
end
LUA
out=$(PGSERVICE=home "$DBSCALE" "$SERVER_DIR/app.lua" --db-driver=pgsql prepare 2>&1) || fail "app.lua: $out"
echo "$out" | grep -qx 'app=dbscale' || fail "application_name is not dbscale: $out"
out=$(PGAPPNAME=mine PGSERVICE=home "$DBSCALE" "$SERVER_DIR/app.lua" --db-driver=pgsql prepare 2>&1) ||
    fail "app.lua: $out"
echo "$out" | grep -qx 'app=mine' || fail "PGAPPNAME not honoured: $out"
# a service without a user: libpq's default (the OS user), not sysbench's
# sbtest, since a passed user would beat every service that names one
printf '[nouser]\nhost=127.0.0.1\nport=%s\ndbname=%s\n' "$SERVER_PORT" "$SERVER_DB" >>"$HOME/.pg_service.conf"
me=$(id -un)
{ cat "$PGPASSFILE"; echo "*:*:*:$me:not-the-password"; } >"$SERVER_DIR/pgpass2"
chmod 600 "$SERVER_DIR/pgpass2"
out=$(PGPASSFILE="$SERVER_DIR/pgpass2" PGSERVICE=nouser "$DBSCALE" prepare oltp_point_select \
    $SMALL 2>&1) && fail "service without a user connected as sbtest"
case $out in *"user \"$me\""*) ;; *) fail "service without user: not libpq's default user: $out" ;; esac
# nothing given at all: sysbench's localhost:5432
out=$("$DBSCALE" prepare oltp_point_select $SMALL --pgsql-password=x 2>&1) ||
    case $out in *localhost*5432* | *5432*localhost*) ;; *) fail "no settings: not localhost:5432: $out" ;; esac
echo "conn_pgsql: ok"
