#!/bin/sh
# bench/locality.sh - what each client's shape makes the server do between
# two statements of a connection. dbscale (its loops under SCHED_BATCH, the
# default; under the normal policy; a thread per connection,
# --client-loops=N) and sysbench drive the same throwaway server in turn.
# Over 4 s of each run: the server's CPU and its threads' voluntary
# switches (a thread that sent its reply and found no next statement
# sleeps in poll, and the client's send must wake it) and involuntary ones
# (it was preempted, usually by the client it woke, and the next statement
# is there when it runs again), per transaction. Over 1 s, the scheduler's
# switches (perf, sched:sched_switch): for every switch into a server
# thread, its reuse distance is the number of other server threads that ran
# since it last did (0: a connection's next statement finds its thread's
# data where the last one left it). The measurement behind README's
# MariaDB 4-16 connection points.
# Usage: bench/locality.sh path/to/dbscale [ENGINE [WORKLOAD [THREADS [REPEATS]]]]
set -u
DBSCALE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ENG=${2:-mysql} WL=${3:-oltp_read_only} TH=${4:-16} REPEATS=${5:-2} TIME=7
command -v perf >/dev/null || { echo "locality: perf is not installed (apt-get install linux-perf)" >&2; exit 1; }
command -v sysbench >/dev/null || { echo "locality: sysbench is not installed" >&2; exit 1; }
OUT=$(mktemp -d /tmp/dbscale-locality-XXXXXX)
. "$(dirname "$0")/server.sh"
trap 'bench_server_stop; rm -rf "$OUT"' EXIT
bench_server "$ENG" --conf max_connections=$((TH + 20)) || exit 1
conn="$conn --tables=4 --table-size=10000"
"$DBSCALE" prepare "$WL" $conn >/dev/null || exit 1
spid=$(sed -n 's/^pid=//p' "$DIR/state")
if [ "$ENG" = pgsql ]; then comm=postgres; else comm=mariadbd; fi
hz=$(getconf CLK_TCK)
# voluntary and involuntary switches of every server task (threads, children)
server_switches() {
    for c in "$spid" $(pgrep -P "$spid"); do cat /proc/"$c"/task/*/status 2>/dev/null; done |
        awk '/^voluntary_ctxt/ {v += $2} /^nonvoluntary_ctxt/ {n += $2} END {print v + 0, n + 0}'
}
one() { # TOOL: one run, one line
    label=$1
    case $1 in
    sysbench) set -- sysbench "$WL" $conn --threads="$TH" --time=$TIME run ;;
    normal) set -- "$DBSCALE" run "$WL" $conn --threads="$TH" --time=$TIME --client-sched=normal ;;
    threads) set -- "$DBSCALE" run "$WL" $conn --threads="$TH" --time=$TIME --client-loops="$TH" ;;
    *) set -- "$DBSCALE" run "$WL" $conn --threads="$TH" --time=$TIME ;;
    esac
    "$@" >"$OUT/run" 2>&1 &
    sleep 1
    c0=$(server_ticks live) s0=$(server_switches)
    sleep 4
    c1=$(server_ticks live) s1=$(server_switches)
    perf record -q -e sched:sched_switch -a -o "$OUT/sw.data" -- sleep 1 2>/dev/null
    wait
    tps=$(sed -n 's/^ *transactions: *[0-9]* *(\([0-9.]*\) per sec.*/\1/p' "$OUT/run")
    [ -n "$tps" ] || { tail -5 "$OUT/run" >&2; exit 1; }
    perf script -i "$OUT/sw.data" -F trace 2>/dev/null | awk -v comm="$comm" -v label="$label" \
        -v tps="$tps" -v cpu="$(echo "$c0 $c1 $hz" | awk '{print ($2 - $1) / $3 / 4}')" \
        -v sw="$s0 $s1" '
    {
        for (i = 1; i <= NF; i++)
            if ($i ~ /^next_comm=/) { nc = substr($i, 11); split($(i + 1), a, "="); np = a[2] }
    }
    nc == comm {
        t++
        if (np in last) {
            d = 0
            for (k in last) if (last[k] > last[np]) d++
            h[d]++; sum += d; n++
        }
        last[np] = t
    }
    END {
        near = h[0] + h[1]
        split(sw, w, " ")
        printf "%-8s %7.1f tps  server %5.0f us/txn  sleeps %5.2f  preempted %5.2f /txn  reuse distance %5.2f (0-1: %4.1f%%)\n",
            label, tps, cpu * 1e6 / tps, (w[3] - w[1]) / (4 * tps), (w[4] - w[2]) / (4 * tps),
            n ? sum / n : 0, n ? 100 * near / n : 0
    }'
}
echo "$ENG $WL, $TH connections, $REPEATS rounds (dbscale: loops under SCHED_BATCH; normal: under SCHED_OTHER; threads: one per connection)"
i=0
while [ $i -lt "$REPEATS" ]; do
    for tool in dbscale normal threads sysbench; do one $tool; done
    i=$((i + 1))
done
