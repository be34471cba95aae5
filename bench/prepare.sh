#!/bin/sh
# bench/prepare.sh - time `dbscale prepare` against `sysbench prepare` on the
# same throwaway server and data (TABLES x SIZE rows, secondary index built),
# alternating who goes first, REPEATS times; prints the median seconds and
# the ratio. sysbench loads with its default single thread, as users run it,
# and also with --threads=TABLES (its parallel prepare).
# Usage: bench/prepare.sh path/to/dbscale   (ENGINES, TABLES, SIZE, REPEATS)
set -u
DBSCALE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ENGINES=${ENGINES:-pgsql mysql}
TABLES=${TABLES:-8}
SIZE=${SIZE:-100000}
REPEATS=${REPEATS:-3}
OUT=$(mktemp -d /tmp/dbscale-prep-XXXXXX)
. "$(dirname "$0")/server.sh"
secs() { /usr/bin/time -f %e -o "$OUT/t" "$@" >"$OUT/log" 2>&1 || { tail -3 "$OUT/log" >&2; echo nan; return; }; cat "$OUT/t"; }
median() { sort -n | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
printf '%-6s %12s %12s %12s %8s %8s\n' engine "dbscale s" "sysbench s" "sb -t$TABLES s" ratio "ratio-t"
for eng in $ENGINES; do
    bench_server "$eng" || exit 1
    data="--tables=$TABLES --table-size=$SIZE"
    : >"$OUT/d"; : >"$OUT/s"; : >"$OUT/p"
    r=1
    while [ $r -le "$REPEATS" ]; do
        for tool in dbscale sysbench sysbench-t; do
            case $tool in
            dbscale) secs "$DBSCALE" prepare oltp_read_write $conn $data >>"$OUT/d"
                "$DBSCALE" cleanup oltp_read_write $conn $data >/dev/null ;;
            sysbench) secs sysbench oltp_read_write $conn $data prepare >>"$OUT/s"
                sysbench oltp_read_write $conn $data cleanup >/dev/null ;;
            sysbench-t) secs sysbench oltp_read_write $conn $data --threads="$TABLES" prepare >>"$OUT/p"
                sysbench oltp_read_write $conn $data cleanup >/dev/null ;;
            esac
        done
        r=$((r + 1))
    done
    d=$(median <"$OUT/d") s=$(median <"$OUT/s") p=$(median <"$OUT/p")
    printf '%-6s %12s %12s %12s %8.2f %8.2f\n' "$eng" "$d" "$s" "$p" "$(echo "$d / $s" | bc -l)" "$(echo "$d / $p" | bc -l)"
    bench_server_stop
done
