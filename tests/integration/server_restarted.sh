#!/bin/sh
# `server stop` after the server restarted under another pid (the state
# file's pid is gone): the live pid comes from the engine's own pid file, that
# server is stopped, and only then is the directory removed. Exit 0, no
# server process left.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
start_server pgsql
dir=$SERVER_DIR
old=$SERVER_PID
bindir=$(dirname "$(ls -d /usr/lib/postgresql/*/bin/postgres | sort -V | tail -1)")
[ -n "${DBSCALE_PGBIN:-}" ] && bindir=$DBSCALE_PGBIN
kill -INT "$old"
for i in $(seq 100); do [ -e "$dir/data/postmaster.pid" ] || break; sleep 0.1; done
[ -e "$dir/data/postmaster.pid" ] && fail "the first postmaster did not stop"
cmd="cd / && exec setsid $bindir/postgres -D '$dir/data' >/dev/null 2>&1 </dev/null"
if [ "$(id -u)" = 0 ]; then
    su -s /bin/sh postgres -c "$cmd" &
else
    sh -c "$cmd" &
fi
new=
for i in $(seq 150); do
    new=$(head -1 "$dir/data/postmaster.pid" 2>/dev/null)
    [ -n "$new" ] && pg_sql "SELECT 1" >/dev/null 2>&1 && break
    sleep 0.1
done
[ -n "$new" ] && [ "$new" != "$old" ] || fail "the restarted postmaster did not come up"
"$DBSCALE" server stop --dir "$dir" >"$dir.out" 2>&1
rc=$?
alive=0
[ -r "/proc/$new/stat" ] && [ "$(cut -d' ' -f3 "/proc/$new/stat")" != Z ] && alive=1
if [ $alive = 1 ]; then
    kill -KILL "$new" 2>/dev/null
    fail "stop (exit $rc) left the restarted postmaster $new running: $(cat "$dir.out")"
fi
rm -f "$dir.out"
expect_eq "stop exit" $rc 0
[ -e "$dir" ] && fail "$dir still exists after stop"
SERVER_DIR=
echo "the restarted server (pid $new) was stopped"
