#!/bin/sh
# plot_titles.sh - the graphs read well in a screenshot (issue 29), checked in
# what `dbscale plot` and `dbscale report` generate from the fixture sweeps:
# the engine is named in titles and legends ("PostgreSQL 15.18", not the
# bare "15.18" PostgreSQL reports); a long subtitle is broken into lines that
# fit; cpus.png's frame holds its ideal line; the time series' axes are
# explained once, not by a legend over the first panel's data, in plain
# numbers; the footnote is centred, not pushed past the right edge; curves
# of different workloads on one graph are warned about; on the page, the
# throughput graphs have their ideal lines and the CPU graph its bars, and a
# study at one CPU count puts no lone dots on the CPU graph.
# Exit 0 pass, 77 skip (no gnuplot; make check: a failure), anything else fail.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
data=$root/tests/data
. "$(dirname "$0")/lib.sh" "$1"
need_tool gnuplot gnuplot-nox
out=$(mktemp -d /tmp/dbscale-titles-XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
plot() { DBSCALE_DATADIR=$root "$bin" plot "$@" >"$out/last.out" 2>&1 || { cat "$out/last.out"; fail "plot $* failed"; }; }

# A bare PostgreSQL version and a MariaDB one as the servers report them.
cp -r "$data/pgsql-sweep" "$out/pg"
sed -i 's/"server_version": "PostgreSQL 15.8"/"server_version": "15.18"/' "$out/pg/meta.json"
cp -r "$data/mysql-sweep" "$out/my"
sed -i 's/"server_version": "MariaDB 10.11.6"/"server_version": "10.11.19-MariaDB-0+deb12u1"/' "$out/my/meta.json"
grep -q '"15.18"' "$out/pg/meta.json" || fail "fixture edit did not take"
plot "$out/pg" --out "$out/p1"
grep '^subtitle' "$out/p1/throughput.gp" | grep -q "'PostgreSQL 15.18;" ||
    fail "no engine name before the version: $(grep '^subtitle' "$out/p1/throughput.gp")"
# the fixture's subtitle is over 100 characters: it comes in lines that fit
awk -F"'" '/^subtitle/ { for (i = 2; i <= NF; i += 2) if (length($i) > 84) exit 1 }' \
    "$out/p1/throughput.gp" || fail "a subtitle line wider than the graph: $(grep '^subtitle' "$out/p1/throughput.gp")"
grep '^subtitle' "$out/p1/throughput.gp" | grep -q '"\\n"' || fail "the long subtitle was not broken"
plot "$out/pg" "$out/my" --out "$out/p2"
grep '^array label' "$out/p2/cpus.gp" | grep -q "'PostgreSQL 15.18, 1 thread'" ||
    fail "cpus legend without the engine: $(grep '^array label' "$out/p2/cpus.gp")"
grep '^array label' "$out/p2/cpus.gp" | grep -q "'MariaDB 10.11.19, 1 thread'" ||
    fail "cpus legend without MariaDB's name: $(grep '^array label' "$out/p2/cpus.gp")"
grep '^array label' "$out/p2/cpus.gp" | grep -q "pgsql (" && fail "engine and server both in the legend"

# cpus.png: ymax holds every ideal point drawn
ymax=$(sed -n 's/^ymax = //p' "$out/p1/cpus.gp")
ideal=$(sed -n 's/^array ideal\[[0-9]*\] = \[\(.*\)\]/\1/p' "$out/p1/cpus.gp" | tr -d ' ')
files=$(sed -n 's/^array file\[[0-9]*\] = \[\(.*\)\]/\1/p' "$out/p1/cpus.gp" | tr -d '" ' | tr ',' ' ')
i=0
for f in $files; do
    i=$((i + 1))
    [ "$(echo "$ideal" | cut -d, -f$i)" = 1 ] || continue
    awk -v y="$ymax" -v f="$f" '!/^#/ && $5 > y { print "ideal " $5 " above ymax " y " in " f; exit 1 }' \
        "$out/p1/$f" || fail "cpus.png's ideal line runs off the frame"
done

# the time series: plain numbers, no legend in a panel, the axes said once
grep -q 'set format y "%g"' "$root/graphs/timeseries.gp" || fail "timeseries.gp's y format"
grep -q 'title "tps"' "$root/graphs/timeseries.gp" && fail "timeseries.gp has a legend inside a panel"
grep -q 'axes_note' "$root/graphs/timeseries.gp" || fail "timeseries.gp does not say what its axes are"
# the footnote is centred at the bottom
grep -q 'set label 99 footnote at screen 0.5, .* center' "$root/graphs/common.gp" ||
    fail "the footnote is not centred"

# two workloads on one graph: said
cp -r "$data/mysql-sweep" "$out/wl"
sed -i 's/oltp_read_only/oltp_point_select/g' "$out/wl/results.csv" "$out/wl/meta.json"
plot "$data/pgsql-sweep" "$out/wl" --out "$out/p3"
grep -q "curves of different workloads (oltp_read_only, oltp_point_select) share the graphs" \
    "$out/last.out" || fail "no warning for two workloads on one graph: $(cat "$out/last.out")"
"$bin" report "$data/pgsql-sweep" "$out/wl" --out "$out/wl.html" >/dev/null 2>&1 || fail "report failed"
grep -q 'Curves of different workloads (oltp_read_only, oltp_point_select) share these graphs' \
    "$out/wl.html" || fail "the page does not warn about two workloads on one graph"

# the page: ideal lines on the throughput graphs, bars on the CPU graph
"$bin" report "$out/pg" --out "$out/pg.html" >/dev/null 2>&1 || fail "report failed"
html=$out/pg.html
n=$(grep -c 'class="line ideal"' "$html")
[ "$n" -ge 3 ] || fail "ideal lines on the page: $n (two curves and a CPU line, and the legend)"
cpu=$(sed -n '/aria-label="Throughput against server CPUs"/,/<\/svg>/p' "$html")
echo "$cpu" | grep -q 'class="bar"' || fail "no min/max bars on the CPU graph"
echo "$cpu" | grep -q 'class="line ideal"' || fail "no ideal line on the CPU graph"
grep -q 'figure{margin:0 0 14px;max-width:1000px' "$html" || fail "charts are not one a row"

# one CPU count in one results directory, two in the other: the first puts
# no series on the CPU graph (it would be a lone dot at x=2)
mkdir "$out/one"
{
    echo "engine,workload,variant,cpus,threads,repeat,tps,lat_p50_ms,lat_p95_ms,lat_p99_ms"
    for t in 1 2 4; do echo "pgsql,oltp_read_only,smp-k2,2,$t,0,$((t * 500)),1,2,3"; done
} >"$out/one/results.csv"
"$bin" report "$data/pgsql-sweep" "$out/one" --out "$out/one.html" >/dev/null 2>&1 || fail "report failed"
cpu=$(sed -n '/aria-label="Throughput against server CPUs"/,/<\/svg>/p' "$out/one.html")
[ -n "$cpu" ] || fail "no CPU graph for the fixture"
echo "$cpu" | grep -q '>one: ' && fail "a one-CPU-count study drawn on the CPU graph"
echo "plot_titles: ok"
