#!/bin/sh
# bench/kit.sh - a third-party sysbench kit (Percona-Lab/sysbench-tpcc's
# tpcc.lua, say; not shipped here) run by dbscale and by sysbench 1.0.20 on
# the same throwaway server: the kit's own prepare once (by dbscale), then
# REPEATS rounds in which every arm runs once, the order rotating, then the
# kit's own check. Prints the paired ratio tables (bench/ratios.awk):
# dbscale / sysbench, dbscale --client-sched=normal / sysbench, and normal /
# dbscale's default (what the loops' scheduling policy costs a lock-heavy
# kit). Client CPU is user+sys of the whole client process (GNU time) over
# the transactions it reports, the same ruler for every tool.
# Usage: bench/kit.sh path/to/dbscale path/to/kit/main.lua [kit options...]
#   e.g. bench/kit.sh build/dbscale /tmp/tpcc/tpcc.lua --tables=1 --scale=1 --use_fk=1
# Knobs (environment): ENGINES="pgsql mysql" THREADS=4 REPEATS=3 TIME=15
# TOOLS="dbscale sysbench normal" (the arms).
set -u
[ $# -ge 2 ] || { echo "usage: $0 path/to/dbscale path/to/kit/main.lua [kit options...]" >&2; exit 2; }
DBSCALE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
KIT=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
shift 2
ENGINES=${ENGINES:-pgsql mysql}
THREADS=${THREADS:-4}
REPEATS=${REPEATS:-3}
TIME=${TIME:-15}
TOOLS=${TOOLS:-dbscale sysbench normal}
command -v sysbench >/dev/null || { echo "bench: sysbench is not installed (make deps)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
[ -f "$KIT" ] || { echo "bench: no kit at $KIT" >&2; exit 1; }
OUT=$(mktemp -d /tmp/dbscale-bench-kit-XXXXXX)
RAW_SB=$OUT/dbscale_vs_sysbench.tsv
RAW_NS=$OUT/normal_vs_sysbench.tsv
RAW_ND=$OUT/normal_vs_default.tsv
for f in "$RAW_SB" "$RAW_NS" "$RAW_ND"; do
    printf 'engine\tworkload\tthreads\trep\ttool\ttps\tcpu_us_per_txn\n' >"$f"
done
BENCH=$(cd "$(dirname "$0")" && pwd)
. "$BENCH/server.sh"
wl=$(basename "$KIT" .lua)
ntools=$(set -- $TOOLS; echo $#)
# rotate K ARM...: the arms, the first K moved to the end
rotate() {
    k=$1
    shift
    while [ "$k" -gt 0 ]; do x=$1; shift; set -- "$@" "$x"; k=$((k - 1)); done
    echo "$*"
}
# the kit's own files (tpcc_common.lua ...) sit beside it: run from there
cd "$(dirname "$KIT")" || exit 1

# measure TOOL ENGINE REP -- command...: under GNU time, into the tables
# that give TOOL a role
measure() {
    tool=$1 eng=$2 rep=$3
    shift 4
    /usr/bin/time -f '%U %S' -o "$OUT/time" "$@" >"$OUT/out" 2>&1 || {
        echo "bench: $tool failed:" >&2; tail -5 "$OUT/out" >&2; return 1; }
    n=$(sed -n 's/^ *transactions: *\([0-9]*\).*/\1/p' "$OUT/out")
    tps=$(sed -n 's/^ *transactions: *[0-9]* *(\([0-9.]*\) per sec.*/\1/p' "$OUT/out")
    ign=$(sed -n 's/^ *ignored errors: *\([0-9]*\).*/\1/p' "$OUT/out")
    cpu=$(awk -v n="$n" '{ if (n > 0) printf "%.1f", ($1 + $2) * 1e6 / n; else print "nan" }' "$OUT/time")
    row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$eng" "$wl" "$THREADS" "$rep" "$1" "$tps" "$cpu" >>"$2"; }
    case $tool in
    dbscale) row dbscale "$RAW_SB"; row default "$RAW_ND" ;;
    sysbench) row sysbench "$RAW_SB"; row sysbench "$RAW_NS" ;;
    normal) row dbscale "$RAW_NS"; row dbscale "$RAW_ND" ;;
    esac
    printf '  %-6s rep %s %-9s %9s tps %9s us/txn %8s ignored errors\n' "$eng" "$rep" "$tool" "$tps" "$cpu" "${ign:-?}"
}

for eng in $ENGINES; do
    bench_server "$eng" || exit 1
    echo "$eng: the kit's prepare ($*)"
    "$DBSCALE" "$KIT" $conn "$@" --threads=1 prepare >"$OUT/prepare" 2>&1 || {
        echo "bench: prepare failed:" >&2; tail -5 "$OUT/prepare" >&2; exit 1; }
    rep=1
    while [ $rep -le "$REPEATS" ]; do
        order=$(rotate $((rep % ntools)) $TOOLS)
        for tool in $order; do
            case $tool in
            dbscale) measure $tool "$eng" $rep -- "$DBSCALE" "$KIT" $conn "$@" --threads="$THREADS" --time="$TIME" run ;;
            normal) measure $tool "$eng" $rep -- "$DBSCALE" "$KIT" $conn "$@" --threads="$THREADS" --time="$TIME" --client-sched=normal run ;;
            sysbench) measure $tool "$eng" $rep -- sysbench "$KIT" $conn "$@" --threads="$THREADS" --time="$TIME" run ;;
            esac
        done
        rep=$((rep + 1))
    done
    if "$DBSCALE" "$KIT" $conn "$@" check >"$OUT/check" 2>&1; then
        echo "$eng: the kit's check passed after every run"
    else
        echo "$eng: the kit's check FAILED:"; tail -5 "$OUT/check"
    fi
    bench_server_stop
done

# table ARM PEER RAW TITLE: the paired ratios of RAW, only where both arms ran
table() {
    case " $TOOLS " in *" $1 "*) ;; *) return ;; esac
    case " $TOOLS " in *" $2 "*) ;; *) return ;; esac
    echo
    echo "$4"
    awk -f "$BENCH/ratios.awk" "$3"
}
table dbscale sysbench "$RAW_SB" "$wl, dbscale / sysbench, paired over $REPEATS repeats: median (min-max)."
table normal sysbench "$RAW_NS" "$wl, dbscale --client-sched=normal / sysbench."
table normal dbscale "$RAW_ND" "$wl, dbscale --client-sched=normal / dbscale's default."
echo
echo "raw measurements: $OUT"
