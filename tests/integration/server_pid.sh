#!/bin/sh
# sweep --server-pid must name the server: a pid that listens on the given
# port, or whose executable is the engine's server. Anything else (abc, -5,
# 0, a missing pid, an unrelated sleep, init) exits 2 before anything is
# measured or re-pinned; the real postmaster is accepted.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
sleep 60 &
sleeper=$!
at_exit 'kill $sleeper 2>/dev/null; rm -rf "$work"'
start_server pgsql
C="$SERVER_OPTS --tables=1 --table-size=100 --server=external --threads=1 --repeats=1 --time=0.3"
ok "$DBSCALE" prepare oltp_point_select $SERVER_OPTS --tables=1 --table-size=100
n=0
# init (1) last: on a dbscale without the check it would be re-pinned
for p in abc -5 0 4194304999 999999 "$sleeper" 1; do
    n=$((n + 1))
    "$DBSCALE" sweep oltp_point_select $C --server-pid="$p" --out "$work/r$n" >"$work/out" 2>&1
    expect_eq "--server-pid=$p exit" $? 2
    grep -q -- "--server-pid" "$work/out" || fail "--server-pid=$p: unclear message: $(cat "$work/out")"
    [ -e "$work/r$n/results.csv" ] && fail "--server-pid=$p: a level was measured"
done
"$DBSCALE" sweep oltp_point_select $C --server-pid="$SERVER_PID" --out "$work/ok" >"$work/out" 2>&1 ||
    fail "the real server pid was refused: $(cat "$work/out")"
echo "--server-pid checked"
