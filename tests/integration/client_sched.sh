#!/bin/sh
# integration: alone
# --client-sched: by default (auto) an event loop runs as SCHED_BATCH once it
# serves enough connections for the engine (MariaDB: 3, PostgreSQL: 2; a
# smaller loop keeps the normal policy, see sched_policy.h), and as
# SCHED_OTHER with --client-sched=normal or, by default, with --rate (paced
# arrivals are sent on time); --client-sched=batch makes every loop of two
# or more SCHED_BATCH; the main (timing) thread keeps the normal policy
# either way. Read off /proc while a dry run (no server: the client alone)
# is going on.
. "$(dirname "$0")/lib.sh" "$1"
NO="--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=1 --mysql-dry-run=on"
# policies PID: "POLICY:COUNT " for the policy field (41) of its threads
policies() {
    sed 's/.*) //' /proc/"$1"/task/*/stat 2>/dev/null |
        awk '{ n[$39]++ } END { for (p in n) printf "%s:%s ", p, n[p] }'
}
# MODE THREADS OPTION EXPECTED: EXPECTED is the number of SCHED_BATCH
# threads (2 loops each time), 0 for none. Where 2 are expected, sampling
# stops once they are seen; where none is, every sample of the whole run
# must have none, and at least 5 of them must come after the run printed
# "Threads started!" (its loops are running, policy set): one early
# snapshot, taken before a loop set its policy, proved nothing.
out=$(mktemp)
at_exit 'rm -f "$out"'
for check in "default 6 - 2" "small 4 - 0" "batch 4 --client-sched=batch 2" \
    "normal 6 --client-sched=normal 0" "rate 6 --rate=2000 0"; do
    set -- $check
    mode=$1 threads=$2 opt=$3 want=$4
    [ "$opt" = - ] && opt=
    # (line-buffered: "Threads started!" read while the run goes on)
    stdbuf -oL "$DBSCALE" run oltp_point_select $NO --threads=$threads --client-loops=2 --time=2 $opt \
        >"$out" 2>&1 &
    pid=$!
    seen= after=0 batch= shown=
    while kill -0 $pid 2>/dev/null; do
        started=
        grep -q '^Threads started!' "$out" && started=1
        now=$(policies $pid)
        if [ -n "$now" ]; then
            seen=$now
            # a sample of the running level: started, and its 2 loops there
            nt=$(echo "$now" | tr ' ' '\n' | awk -F: '{ n += $2 } END { print n + 0 }')
            [ -n "$started" ] && [ "$nt" -ge 3 ] && after=$((after + 1)) shown=$now
            case $now in *3:*) batch="$batch [$now]" ;; esac
            [ "$want" = 2 ] && case $now in *3:2*) break ;; esac
        fi
        sleep 0.1
    done
    wait $pid || fail "$mode: the dry run failed: $(cat "$out")"
    [ -n "$seen" ] || fail "$mode: the run ended before its threads were seen"
    # SCHED_OTHER is 0, SCHED_BATCH 3
    if [ "$want" = 2 ]; then
        echo "$seen" | grep -q '3:2 ' || fail "$mode ($opt): not exactly 2 SCHED_BATCH threads (the loops): $seen"
        echo "$seen" | grep -q '0:[1-9]' || fail "$mode: no thread kept SCHED_OTHER: $seen"
    else
        [ -z "$batch" ] || fail "$mode ($threads threads on 2 loops, $opt): a SCHED_BATCH thread:$batch"
        [ "$after" -ge 5 ] || fail "$mode: only $after samples of the running loops"
        seen="$shown($after samples of the running loops)"
    fi
    echo "$mode: thread policies $seen"
done
# a Lua script's loops too, once its thread_init is done (a real server:
# scripts take no dry run)
if have_engine pgsql; then
    start_server pgsql
    script=$(mktemp /tmp/dbscale-sched-XXXXXX.lua)
    printf 'function thread_init() con = sysbench.sql.driver():connect() end\nfunction event() con:query("SELECT 1") end\n' >"$script"
    "$DBSCALE" "$script" $SERVER_OPTS --threads=4 --client-loops=2 --time=3 run >/dev/null 2>&1 &
    pid=$!
    seen=
    while kill -0 $pid 2>/dev/null; do
        now=$(policies $pid)
        [ -n "$now" ] && seen=$now
        case $now in *3:2*) break ;; esac
        sleep 0.1
    done
    wait $pid || fail "lua: the scripted run failed"
    rm -f "$script"
    echo "$seen" | grep -q '3:2 ' || fail "lua: not exactly 2 SCHED_BATCH threads (the loops): $seen"
    echo "lua: thread policies $seen"
    stop_server
fi
err=$("$DBSCALE" run oltp_point_select $NO --client-sched=fifo --events=1 2>&1 >/dev/null) &&
    fail "--client-sched=fifo was accepted"
echo "$err" | grep -q -- '--client-sched' || fail "the error does not name --client-sched: $err"
echo "client_sched: ok"
