#!/bin/sh
# dbscale server with PostgreSQL: starts fresh, sbtest connects with its
# password over TCP and the socket (and not without it), listens on 127.0.0.1
# only, honours --conf and --cpus, never prints the password, and leaves
# nothing behind after stop.
. "$(dirname "$0")/lib.sh" "$1"

# bad input is exit 2 with a message
"$DBSCALE" server start oracle >/dev/null 2>&1; expect_eq "unknown engine exit" $? 2
"$DBSCALE" server start pgsql --cpus=x >/dev/null 2>&1; expect_eq "bad --cpus exit" $? 2
"$DBSCALE" server start pgsql --port=99999 >/dev/null 2>&1; expect_eq "bad --port exit" $? 2
"$DBSCALE" server stop --dir /nonexistent >/dev/null 2>&1; expect_eq "stop missing dir exit" $? 2
"$DBSCALE" server --help | grep -q -- '--cpus' || fail "--help does not list --cpus"

"$DBSCALE" server start pgsql --conf "listen_addresses='*'" >/dev/null 2>&1
expect_eq "--conf listen_addresses refused" $? 2

start_server pgsql --conf max_connections=123
dir=$SERVER_DIR
pw=$(server_password)
[ ${#pw} -ge 16 ] || fail "password too short: ${#pw} characters"

expect_eq "tcp select" "$(pg_sql 'SELECT 1')" 1
expect_eq "tcp user/db" "$(pg_sql 'SELECT current_user, current_database()')" "sbtest|sbtest"
expect_eq "tcp address" "$(pg_sql 'SELECT host(inet_server_addr())')" 127.0.0.1
expect_eq "socket user" "$(pg_sql_socket 'SELECT current_user')" sbtest
expect_eq "--conf" "$(pg_sql 'SHOW max_connections')" 123
pg_sql 'CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1); DROP TABLE t' ||
    fail "sbtest cannot create tables in sbtest"
[ -n "$(pg_sql 'SHOW server_version')" ] || fail "no server version"

# a password is required, and the wrong one is refused
PGPASSFILE=/dev/null PGPASSWORD=wrong psql -X -w -h 127.0.0.1 -p "$SERVER_PORT" -U sbtest -d sbtest \
    -c 'SELECT 1' >/dev/null 2>&1 && fail "wrong password accepted over TCP"
PGPASSFILE=/dev/null psql -X -w -h "$SERVER_SOCKET_DIR" -p "$SERVER_PORT" -U sbtest -d sbtest \
    -c 'SELECT 1' >/dev/null 2>&1 && fail "no password accepted over the socket"
PGPASSFILE=/dev/null PGPASSWORD=$pw psql -X -w -h 127.0.0.1 -p "$SERVER_PORT" -U sbtest -d sbtest \
    -c 'SELECT 1' >/dev/null 2>&1 || fail "the password in pgpass does not work"

# the password stays in the 0600 file
expect_eq "pgpass mode" "$(stat -c %a "$PGPASSFILE")" 600
echo "$SERVER_START_OUT" | grep -q "$pw" && fail "server start printed the password"
grep -q "$pw" "$dir/state" "$dir/log" && fail "the password is in the state file or the log"

check_listen_loopback_only

pids=$(server_all_pids)
# dbscale's own stop, not lib.sh's stop_server (which removes what is left
# and turns a failed stop into a warning): it must succeed and remove all
out=$("$DBSCALE" server stop --dir "$dir" 2>&1) || fail "server stop failed: $out"
[ -e "$dir" ] && fail "$dir still exists after stop: $(ls -A "$dir")"
SERVER_DIR=
for p in $pids; do
    if [ -r "/proc/$p/stat" ] && [ "$(cut -d' ' -f3 "/proc/$p/stat")" != Z ]; then
        fail "server process $p still running after stop"
    fi
done

# --cpus: every server process (and thread) is held to CPU 0
start_server pgsql --cpus=0
pg_sql 'SELECT count(*) FROM pg_class' >/dev/null || fail "query on the --cpus=0 server"
check_server_cpus 0 4 "the postmaster and its children"
stop_server
echo ok
