#!/bin/sh
# bench/run.sh - dbscale against sysbench (and pgbench) on the same throwaway
# server, workload and transport, interleaved, with repeats; prints a ratio
# table. Usage: bench/run.sh path/to/dbscale
# Knobs (environment): ENGINES="pgsql mysql" WORKLOADS="oltp_read_only
# oltp_read_write" THREADS="1 2 4 8 16" REPEATS=3 TIME=8 TABLES=4 SIZE=10000
# PGBENCH=1 (also pgbench -S against dbscale oltp_point_select on pgsql).
# Client CPU is user+sys of the whole client process (GNU time), divided by
# the transactions it reports: the same ruler for every tool.
set -u
DBSCALE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ENGINES=${ENGINES:-pgsql mysql}
WORKLOADS=${WORKLOADS:-oltp_read_only oltp_read_write}
THREADS=${THREADS:-1 2 4 8 16}
REPEATS=${REPEATS:-3}
TIME=${TIME:-8}
TABLES=${TABLES:-4}
SIZE=${SIZE:-10000}
PGBENCH=${PGBENCH:-1}
command -v sysbench >/dev/null || { echo "bench: sysbench is not installed (make deps)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
OUT=$(mktemp -d /tmp/dbscale-bench-XXXXXX)
RAW=$OUT/raw.tsv
printf 'engine\tworkload\tthreads\trep\ttool\ttps\tcpu_us_per_txn\n' >"$RAW"
DIR=
. "$(dirname "$0")/server.sh"

cleanup() {
    [ -n "$DIR" ] && "$DBSCALE" server stop --dir "$DIR" >/dev/null 2>&1
    [ -n "$DIR" ] && rm -rf "$DIR"
    DIR=
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 141' PIPE

# measure TOOL ENGINE WORKLOAD THREADS REP -- command...: run it under GNU time,
# record tps and client CPU per transaction
measure() {
    tool=$1 eng=$2 wl=$3 th=$4 rep=$5
    shift 6
    /usr/bin/time -f '%U %S' -o "$OUT/time" "$@" >"$OUT/out" 2>&1 || {
        echo "bench: $tool failed:" >&2; tail -5 "$OUT/out" >&2; return 1; }
    case $tool in
    pgbench)
        n=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$OUT/out")
        tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$OUT/out" | head -n 1) ;;
    *)
        n=$(sed -n 's/^ *transactions: *\([0-9]*\).*/\1/p' "$OUT/out")
        tps=$(sed -n 's/^ *transactions: *[0-9]* *(\([0-9.]*\) per sec.*/\1/p' "$OUT/out") ;;
    esac
    cpu=$(awk -v n="$n" '{ if (n > 0) printf "%.1f", ($1 + $2) * 1e6 / n; else print "nan" }' "$OUT/time")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$eng" "$wl" "$th" "$rep" "$tool" "$tps" "$cpu" >>"$RAW"
    printf '  %-8s %-16s %2s threads rep %s %-9s %9s tps %8s us/txn\n' "$eng" "$wl" "$th" "$rep" "$tool" "$tps" "$cpu"
}

for eng in $ENGINES; do
    # both tools get the same TCP loopback connection
    bench_server "$eng" --conf max_connections=100 || exit 1
    data="--tables=$TABLES --table-size=$SIZE"
    "$DBSCALE" prepare oltp_read_write $conn $data >/dev/null || exit 1
    if [ "$eng" = pgsql ] && [ "$PGBENCH" = 1 ]; then
        pgbench -i -q -s 1 -h 127.0.0.1 -p "$port" -U sbtest sbtest >/dev/null 2>&1
    fi
    for wl in $WORKLOADS; do
        for th in $THREADS; do
            rep=1
            while [ $rep -le "$REPEATS" ]; do
                # alternate who goes first, so drift lands on both
                if [ $((rep % 2)) -eq 1 ]; then order="dbscale sysbench"; else order="sysbench dbscale"; fi
                for tool in $order; do
                    if [ $tool = dbscale ]; then
                        measure dbscale "$eng" "$wl" "$th" "$rep" -- "$DBSCALE" run "$wl" $conn $data --threads="$th" --time="$TIME"
                    else
                        measure sysbench "$eng" "$wl" "$th" "$rep" -- sysbench "$wl" $conn $data --threads="$th" --time="$TIME" run
                    fi
                done
                rep=$((rep + 1))
            done
        done
    done
    if [ "$eng" = pgsql ] && [ "$PGBENCH" = 1 ]; then
        for th in $THREADS; do
            rep=1
            while [ $rep -le "$REPEATS" ]; do
                if [ $((rep % 2)) -eq 1 ]; then order="dbscale pgbench"; else order="pgbench dbscale"; fi
                for tool in $order; do
                    if [ $tool = dbscale ]; then
                        measure dbscale pgsql point_select "$th" "$rep" -- "$DBSCALE" run oltp_point_select $conn $data --threads="$th" --time="$TIME"
                    else
                        measure pgbench pgsql point_select "$th" "$rep" -- pgbench -n -S -M prepared -h 127.0.0.1 -p "$port" -U sbtest -c "$th" -j "$th" -T "$TIME" sbtest
                    fi
                done
                rep=$((rep + 1))
            done
        done
    fi
    cleanup
done

echo
echo "Paired ratios dbscale / peer over $REPEATS repeats: median (min-max). Target: tps >= 1.00"
echo "at every thread count; client CPU per transaction <= 0.70 from 4 threads up, never above 1.00."
awk -f "$(dirname "$0")/ratios.awk" "$RAW"
echo
echo "raw measurements: $RAW"
