#!/bin/sh
# bench/lua.sh - sysbench's own Lua scripts run by dbscale and by sysbench on
# the same throwaway server, interleaved, with repeats; plus the same
# scripts against dbscale's built-in C mix of the same name. Prints two
# ratio tables (bench/ratios.awk): dbscale-lua / sysbench, and dbscale-lua /
# dbscale's C mix, and the memory each scripted connection costs.
# Usage: bench/lua.sh path/to/dbscale
# Knobs (environment): ENGINES="pgsql mysql" SCRIPTS="oltp_read_write
# oltp_point_select" THREADS="1 4 16 64 256" REPEATS=3 TIME=8 TABLES=4
# SIZE=10000. Client CPU is user+sys of the whole client process (GNU
# time) over the transactions it reports, the same ruler for every tool.
# BEFORE=path/to/an/older/dbscale adds its Lua path and its C mix to each
# repeat and two more tables, this dbscale / the older one (a change's
# before/after, paired); TOOLS="dbscale-lua sysbench c-mix before-lua
# before-c" picks the arms (default: the first three, all five with BEFORE).
set -u
DBSCALE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ENGINES=${ENGINES:-pgsql mysql}
SCRIPTS=${SCRIPTS:-oltp_read_write oltp_point_select}
THREADS=${THREADS:-1 4 16 64 256}
REPEATS=${REPEATS:-3}
TIME=${TIME:-8}
TABLES=${TABLES:-4}
SIZE=${SIZE:-10000}
SB=/usr/share/sysbench
BEFORE=${BEFORE:-}
if [ -n "$BEFORE" ]; then
    BEFORE=$(cd "$(dirname "$BEFORE")" && pwd)/$(basename "$BEFORE")
    TOOLS=${TOOLS:-dbscale-lua sysbench c-mix before-lua before-c}
else
    TOOLS=${TOOLS:-dbscale-lua sysbench c-mix}
fi
command -v sysbench >/dev/null || { echo "bench: sysbench is not installed (make deps)" >&2; exit 1; }
[ -f $SB/oltp_common.lua ] || { echo "bench: sysbench's Lua scripts are not in $SB" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
OUT=$(mktemp -d /tmp/dbscale-bench-lua-XXXXXX)
RAW_SB=$OUT/lua_vs_sysbench.tsv
RAW_C=$OUT/lua_vs_cmix.tsv
MEM=$OUT/rss.tsv
RAW_BL=$OUT/lua_vs_before.tsv
RAW_BC=$OUT/cmix_vs_before.tsv
for f in "$RAW_SB" "$RAW_C" "$RAW_BL" "$RAW_BC"; do
    printf 'engine\tworkload\tthreads\trep\ttool\ttps\tcpu_us_per_txn\n' >"$f"
done
printf 'engine\tworkload\tthreads\ttool\tmax_rss_kb\n' >"$MEM"
. "$(dirname "$0")/server.sh"

# measure TOOL ENGINE SCRIPT THREADS REP -- command...: under GNU time; the
# figures go to both tables' raw files in the role each table gives TOOL
measure() {
    tool=$1 eng=$2 wl=$3 th=$4 rep=$5
    shift 6
    /usr/bin/time -f '%U %S %M' -o "$OUT/time" "$@" >"$OUT/out" 2>&1 || {
        echo "bench: $tool failed:" >&2; tail -5 "$OUT/out" >&2; return 1; }
    n=$(sed -n 's/^ *transactions: *\([0-9]*\).*/\1/p' "$OUT/out")
    tps=$(sed -n 's/^ *transactions: *[0-9]* *(\([0-9.]*\) per sec.*/\1/p' "$OUT/out")
    cpu=$(awk -v n="$n" '{ if (n > 0) printf "%.1f", ($1 + $2) * 1e6 / n; else print "nan" }' "$OUT/time")
    rss=$(awk '{ print $3 }' "$OUT/time")
    row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$eng" "$wl" "$th" "$rep" "$1" "$tps" "$cpu" >>"$2"; }
    case $tool in
    dbscale-lua) row dbscale "$RAW_SB"; row dbscale "$RAW_C"; row dbscale "$RAW_BL" ;;
    sysbench) row sysbench "$RAW_SB" ;;
    c-mix) row c-mix "$RAW_C"; row dbscale "$RAW_BC" ;;
    before-lua) row before "$RAW_BL" ;;
    before-c) row before "$RAW_BC" ;;
    esac
    [ "$rep" = 1 ] && printf '%s\t%s\t%s\t%s\t%s\n' "$eng" "$wl" "$th" "$tool" "$rss" >>"$MEM"
    printf '  %-6s %-18s %3s thr rep %s %-12s %9s tps %8s us/txn %7s KB\n' "$eng" "$wl" "$th" "$rep" "$tool" "$tps" "$cpu" "$rss"
}

max=0
for th in $THREADS; do [ "$th" -gt $max ] && max=$th; done
for eng in $ENGINES; do
    # room for a run's connections while the last run's backends still exit
    bench_server "$eng" --conf max_connections=$((2 * max + 20)) || exit 1
    data="--tables=$TABLES --table-size=$SIZE"
    "$DBSCALE" prepare oltp_read_write $conn $data >/dev/null || exit 1
    for wl in $SCRIPTS; do
        for th in $THREADS; do
            rep=1
            while [ $rep -le "$REPEATS" ]; do
                # rotate who goes first, so drift lands on every tool
                set -- $TOOLS
                k=$((rep % $#))
                while [ $k -gt 0 ]; do x=$1; shift; set -- "$@" "$x"; k=$((k - 1)); done
                for tool in "$@"; do
                    case $tool in
                    dbscale-lua) measure $tool "$eng" "$wl" "$th" "$rep" -- "$DBSCALE" $SB/$wl.lua $conn $data --threads="$th" --time="$TIME" --ramp-timeout=0 run ;;
                    sysbench) measure $tool "$eng" "$wl" "$th" "$rep" -- sysbench $SB/$wl.lua $conn $data --threads="$th" --time="$TIME" run ;;
                    c-mix) measure $tool "$eng" "$wl" "$th" "$rep" -- "$DBSCALE" run "$wl" $conn $data --threads="$th" --time="$TIME" --ramp-timeout=0 ;;
                    before-lua) measure $tool "$eng" "$wl" "$th" "$rep" -- "$BEFORE" $SB/$wl.lua $conn $data --threads="$th" --time="$TIME" --ramp-timeout=0 run ;;
                    before-c) measure $tool "$eng" "$wl" "$th" "$rep" -- "$BEFORE" run "$wl" $conn $data --threads="$th" --time="$TIME" --ramp-timeout=0 ;;
                    esac
                done
                rep=$((rep + 1))
            done
        done
    done
    bench_server_stop
done

# table ARM PEER RAW TITLE...: the paired ratios of RAW, only where both arms ran
table() {
    case " $TOOLS " in *" $1 "*) ;; *) return ;; esac
    case " $TOOLS " in *" $2 "*) ;; *) return ;; esac
    raw=$3
    shift 3
    echo
    for line in "$@"; do echo "$line"; done
    awk -f "$(dirname "$0")/ratios.awk" "$raw"
}
table dbscale-lua sysbench "$RAW_SB" \
    "Lua scripts, dbscale / sysbench, paired over $REPEATS repeats: median (min-max)." \
    "Targets: tps >= 1.00; client CPU per transaction <= 1.00, and <= 0.70 from 16 connections."
table dbscale-lua c-mix "$RAW_C" \
    "dbscale's Lua path / its built-in C mix of the same name. Target: CPU per transaction <= 1.30."
table dbscale-lua before-lua "$RAW_BL" \
    "dbscale's Lua path / the same path of $BEFORE. Target: CPU per transaction <= 1.00."
table c-mix before-c "$RAW_BC" \
    "dbscale's C mix / the C mix of $BEFORE. Target: CPU per transaction <= 1.03."
echo
echo "Memory per scripted connection (max RSS growth from the fewest to the most connections):"
awk -F '\t' 'NR > 1 { k = $1 " " $2 " " $4; t = $3 + 0; m = $5 + 0
        if (!(k in lt) || t < lt[k]) { lt[k] = t; lo[k] = m }
        if (!(k in ht) || t > ht[k]) { ht[k] = t; hi[k] = m } }
    END { for (k in lt) if (ht[k] > lt[k]) printf "  %-36s %7.0f KB per connection (%d -> %d)\n", k,
              (hi[k] - lo[k]) / (ht[k] - lt[k]), lt[k], ht[k] }' "$MEM" | sort
echo
echo "raw measurements: $OUT"
