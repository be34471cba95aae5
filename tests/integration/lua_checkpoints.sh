#!/bin/sh
# --report-checkpoints for scripts, as for the built-in mixes (and as
# sysbench runs them): at each listed second the full report of the time
# since the last one, then the counters start again. lua/count.lua's
# connections tell the server how many events each ran, so the reports'
# events must add up to what ran, each counted once. With the script's
# report_cumulative hook, the hook gets each checkpoint's figures, as
# sysbench calls it. Machine output refuses checkpoints (exit 2).
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql
S=$(dirname "$0")/lua/count.lua
HOOKS=$(dirname "$0")/lua/hooks.lua
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
ok "$DBSCALE" "$S" $SERVER_OPTS prepare

# (--ramp-timeout=0: events of the ramp before the window would run uncounted)
"$DBSCALE" "$S" $SERVER_OPTS --threads=2 --time=3 --ramp-timeout=0 --report-checkpoints=2,1 --report-interval=1 \
    run >"$work/ck.out" 2>&1 || fail "checkpoints: $(cat "$work/ck.out")"
grep -q '^Report checkpoint(s) at 1, 2 seconds$' "$work/ck.out" || fail "header: $(head -8 "$work/ck.out")"
expect_eq "checkpoint reports" "$(grep -c 'Checkpoint report:$' "$work/ck.out")" 2
grep -q '^\[ 1s \] Checkpoint report:$' "$work/ck.out" || fail "no 1s checkpoint: $(cat "$work/ck.out")"
grep -q '^\[ 2s \] Checkpoint report:$' "$work/ck.out" || fail "no 2s checkpoint: $(cat "$work/ck.out")"
expect_eq "SQL statistics sections" "$(grep -c '^SQL statistics:' "$work/ck.out")" 3
for n in $(grep 'total number of events:' "$work/ck.out" | awk '{print $5}'); do
    [ "$n" -gt 0 ] || fail "a checkpoint period with no events: $(cat "$work/ck.out")"
done
sum=$(grep 'total number of events:' "$work/ck.out" | awk '{s += $5} END {print s}')
ran=$(pg_sql "SELECT sum(events) FROM lua_counts")
expect_eq "events of the three reports = events the connections ran" "$sum" "$ran"
# the transactions line of each report agrees with its events
tx=$(grep '^ *transactions:' "$work/ck.out" | awk '{s += $2} END {print s}')
expect_eq "transactions of the three reports" "$tx" "$ran"
last=$(grep 'total time:' "$work/ck.out" | tail -1 | awk '{print $3}' | tr -d s)
# the final report's total time runs from the start (the window's whole
# --time=3, which it cannot be shorter than), not from the last checkpoint
# (1 s): no upper bound, which a loaded machine could pass
awk -v t="$last" 'BEGIN { exit !(t >= 2.999) }' || fail "final total time $last s: not from the start"

# the script's report_cumulative hook: each checkpoint, then the end
"$DBSCALE" "$HOOKS" $SERVER_OPTS --time=1.5 --report-checkpoints=0.5,1 run >"$work/h.out" 2>&1 ||
    fail "hooks.lua with checkpoints: $(cat "$work/h.out")"
expect_eq "report_cumulative calls" "$(grep -c '^HOOK-C ' "$work/h.out")" 3
grep -q 'Checkpoint report' "$work/h.out" && fail "the hook did not replace the checkpoint report: $(cat "$work/h.out")"

"$DBSCALE" "$S" $SERVER_OPTS --time=1 --report-checkpoints=1 --output=json run >/dev/null 2>"$work/err"
expect_eq "--report-checkpoints --output=json: exit" "$?" 2
grep -q 'report-checkpoints' "$work/err" || fail "refusal: $(cat "$work/err")"
ok "$DBSCALE" "$S" $SERVER_OPTS cleanup
echo "lua_checkpoints: reports at 1 and 2 s, $sum events counted once each"
