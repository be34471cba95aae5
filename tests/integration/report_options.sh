#!/bin/sh
# The run-time options of sysbench's report, each doing what sysbench 1.0.20
# does (written from running it):
#  --verbosity=0..5   0-2: nothing on stdout (errors still on stderr); 3 the
#                     usual report; 4 adds "Time limit exceeded, exiting..."
#                     and "Done."; 5 adds DEBUG lines; 6 is refused.
#  --forced-shutdown  "Forcing shutdown in N seconds" in the header; when a
#                     transaction still runs N s after --time, sysbench's
#                     FATAL line, the report with the number of unfinished
#                     transactions, exit 2.
#  --report-checkpoints=1,2  a full report at each second listed, then the
#                     counters start again: the reports' events add up to
#                     the transactions counted (the txn log), once each.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
start_server pgsql
T=$SERVER_DIR/ropt
mkdir -p "$T"
ok "$DBSCALE" prepare oltp_point_select $SERVER_OPTS --tables=1 --table-size=1000
RUN="$DBSCALE run oltp_point_select $SERVER_OPTS --tables=1 --table-size=1000 --threads=2"

# --verbosity
for v in 0 1 2; do
    $RUN --time=0.3 --verbosity=$v >"$T/v.out" 2>"$T/v.err" || fail "--verbosity=$v: $(cat "$T/v.err")"
    [ -s "$T/v.out" ] && fail "--verbosity=$v printed: $(head -3 "$T/v.out")"
done
$RUN --time=0.3 --verbosity=3 >"$T/v3.out" 2>&1 || fail "--verbosity=3: $(cat "$T/v3.out")"
grep -q '^SQL statistics:' "$T/v3.out" || fail "--verbosity=3: no report"
grep -q 'exiting' "$T/v3.out" && fail "--verbosity=3 shows level 4's lines"
$RUN --time=0.3 --verbosity=4 >"$T/v4.out" 2>&1 || fail "--verbosity=4: $(cat "$T/v4.out")"
sed -n '/^Threads started!/,/^Done\.$/p' "$T/v4.out" >"$T/v4.mid"
printf 'Threads started!\n\nTime limit exceeded, exiting...\nDone.\n' | cmp -s - "$T/v4.mid" ||
    fail "--verbosity=4: between start and report: $(cat "$T/v4.mid")"
$RUN --time=0 --events=10 --verbosity=4 >"$T/v4e.out" 2>&1 || fail "--verbosity=4 --events: $(cat "$T/v4e.out")"
grep -q '^Event limit exceeded, exiting...$' "$T/v4e.out" || fail "--events at 4: $(cat "$T/v4e.out")"
$RUN --time=0.3 --verbosity=5 >"$T/v5.out" 2>&1 || fail "--verbosity=5: $(cat "$T/v5.out")"
grep -q '^DEBUG: ' "$T/v5.out" || fail "--verbosity=5: no DEBUG line"
$RUN --time=0.3 --verbosity=6 >/dev/null 2>"$T/err"
expect_eq "--verbosity=6: exit" "$?" 2
grep -q verbosity "$T/err" || fail "--verbosity=6 refusal does not name it: $(cat "$T/err")"
# an error is still said at 0
$DBSCALE run oltp_point_select --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=1 \
    --time=0.3 --verbosity=0 >"$T/v.out" 2>"$T/v.err"
[ $? -ne 0 ] || fail "--verbosity=0 against no server: exit 0"
[ -s "$T/v.err" ] || fail "--verbosity=0 hid the connection error"

# --forced-shutdown: a lock holds every statement past --time
for bad in x -1 12%x 5x; do
    $RUN --time=0.3 --forced-shutdown=$bad >/dev/null 2>"$T/err"
    expect_eq "--forced-shutdown=$bad: exit" "$?" 2
    grep -q forced-shutdown "$T/err" || fail "--forced-shutdown=$bad: $(cat "$T/err")"
done
$RUN --time=1 --forced-shutdown=100% --verbosity=3 >"$T/fs0.out" 2>&1 ||
    fail "--forced-shutdown=100% (nothing held): $(cat "$T/fs0.out")"
grep -q '^Forcing shutdown in 2 seconds$' "$T/fs0.out" || fail "header: $(head -8 "$T/fs0.out")"
# the lock comes once the run is going (a lock before it would only hold up
# the connections' PREPAREs), and lasts past --time and the grace
$RUN --time=2 --forced-shutdown=1 >"$T/fs.out" 2>"$T/fs.err" &
RUNNER=$!
i=0
until grep -q '^Threads started!' "$T/fs.out"; do
    i=$((i + 1))
    [ $i -lt 100 ] || fail "the run did not start: $(cat "$T/fs.out" "$T/fs.err")"
    sleep 0.05
done
psql -X -w -q -h 127.0.0.1 -p "$SERVER_PORT" -U "$SERVER_USER" -d "$SERVER_DB" \
    -c "BEGIN; LOCK TABLE sbtest1; SELECT pg_sleep(8); COMMIT" >/dev/null 2>&1 &
LOCKER=$!
wait "$RUNNER"
rc=$?
pg_sql "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'BEGIN; LOCK TABLE%'" >/dev/null
wait "$LOCKER" 2>/dev/null
expect_eq "forced shutdown: exit" "$rc" 2
grep -q '^Forcing shutdown in 3 seconds$' "$T/fs.out" || fail "header: $(head -8 "$T/fs.out")"
grep -q '^FATAL: The --max-time limit has expired, forcing shutdown...$' "$T/fs.out" ||
    fail "no forcing-shutdown line: $(cat "$T/fs.out" "$T/fs.err")"
grep -q '^Number of unfinished transactions on forced shutdown: 2$' "$T/fs.out" ||
    fail "unfinished count: $(cat "$T/fs.out")"
# sysbench's place for it: after SQL statistics' blank line, before General statistics
sed -n '/reconnects:  /,/^General statistics:/p' "$T/fs.out" | sed -n 2,4p >"$T/fs.mid"
printf '\nNumber of unfinished transactions on forced shutdown: 2\n\n' | cmp -s - "$T/fs.mid" ||
    fail "unfinished line misplaced: $(cat "$T/fs.mid")"
pg_sql "SELECT 1" >/dev/null || fail "server unusable after the forced shutdown"

# --report-checkpoints
for bad in x 0 2,x -1; do
    $RUN --time=0.3 --report-checkpoints=$bad >/dev/null 2>"$T/err"
    expect_eq "--report-checkpoints=$bad: exit" "$?" 2
    grep -q report-checkpoints "$T/err" || fail "--report-checkpoints=$bad: $(cat "$T/err")"
done
DBSCALE_TXN_LOG=$T/txn.log $RUN --time=3 --report-checkpoints=2,1 --report-interval=1 \
    >"$T/ck.out" 2>"$T/ck.err" || fail "checkpoints: $(cat "$T/ck.err")"
grep -q '^Report checkpoint(s) at 1, 2 seconds$' "$T/ck.out" || fail "header: $(head -8 "$T/ck.out")"
expect_eq "checkpoint reports" "$(grep -c 'Checkpoint report:$' "$T/ck.out")" 2
grep -q '^\[ 1s \] Checkpoint report:$' "$T/ck.out" || fail "no 1s checkpoint: $(cat "$T/ck.out")"
grep -q '^\[ 2s \] Checkpoint report:$' "$T/ck.out" || fail "no 2s checkpoint: $(cat "$T/ck.out")"
expect_eq "SQL statistics sections" "$(grep -c '^SQL statistics:' "$T/ck.out")" 3
sum=$(grep 'total number of events:' "$T/ck.out" | awk '{s += $5} END {print s}')
logged=$(grep -vc '^#' "$T/txn.log")
expect_eq "events of the three reports = transactions counted" "$sum" "$logged"
# each report has events; the last one's total time runs from the start, as sysbench's
for n in $(grep 'total number of events:' "$T/ck.out" | awk '{print $5}'); do
    [ "$n" -gt 0 ] || fail "a checkpoint period with no events: $(cat "$T/ck.out")"
done
last=$(grep 'total time:' "$T/ck.out" | tail -1 | awk '{print $3}' | tr -d s)
awk -v t="$last" 'BEGIN { exit !(t >= 2.9) }' || fail "final total time $last s: not from the start"
echo "report_options: verbosity, forced shutdown and checkpoints as sysbench"
exit 0
