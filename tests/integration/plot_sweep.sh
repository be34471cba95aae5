#!/bin/sh
# integration: long
# plot_sweep.sh - a real short sweep on a throwaway PostgreSQL (the demo
# config, cut to 3 thread counts x 2 repeats x 2 s), then plot and compare
# over it: every graph a valid 1000x700 PNG, no gnuplot complaint, the
# summary holding one point per level. $1 = dbscale binary.
# Exit 0 pass, 77 skip (only: no gnuplot, or no PostgreSQL; make check: a failure),
# else fail: a sweep that fails here is a failure, never a skip.
set -u
. "$(dirname "$0")/lib.sh" "$1"
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
need_tool gnuplot gnuplot-nox
need_engine pgsql
out=$(mktemp -d /tmp/dbscale-plotsweep-XXXXXX)
trap 'rm -rf "$out"' EXIT

if ! "$bin" sweep --config "$root/configs/demo.ini" --threads 1,2,4 --repeats 2 --time 2 --warmup-time 0 \
    --out "$out/sweep" >"$out/sweep.log" 2>&1; then
    tail -n 20 "$out/sweep.log"
    fail "the sweep failed (see above)"
fi
[ -s "$out/sweep/results.csv" ] || fail "the sweep left no results.csv"

# intervals.csv (--report-interval defaults to 1 s in a sweep): every level
# of results.csv has its periods, 1 or 2 of them in a 2 s window, t rising.
# The periods cut the window, so their transactions (tps x length) add up
# to the level's (tps x time_s): held to 1% (they agree to a transaction;
# figures are rounded). A period of 0 tps was allowed (c5758c5) as a stall
# on a loaded machine: the periods past the window that c5758c5 saw are
# dropped by the sweep now, and inside it a period without a single reply
# (0 qps) is a stall of a second, which the level must be flagged for
# (disturbed: the stall detector flags 1 s without a reply). 0 tps with
# replies is a transaction longer than a period, and stays allowed.
iv=$out/sweep/intervals.csv
[ -s "$iv" ] || fail "the sweep left no intervals.csv"
[ "$(head -n1 "$iv")" = "variant,cpus,threads,repeat,t,tps,qps,p95,errors" ] ||
    fail "intervals.csv header: $(head -n1 "$iv")"
awk -F, 'NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) c[$i] = i; next }
                     k = $c["variant"] "," $c["cpus"] "," $c["threads"] "," $c["repeat"]
                     lv[k] = 0; want[k] = $c["tps"] * $c["time_s"]; dist[k] = $c["disturbed"]; next }
    FNR == 1 { next }
    { k = $1 "," $2 "," $3 "," $4; if (!(k in lv)) { print "no such level: " k; bad = 1 }
      if (k in last && $5 <= last[k]) { print "t not rising in " k; bad = 1 }
      got[k] += $6 * ($5 - (k in last ? last[k] : 0))
      last[k] = $5; lv[k]++; if ($6 < 0 || $8 < 0) { print "a negative figure: " $0; bad = 1 }
      if ($7 == 0 && dist[k] != 1) { print "a period without a reply in a level not flagged disturbed: " $0; bad = 1 } }
    END { for (k in lv) { if (lv[k] < 1 || lv[k] > 2) { print k ": " lv[k] " periods"; bad = 1 }
                          d = got[k] - want[k]; if (d < 0) d = -d
                          if (d > want[k] * 0.01 + 1) {
                              printf "%s: periods add up to %.0f transactions, the level has %.0f\n", k, got[k], want[k]
                              bad = 1 } }
          exit bad }' "$out/sweep/results.csv" "$iv" || fail "intervals.csv does not match the levels"

"$bin" plot "$out/sweep" --out "$out/plots" >"$out/plot.out" 2>"$out/plot.err"
rc=$?
cat "$out/plot.out" "$out/plot.err"
[ $rc -eq 0 ] || fail "dbscale plot exited $rc"
grep -qi "error" "$out/plot.err" && fail "an error was reported"
for g in throughput speedup efficiency latency tput-latency; do
    png=$out/plots/$g.png
    [ "$(od -An -tx1 -N8 "$png" | tr -d ' \n')" = "89504e470d0a1a0a" ] || fail "$png is not a PNG"
    w=$(od -An -tu1 -j16 -N4 "$png" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
    h=$(od -An -tu1 -j20 -N4 "$png" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
    [ "${w}x${h}" = "1000x700" ] || fail "$png is ${w}x${h}"
done
# One summary point per level: a distinct (variant, cpus, threads) of results.csv.
levels=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { print $c["variant"] "," $c["cpus"] "," $c["threads"] }' "$out/sweep/results.csv" |
    sort -u | wc -l)
points=$(grep -vc '^curve' "$out/plots/summary.csv")
[ "$levels" -ge 3 ] || fail "the sweep recorded only $levels levels"
[ "$points" -eq "$levels" ] || fail "summary.csv has $points points for $levels levels"
# latency.csv: every level run's histogram; its counts add up to the
# level's transactions (tps x time, rounded: 1%; they agree exactly here, it
# was 10%), and the buckets are well formed.
lc=$out/sweep/latency.csv
[ "$(head -n1 "$lc")" = "variant,cpus,threads,repeat,lo_ms,hi_ms,count" ] || fail "latency.csv header"
awk -F, 'NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) c[$i] = i; next }
                     k = $c["variant"] "," $c["cpus"] "," $c["threads"] "," $c["repeat"]
                     want[k] = $c["tps"] * $c["time_s"]; next }
    FNR == 1 { next }
    { k = $1 "," $2 "," $3 "," $4; if (!(k in want)) { print "no such level: " k; bad = 1 }
      if ($6 < $5 || $7 < 1) { print "bad bucket: " $0; bad = 1 }
      n[k] += $7 }
    END { for (k in want) { if (!(k in n)) { print "no histogram for " k; bad = 1 }
                            else if (n[k] < want[k] * 0.99 - 1 || n[k] > want[k] * 1.01 + 1) {
                                print k ": " n[k] " latencies for " want[k] " transactions"; bad = 1 } }
          exit bad }' "$out/sweep/results.csv" "$lc" || fail "latency.csv does not match the levels"

# The time series: a panel per level run (each repeat its own), drawn.
runs=$(($(wc -l <"$out/sweep/results.csv") - 1))
grep -q "^npanel = $runs\$" "$out/plots/timeseries.gp" ||
    fail "timeseries.gp: $(grep '^npanel' "$out/plots/timeseries.gp") for $runs level runs"
[ "$(od -An -tx1 -N8 "$out/plots/timeseries.png" | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
    fail "no timeseries.png"
[ -s "$out/plots/latency-cdf.png" ] || fail "no latency-cdf.png"
echo "plot_sweep: ok ($levels levels, $points points)"
exit 0
