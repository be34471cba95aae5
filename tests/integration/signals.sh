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
# SIGTERM once the load is under way: rows in the managed server's sbtest1
# (asked through its own state and password file)
msrv_sql() {
    d=$(ls -d "$work"/dbscale-pgsql-* 2>/dev/null | head -n 1)
    [ -n "$d" ] && [ -s "$d/state" ] || return 1
    PGPASSFILE=$d/pgpass psql -X -w -q -At -h 127.0.0.1 -p "$(sed -n 's/^port=//p' "$d/state")" \
        -U "$(sed -n 's/^user=//p' "$d/state")" -d "$(sed -n 's/^db=//p' "$d/state")" -c "$1" 2>/dev/null
}
i=0
until [ "$(msrv_sql "SELECT n_tup_ins > 0 FROM pg_stat_user_tables WHERE relname = 'sbtest1'
                     UNION ALL SELECT EXISTS (SELECT 1 FROM pg_stat_activity
                     WHERE query ~* '^(insert|copy)' AND state = 'active')" | grep -c t)" -ge 1 ]; do
    i=$((i + 1))
    [ $i -lt 300 ] && kill -0 $pid 2>/dev/null || { kill -KILL $pid; fail "no load seen: $(cat "$work/log")"; }
    sleep 0.1
done
kill -TERM $pid
wait $pid
rc=$?
expect_eq "exit after SIGTERM during prepare" $rc 143
grep -q "interrupted" "$work/log" || fail "no interrupt message: $(cat "$work/log")"
grep -q "Done\.\|^dbscale sweep: 1 levels" "$work/log" && fail "the prepare had finished: $(cat "$work/log")"
i=0
while [ "$(count_pg)" != 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect_eq "throwaway postgres processes left" "$(count_pg)" 0

# 2. SIGINT during run's warmup: the (empty) report still comes, exit 130
# (the waits below: the server's statement counter, not sleeps)
start_server pgsql --conf shared_preload_libraries=pg_stat_statements
C="$SERVER_OPTS --tables=1 --table-size=500"
ok "$DBSCALE" prepare oltp_point_select $C
base=$(server_statements)
"$DBSCALE" run oltp_point_select $C --threads=2 --warmup-time=5 --time=5 >"$work/run" 2>&1 &
pid=$!
wait_statements "$base" 10 $pid "the warmup"
kill -INT $pid
wait $pid
rc=$?
expect_eq "exit after SIGINT during warmup" $rc 130
grep -q "transactions:" "$work/run" || fail "no report after SIGINT: $(cat "$work/run")"

# 3. SIGTERM mid-measurement: the report still comes, exit 143
base=$(server_statements)
"$DBSCALE" run oltp_point_select $C --threads=2 --time=10 >"$work/run2" 2>&1 &
pid=$!
wait_statements "$base" 10 $pid "the 10 s level"
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
    base=$(server_statements)
    wait_statements "$base" 10 $pid "the sweep's level"
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
    # once its task process runs
    i=0
    until task=$(ps -o pid= --ppid $pid | tr -d ' ') && [ -n "$task" ]; do
        i=$((i + 1))
        [ $i -lt 300 ] && kill -0 $pid 2>/dev/null || fail "micro's task never seen: $(cat "$work/micro$sig")"
        sleep 0.1
    done
    kill -$sig $pid
    wait $pid
    rc=$?
    want=130
    [ $sig = TERM ] && want=143
    [ $rc = $want ] || fail "micro exit after SIG$sig: got $rc, want $want: $(cat "$work/micro$sig")"
    for t in $task; do
        st=$(ps -o stat= -p "$t") && case $st in Z*) ;; *) fail "micro's task $t is left ($st)" ;; esac
    done
done

# 6. more threads than the server accepts
"$DBSCALE" run oltp_point_select $C --threads=500 --time=1 >"$work/mc" 2>&1
rc=$?
expect_eq "exit with threads above max_connections" $rc 2
grep -q "max_connections" "$work/mc" || fail "no mention of max_connections: $(cat "$work/mc")"
echo "signals: every verb exits 128 + the signal; max_connections checked"
