#!/bin/sh
# plot_legends.sh - graphs that do not mislead, checked in the scripts
# `dbscale plot` generates from the fixture sweeps in tests/data: legends
# without the workload (it is in the title) and without a CPU count the
# variant already says, a subtitle with host, kernel release and CPU model,
# directories named by --label or their basename, a log y axis when curves
# differ more than 10x (and on request), n / run time / warmup in a
# footnote, no data line in the ideal line's dotted style, throughput-vs-
# latency labels that are not drawn on top of each other. $1 = dbscale binary.
# Exit 0 pass, 77 skip (no gnuplot; make check: a failure), anything else fail.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
data=$root/tests/data
. "$(dirname "$0")/lib.sh" "$1"
need_tool gnuplot gnuplot-nox
out=$(mktemp -d /tmp/dbscale-legends-XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
plot() { DBSCALE_DATADIR=$root "$bin" plot "$@" >"$out/last.out" 2>&1 || { cat "$out/last.out"; fail "plot $* failed"; }; }

plot "$data/pgsql-sweep" "$data/mysql-sweep" --out "$out/a" --label pg --label maria
gp=$out/a/throughput.gp
labels=$(grep '^array label' "$gp")
echo "$labels" | grep -q oltp_read_only && fail "the workload is repeated in the legend: $labels"
grep '^title_main' "$gp" | grep -q oltp_read_only || fail "the workload is not in the title"
sub=$(grep '^subtitle' "$gp")
echo "$sub" | grep -q "6.1.0-26-amd64" || fail "no kernel release in the subtitle: $sub"
echo "$sub" | grep -q "Linux 6.1.0" && fail "the raw kernel string is in the subtitle: $sub"
echo "$sub" | grep -q "Xeon" || fail "no CPU model in the subtitle: $sub"
echo "$sub" | grep -q "results: pg, maria" || fail "directories not named by --label: $sub"
grep -q '^footnote = .*3 repeats' "$gp" || fail "no n in the footnote"
grep -q '^footnote = .*60 s' "$gp" || fail "no run time in the footnote"
grep -q '^logy = 0' "$gp" || fail "a log axis for curves within 10x"
[ -s "$out/a/throughput.png" ] || fail "no throughput.png"

# A variant that names its CPU count is not followed by the count again; a
# 200-tps curve beside a 17k-tps one gets a log axis by itself.
mkdir "$out/k"
{
    echo "engine,workload,variant,cpus,threads,repeat,tps,lat_p50_ms,lat_p95_ms,lat_p99_ms"
    for t in 1 2 4; do
        echo "pgsql,oltp_point_select,smp-k1,1,$t,0,$((t * 100)),1,2,3"
        echo "pgsql,oltp_point_select,smp-k2,2,$t,0,$((t * 6000)),1,2,3"
    done
} >"$out/k/results.csv"
plot "$out/k" --out "$out/k/plots"
gp=$out/k/plots/throughput.gp
grep '^array label' "$gp" | grep -q "1 CPU" && fail "smp-k1 followed by 1 CPU: $(grep '^array label' "$gp")"
grep -q '^logy = 1' "$gp" || fail "no log y axis for curves 60x apart"
grep -q 'set logscale y' "$out/k/plots/graphs/throughput.gp" || fail "the style ignores logy"
[ -s "$out/k/plots/throughput.png" ] || fail "no log-y throughput.png"
plot "$out/k" --out "$out/k/off" --log-y=off
grep -q '^logy = 0' "$out/k/off/throughput.gp" || fail "--log-y=off ignored"
plot "$data/pgsql-sweep" --out "$out/on" --log-y
grep -q '^logy = 1' "$out/on/throughput.gp" || fail "--log-y ignored"
[ -s "$out/on/throughput.png" ] || fail "no forced log-y throughput.png"

# Three result groups on the CPU graph: no data line is dotted (dt 3 is
# the ideal's), and the dash of each group is named in the legend.
cp -r "$data/pgsql-sweep" "$out/pg2"
rm -f "$out/pg2/micro.csv"
plot "$data/pgsql-sweep" "$data/mysql-sweep" "$out/pg2" --out "$out/c"
dtv=$(grep '^array dtv' "$out/c/cpus.gp")
echo "$dtv" | grep -Eq '[[ ]3[],]' && fail "a data line in the ideal's dotted style: $dtv"
grep -q '^array gname' "$out/c/cpus.gp" || fail "the dashes are not explained in the legend"
[ -s "$out/c/cpus.png" ] || fail "no cpus.png"
# The copy's points lie on the original's: its thread labels are left out.
dup=$(awk '!/^#/ && $15 == 1' "$out/c/curve05.dat" | wc -l)
[ "$dup" -eq 0 ] || fail "labels drawn over the same points ($dup)"
own=$(awk '!/^#/ && $15 == 1' "$out/c/curve01.dat" | wc -l)
[ "$own" -ge 1 ] || fail "the first curve lost its labels"
grep -q '\$15' "$out/c/graphs/tput-latency.gp" || fail "tput-latency ignores the label column"
# Time series: one panel per level of intervals.csv (24 in the fixture:
# 2 variants x 4 thread counts x 3 repeats), repeats never merged.
mkdir "$out/ts"
cp "$data/pgsql-sweep/results.csv" "$data/pgsql-sweep/meta.json" "$out/ts/"
awk -F, 'NR > 1 { for (t = 1; t <= 4; t++) printf "%s,%s,%s,%s,%d,%s,1,1,0\n", $3, $4, $5, $6, t, $8 }' \
    "$out/ts/results.csv" | { echo "variant,cpus,threads,repeat,t,tps,qps,p95,errors"; cat; } \
    >"$out/ts/intervals.csv"
# latency.csv: 3 buckets a level run; per thread count a panel, a curve per
# variant with its 3 repeats added, ending at 1.
awk -F, 'NR > 1 { for (b = 1; b <= 3; b++) printf "%s,%s,%s,%s,%d,%d.5,%d\n", $3, $4, $5, $6, b, b, b * 10 }' \
    "$out/ts/results.csv" | { echo "variant,cpus,threads,repeat,lo_ms,hi_ms,count"; cat; } \
    >"$out/ts/latency.csv"
plot "$out/ts" --out "$out/ts/plots"
lg=$out/ts/plots/latency-cdf.gp
grep -q '^npanel = 4$' "$lg" || fail "not a latency panel per thread count"
grep -q '^ncdf = 8$' "$lg" || fail "not a curve per variant and thread count"
[ "$(grep -vc '^#' "$out/ts/plots/cdf01.dat")" -eq 3 ] || fail "repeats' buckets not added"
tail -n1 "$out/ts/plots/cdf01.dat" | grep -q ' 1.000000$' || fail "a distribution not ending at 1"
grep -q '^1.500000 0.166667$' "$out/ts/plots/cdf01.dat" || fail "cdf01 first step wrong"
grep -q "transactions" "$out/ts/plots/cdf01.dat" || fail "no total in cdf01.dat"
[ -s "$out/ts/plots/latency-cdf.png" ] || fail "no latency-cdf.png"
grep -q '^npanel = 24$' "$out/ts/plots/timeseries.gp" || fail "not a panel per level"
grep -q "smp, 2 CPUs, 8 threads, repeat 2" "$out/ts/plots/timeseries.gp" || fail "panel titles"
[ "$(grep -vc '^#' "$out/ts/plots/ts24.dat")" -eq 4 ] || fail "a level's periods lost or merged"
[ -s "$out/ts/plots/timeseries.png" ] || fail "no timeseries.png"
[ -e "$out/a/timeseries.gp" ] && fail "a time series without intervals.csv"
echo "plot_legends: ok"
exit 0
