#!/bin/sh
# `server stop` after the server restarted under another pid (the state
# file's pid is gone): the live pid comes from the engine's own pid file
# (postmaster.pid, mariadbd's pid-file), that server is stopped, and only then
# is the directory removed. Exit 0, no server process left.
. "$(dirname "$0")/lib.sh" "$1"

# restart_as CMD: run CMD detached as the engine's user when we are root.
restart_as() {
    if [ "$(id -u)" = 0 ] && [ "$SERVER_ENGINE" = pgsql ]; then
        su -s /bin/sh postgres -c "cd / && exec setsid $1 >/dev/null 2>&1 </dev/null" &
    else
        sh -c "cd / && exec setsid $1 >/dev/null 2>&1 </dev/null" & # mariadbd drops to user= itself
    fi
}

# check_restarted PIDFILE CMD
check_restarted() {
    dir=$SERVER_DIR
    old=$SERVER_PID
    kill -TERM "$old" 2>/dev/null
    [ "$SERVER_ENGINE" = pgsql ] && kill -INT "$old" 2>/dev/null
    for i in $(seq 150); do [ -e "$1" ] || break; sleep 0.1; done
    [ -e "$1" ] && fail "$SERVER_ENGINE: the first server did not stop"
    restart_as "$2"
    new=
    for i in $(seq 200); do
        new=$(head -1 "$1" 2>/dev/null)
        [ -n "$new" ] && db_sql "SELECT 1" >/dev/null 2>&1 && break
        sleep 0.1
    done
    [ -n "$new" ] && [ "$new" != "$old" ] || fail "$SERVER_ENGINE: the restarted server did not come up"
    "$DBSCALE" server stop --dir "$dir" >"$dir.out" 2>&1
    rc=$?
    if [ -r "/proc/$new/stat" ] && [ "$(cut -d' ' -f3 "/proc/$new/stat")" != Z ]; then
        kill -KILL "$new" 2>/dev/null
        fail "$SERVER_ENGINE: stop (exit $rc) left the restarted server $new running: $(cat "$dir.out")"
    fi
    rm -f "$dir.out"
    expect_eq "$SERVER_ENGINE stop exit" $rc 0
    [ -e "$dir" ] && fail "$SERVER_ENGINE: $dir still exists after stop"
    SERVER_DIR=
    trap - EXIT
    echo "$SERVER_ENGINE: the restarted server (pid $new) was stopped"
}

ran=0
if have_engine pgsql; then
    start_server pgsql
    bindir=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/postgres | sort -V | tail -1)")
    [ -n "${DBSCALE_PGBIN:-}" ] && bindir=$DBSCALE_PGBIN
    check_restarted "$SERVER_DIR/data/postmaster.pid" "$bindir/postgres -D '$SERVER_DIR/data'"
    ran=1
fi
if have_engine mysql; then
    start_server mysql
    check_restarted "$(server_state pidfile)" "/usr/sbin/mariadbd --defaults-file='$SERVER_DIR/my.cnf'"
    ran=1
fi
[ $ran = 1 ] || skip "neither PostgreSQL nor MariaDB installed"
