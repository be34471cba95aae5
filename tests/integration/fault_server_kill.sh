#!/bin/sh
# integration: long
# A server that dies mid-run: when PostgreSQL crashes (a backend SIGKILLed,
# so the postmaster resets every connection) the clients count the failures,
# reconnect with backoff and the run finishes; when the server stays away
# longer than --reconnect-timeout the run stops with a clear message and a
# non-zero exit, and a sweep keeps the levels it finished.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql --conf shared_preload_libraries=pg_stat_statements
C="$SERVER_OPTS --tables=1 --table-size=1000"
ok "$DBSCALE" prepare oltp_read_only $C

# 1. crash and recovery: the run goes on
base=$(server_statements)
"$DBSCALE" run oltp_read_only $C --threads=4 --time=12 --output=json >"$work/run.json" 2>"$work/run.err" &
run=$!
# the crash comes inside the level: past the ramp's first transaction of
# each connection (oltp_read_only: 16 statements each)
wait_statements "$base" 128 $run "the 12 s run"
victim=$(for p in $(server_all_pids); do
    [ "$p" != "$SERVER_PID" ] && grep -q "sbtest" /proc/$p/cmdline 2>/dev/null && echo $p
done | head -n 1)
[ -n "$victim" ] || fail "no backend to kill"
kill -KILL "$victim"
wait $run
rc=$?
expect_eq "run exit after a crash" $rc 0
recon=$(sed -n 's/.*"reconnects": \([0-9]*\).*/\1/p' "$work/run.json")
[ "${recon:-0}" -ge 4 ] || fail "expected every connection to reconnect, got '$recon': $(cat "$work/run.json" "$work/run.err")"
errs=$(sed -n 's/.*"errors": \([0-9]*\).*/\1/p' "$work/run.json")
[ "${errs:-0}" -ge 1 ] || fail "the failures were not counted"
echo "crash: $recon reconnects, $errs errors counted, run finished"

# 2. a sweep whose server goes away for good: finished levels kept, exit 1
out=$work/sweep
"$DBSCALE" sweep oltp_read_only $C --server=external --threads=1,2,4 --repeats=3 --time=1 \
    --reconnect-timeout=2 --out "$out" >"$work/sweep.log" 2>&1 &
sweep=$!
i=0
while [ $i -lt 200 ] && ! [ -s "$out/results.csv" ]; do sleep 0.1; i=$((i + 1)); done
"$DBSCALE" server stop --dir "$SERVER_DIR" >/dev/null 2>&1
SERVER_DIR=
wait $sweep
rc=$?
expect_eq "sweep exit when the server is gone" $rc 1
grep -q "unreachable" "$work/sweep.log" || fail "no clear message: $(cat "$work/sweep.log")"
rows=$(tail -n +2 "$out/results.csv" | wc -l)
[ "$rows" -ge 1 ] || fail "finished levels lost"
grep -q '"ended": "2' "$out/meta.json" || fail "meta.json not closed"
echo "server gone: exit 1, $rows level(s) kept"
