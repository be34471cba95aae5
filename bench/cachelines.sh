#!/bin/sh
# bench/cachelines.sh - what one transaction costs the client in memory
# traffic: the instructions it runs and the cache lines it must fetch from
# memory, for sysbench running one of its Lua scripts, dbscale running the
# same script, and dbscale's built-in C mix of the same name, side by side.
#
# Why: at hundreds of connections a scripted run costs more than the C mix
# per transaction, and this VM has no hardware counters to say whether that
# is work or waiting on memory. cachegrind simulates the caches instead,
# with a last level of 256 KB so that (from a few dozen connections) nothing
# of one connection's state is still cached when its next event comes, as
# on a machine whose caches the server's backends keep filling. The misses
# per transaction are then the memory one event touches. The server runs
# outside valgrind. Setup and teardown cancel out: each tool runs twice,
# TIME1 and TIME2 seconds, and the figures are the differences of the
# counts over the difference of the transactions.
#
# Usage: bench/cachelines.sh path/to/dbscale
# Knobs (environment): ENGINES="mysql pgsql" SCRIPTS="oltp_point_select"
# THREADS="64" TIME1=4 TIME2=14. Slow: valgrind runs each client about 50
# times slower, and on PostgreSQL every connection's SCRAM exchange too
# (about 0.3 s each under valgrind).
set -u
DBSCALE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ENGINES=${ENGINES:-mysql pgsql}
SCRIPTS=${SCRIPTS:-oltp_point_select}
THREADS=${THREADS:-64}
TIME1=${TIME1:-4}
TIME2=${TIME2:-14}
SB=/usr/share/sysbench
for t in sysbench valgrind cg_diff; do
    command -v $t >/dev/null || { echo "bench: $t is not installed (make deps)" >&2; exit 1; }
done
OUT=$(mktemp -d /tmp/dbscale-bench-lines-XXXXXX)
. "$(dirname "$0")/server.sh"
trap 'bench_server_stop; rm -rf "$OUT"' EXIT

# counts SECONDS -- command...: the run's transactions, then cachegrind's
# totals (Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw) on one line
counts() {
    t=$1
    shift 2
    valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=262144,8,64 \
        --cachegrind-out-file="$OUT/cg.$t" "$@" --time="$t" >"$OUT/out.$t" 2>&1 || {
        echo "bench: $* failed:" >&2; tail -5 "$OUT/out.$t" >&2; return 1; }
    n=$(sed -n 's/^ *transactions: *\([0-9]*\).*/\1/p' "$OUT/out.$t")
    printf '%s %s\n' "${n:-0}" "$(sed -n 's/^summary: //p' "$OUT/cg.$t")"
}

# measure LABEL -- command...: one row, per transaction in the steady state
measure() {
    label=$1
    shift
    a=$(counts "$TIME1" "$@") || return 1
    b=$(counts "$TIME2" "$@") || return 1
    echo "$a $b" | awk -v l="$label" -v e="$eng" -v w="$wl" -v th="$th" '
    function nn(x) { return x < 0.5 ? 0 : x }
    {
        dn = $11 - $1
        if (dn <= 0) { printf "  %-6s %-18s %4s  %-12s no transactions\n", e, w, th, l; exit }
        # a count that did not grow with the run (code that stayed cached) can come out a
        # hair below zero: it is none
        ir = nn(($12 - $2) / dn); il = nn(($14 - $4) / dn); dl = nn(($17 - $7 + $20 - $10) / dn)
        printf "  %-6s %-18s %4s  %-12s %8.0f %10.0f %10.0f %10.0f\n", e, w, th, l, ir, il, dl, il + dl }' |
        tee -a "$OUT/rows"
}

echo "Per transaction, steady state ($TIME2 s run minus $TIME1 s run), simulated 256 KB last-level cache:"
printf '  %-6s %-18s %4s  %-12s %8s %10s %10s %10s\n' engine script conns tool instr "I lines" "D lines" "all lines"
for eng in $ENGINES; do
    max=0
    for th in $THREADS; do [ "$th" -gt $max ] && max=$th; done
    bench_server "$eng" --conf max_connections=$((2 * max + 20)) || exit 1
    data="--tables=4 --table-size=10000"
    "$DBSCALE" prepare oltp_read_write $conn $data >/dev/null || exit 1
    for wl in $SCRIPTS; do
        for th in $THREADS; do
            measure sysbench -- sysbench $SB/$wl.lua $conn $data --threads="$th" run
            measure dbscale-lua -- "$DBSCALE" run $SB/$wl.lua $conn $data --threads="$th"
            measure c-mix -- "$DBSCALE" run "$wl" $conn $data --threads="$th"
        done
    done
    bench_server_stop
done
echo
echo "Against sysbench (all lines / sysbench's all lines, instructions likewise):"
awk '{ k = $1 " " $2 " " $3 } $4 == "sysbench" { si[k] = $5; sl[k] = $8 }
    $4 != "sysbench" && si[k] > 0 { printf "  %-6s %-18s %4s  %-12s instr %.2f  lines %.2f\n", $1, $2, $3, $4, $5 / si[k], $8 / sl[k] }' "$OUT/rows"
