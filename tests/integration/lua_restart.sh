#!/bin/sh
# integration: long
# A Lua script's server restarted under it (issue 14: "reconnect after a
# server restart"), on both engines: the server is stopped (its clients'
# sessions end, the port closes) and started again from the same data
# directory 1 s later; every scripted connection reconnects, prepares its
# statement again, restarts the event (before_restart_event), and does
# work afterwards; the run exits 0, counts the reconnects and the lost
# connections and is flagged disturbed by them, as a built-in run is.
. "$(dirname "$0")/lib.sh" "$1"
SCRIPT=$(cd "$(dirname "$0")" && pwd)/lua/restart.lua
work=$(mktemp -d)
at_exit 'rm -rf "$work"'

# restart PIDFILE CMD: stop the server, wait 1 s, start CMD detached (as
# the engine's user when we are root) and wait until it answers
restart() {
    old=$SERVER_PID
    kill -TERM "$old" 2>/dev/null
    [ "$SERVER_ENGINE" = pgsql ] && kill -INT "$old" 2>/dev/null
    for i in $(seq 150); do [ -e "$1" ] || break; sleep 0.1; done
    [ -e "$1" ] && fail "$SERVER_ENGINE: the server did not stop"
    sleep 1
    if [ "$(id -u)" = 0 ] && [ "$SERVER_ENGINE" = pgsql ]; then
        su -s /bin/sh postgres -c "cd / && exec setsid $2 >/dev/null 2>&1 </dev/null" &
    else
        sh -c "cd / && exec setsid $2 >/dev/null 2>&1 </dev/null" &
    fi
    for i in $(seq 200); do
        [ -s "$1" ] && db_sql "SELECT 1" >/dev/null 2>&1 && return 0
        sleep 0.1
    done
    fail "$SERVER_ENGINE: the restarted server did not come up"
}

ran=0
for engine in pgsql mysql; do
    have_engine $engine || continue
    if [ $engine = pgsql ]; then
        start_server pgsql --conf shared_preload_libraries=pg_stat_statements
    else
        start_server mysql
    fi
    C="$SERVER_OPTS"
    [ $engine = mysql ] && C="$C --mysql-defaults-file=$MYSQL_CNF"
    base=$(server_statements)
    "$DBSCALE" "$SCRIPT" $C --threads=3 --time=8 --output=json run >"$work/out" 2>"$work/err" &
    run=$!
    # the restart comes inside the level: the server's counter past the
    # ramp (the 1 s the server then stays down is the stimulus, not a wait)
    wait_statements "$base" 30 $run "$engine: the scripted run"
    if [ $engine = pgsql ]; then
        bindir=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/postgres | sort -V | tail -1)")
        [ -n "${DBSCALE_PGBIN:-}" ] && bindir=$DBSCALE_PGBIN
        restart "$SERVER_DIR/data/postmaster.pid" "$bindir/postgres -D '$SERVER_DIR/data'"
    else
        restart "$(server_state pidfile)" "/usr/sbin/mariadbd --defaults-file='$SERVER_DIR/my.cnf'"
    fi
    wait $run
    rc=$?
    expect_eq "$engine: the run's exit after a server restart ($(tail -3 "$work/err"))" $rc 0
    n=$(grep -c '^RESTART tid=[0-9]* restarts=[1-9][0-9]* after=[1-9]' "$work/out")
    [ "$n" = 3 ] || fail "$engine: not every connection restarted its event and went on: $(grep RESTART "$work/out")"
    recon=$(sed -n 's/.*"reconnects": \([0-9]*\).*/\1/p' "$work/out" | head -n 1)
    [ "${recon:-0}" -ge 3 ] || fail "$engine: $recon reconnects counted, not 3: $(cat "$work/out")"
    # libpq's lost connection has no code: counted as "?", as the built-in
    # loops count it (MariaDB's is 2013), never under an empty name
    grep -q '"error_codes": {[^}]*"":' "$work/out" &&
        fail "$engine: an error counted under an empty code: $(cat "$work/out")"
    [ $engine = mysql ] || grep -q '"error_codes": {"?": [1-9]' "$work/out" ||
        fail "$engine: the lost connections' errors not counted as \"?\": $(cat "$work/out")"
    # flagged disturbed in the built-in mixes' words (level_result_disturbance)
    grep -q '"disturbed": true, "disturbed_why": "[^"]*[0-9] reconnects' "$work/out" ||
        fail "$engine: the reconnects did not flag the run disturbed: $(cat "$work/out")"
    # and the connections lost counted, as a built-in level counts them
    grep -q '"disturbed_why": "[^"]*[0-9] reconnects; [1-9][0-9]* lost' "$work/out" ||
        fail "$engine: the lost connections not counted: $(cat "$work/out")"
    echo "$engine: $(grep -c RESTART "$work/out") connections came back after the restart, $recon reconnects"
    # the restarted server is stopped from its pid file by stop_server
    stop_server
    ran=1
done
[ $ran = 1 ] || skip "neither PostgreSQL nor MariaDB installed"
echo "lua_restart: ok"
