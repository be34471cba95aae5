# bench/server.sh - sourced by the bench scripts (DBSCALE set). bench_server
# ENGINE [server start options...] starts a throwaway server in a new
# directory DIR under /tmp (the engine's user must reach it), sets port and
# conn (TCP loopback, user and database sbtest), and hands the password to
# every tool through the environment (libpq reads PGPASSFILE, Connector/C
# MYSQL_PWD), never a command line that ps shows. bench_server_stop stops
# and removes it; sourcing this file sets the traps that do so on any exit
# (a script with more to remove sets its own EXIT trap after sourcing).
# server_ticks reads the server's CPU (below).
DIR=
bench_server_stop() {
    [ -n "$DIR" ] && "$DBSCALE" server stop --dir "$DIR" >/dev/null 2>&1
    [ -n "$DIR" ] && rm -rf "$DIR"
    DIR=
}
trap bench_server_stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 141' PIPE
bench_server() {
    eng=$1
    shift
    DIR=$(mktemp -d /tmp/dbscale-bench-srv-XXXXXX)
    if ! "$DBSCALE" server start "$eng" --dir "$DIR" "$@" >"$DIR.log" 2>&1; then
        cat "$DIR.log" >&2
        rm -f "$DIR.log"
        rm -rf "$DIR"
        DIR=
        return 1
    fi
    rm -f "$DIR.log"
    port=$(sed -n 's/^port=//p' "$DIR/state")
    if [ "$eng" = pgsql ]; then
        PGPASSFILE=$DIR/pgpass
        export PGPASSFILE
    else
        MYSQL_PWD=$(sed -n 's/^password=//p' "$DIR/client.cnf")
        export MYSQL_PWD
    fi
    conn="--db-driver=$eng --$eng-host=127.0.0.1 --$eng-port=$port --$eng-user=sbtest --$eng-db=sbtest"
}
# server_ticks [live]: the server's CPU so far in clock ticks (spid: its
# pid): its own, its threads' and its reaped children's; with live, its live
# children's too (mid-run, PostgreSQL's backends are not reaped yet)
server_ticks() {
    t=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$spid/stat" 2>/dev/null || echo 0)
    if [ "${1:-}" = live ]; then
        for c in $(pgrep -P "$spid"); do
            t=$((t + $(awk '{ print $14 + $15 }' "/proc/$c/stat" 2>/dev/null || echo 0)))
        done
    fi
    echo "$t"
}
