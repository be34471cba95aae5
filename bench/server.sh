# bench/server.sh - sourced by the bench scripts (DBSCALE set). bench_server
# ENGINE [server start options...] starts a throwaway server in a new
# directory DIR under /tmp (the engine's user must reach it), sets port and
# conn (TCP loopback, user and database sbtest), and hands the password to
# every tool through the environment (libpq reads PGPASSFILE, Connector/C
# MYSQL_PWD), never a command line that ps shows. The caller stops DIR.
bench_server() {
    eng=$1
    shift
    DIR=$(mktemp -d /tmp/dbscale-bench-srv-XXXXXX)
    if ! "$DBSCALE" server start "$eng" --dir "$DIR" "$@" >"$DIR.log" 2>&1; then
        cat "$DIR.log" >&2
        rm -f "$DIR.log"
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
