#!/bin/sh
# integration: alone
# SIGINT / SIGTERM end every verb with 128 + the signal (130 / 143), as the
# README says: during a managed sweep's prepare the sweep finishes the load,
# stops and removes its throwaway server and exits 143; during run's warmup
# the report is still printed and the exit is 130, mid-measurement SIGTERM
# gives 143; an external sweep mid-level gives 130 / 143; micro gives 130 /
# 143 with its tasks gone. Also: more threads than max_connections is refused
# before anything starts, naming the limit.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
chmod 755 "$work" # the managed server runs as postgres and lives under it
at_exit '[ -n "$KEEP" ] || rm -rf "$work"'
count_pg() { ps -eo args | grep -c "[p]ostgres -D $work" || true; }

# 1. SIGTERM during the sweep's prepare (its server lives under $work via TMPDIR)
TMPDIR=$work "$DBSCALE" sweep oltp_read_only --db-driver=pgsql --tables=4 --table-size=100000 \
    --threads=1 --time=1 --out "$work/r" >"$work/log" 2>&1 &
pid=$!
i=0
while [ $i -lt 300 ] && ! grep -q "preparing" "$work/log"; do sleep 0.1; i=$((i + 1)); done
grep -q "preparing" "$work/log" || { kill -KILL $pid; fail "prepare never started: $(cat "$work/log")"; }
sleep 0.3
kill -TERM $pid
wait $pid
rc=$?
expect_eq "exit after SIGTERM during prepare" $rc 143
grep -q "interrupted" "$work/log" || fail "no interrupt message: $(cat "$work/log")"
sleep 0.5
expect_eq "throwaway postgres processes left" "$(count_pg)" 0

# 2. SIGINT during run's warmup: the (empty) report still comes, exit 130
start_server pgsql
C="$SERVER_OPTS --tables=1 --table-size=500"
ok "$DBSCALE" prepare oltp_point_select $C
"$DBSCALE" run oltp_point_select $C --threads=2 --warmup-time=5 --time=5 >"$work/run" 2>&1 &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
rc=$?
expect_eq "exit after SIGINT during warmup" $rc 130
grep -q "transactions:" "$work/run" || fail "no report after SIGINT: $(cat "$work/run")"

# 3. SIGTERM mid-measurement: the report still comes, exit 143
"$DBSCALE" run oltp_point_select $C --threads=2 --time=10 >"$work/run2" 2>&1 &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid
rc=$?
expect_eq "exit after SIGTERM while measuring" $rc 143
grep -q "transactions:" "$work/run2" || fail "no report after SIGTERM: $(cat "$work/run2")"

# 4. an external sweep interrupted mid-level, by each signal
for sig in INT TERM; do
    "$DBSCALE" sweep oltp_point_select $C --server=external --cpus=1 --threads=1 --time=30 \
        --repeats=1 --out "$work/s$sig" >"$work/sweep$sig" 2>&1 &
    pid=$!
    i=0
    # meta.json is written before the first level starts
    while [ $i -lt 200 ] && ! [ -f "$work/s$sig/meta.json" ]; do sleep 0.1; i=$((i + 1)); done
    sleep 1.5
    kill -$sig $pid
    wait $pid
    rc=$?
    want=130
    [ $sig = TERM ] && want=143
    [ $rc = $want ] || fail "sweep exit after SIG$sig: got $rc, want $want: $(cat "$work/sweep$sig")"
done

# 5. micro, by each signal: 128 + the signal, no task left behind
for sig in INT TERM; do
    "$DBSCALE" micro getppid1 --tasks=1 --mode=process --samples=200 >"$work/micro$sig" 2>&1 &
    pid=$!
    sleep 1
    kill -$sig $pid
    wait $pid
    rc=$?
    want=130
    [ $sig = TERM ] && want=143
    [ $rc = $want ] || fail "micro exit after SIG$sig: got $rc, want $want: $(cat "$work/micro$sig")"
done

# 6. more threads than the server accepts
"$DBSCALE" run oltp_point_select $C --threads=500 --time=1 >"$work/mc" 2>&1
rc=$?
expect_eq "exit with threads above max_connections" $rc 2
grep -q "max_connections" "$work/mc" || fail "no mention of max_connections: $(cat "$work/mc")"
echo "signals: every verb exits 128 + the signal; max_connections checked"
