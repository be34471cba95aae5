#!/bin/sh
# plot_values.sh - values gnuplot cannot draw are refused before it runs,
# naming the file, row and column: an empty, infinite, huge or negative
# figure. All-zero throughput is real data (a server that did nothing) and
# must still draw. $1 = dbscale binary. Exit 0 pass, 77 skip (no gnuplot;
# make check: a failure), else fail.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh" "$1"
need_tool gnuplot gnuplot-nox
top=$(mktemp -d /tmp/dbscale-values-XXXXXX)
trap 'rm -rf "$top"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# sweep NAME ROW3: a 4-level sweep whose third line (second data row) is ROW3.
sweep() {
    mkdir -p "$top/$1"
    {
        echo "engine,variant,cpus,threads,tps,lat_p95_ms"
        echo "pgsql,up,1,1,100,1.0"
        echo "$2"
        echo "pgsql,up,1,4,300,3.0"
        echo "pgsql,up,1,8,310,4.0"
    } >"$top/$1/results.csv"
}

# refused NAME ROW3 COLUMN: plot exits 2 naming results.csv:3 and COLUMN,
# the directory left as it was.
refused() {
    sweep "$1" "$2"
    IT_WATCH=$top/$1
    refuses 2 "results.csv:3: .*$3" env DBSCALE_DATADIR="$root" "$bin" plot "$top/$1" --out "$top/$1/plots"
    echo "$REFUSED_OUT" | grep -qi gnuplot && fail "$1: reached gnuplot"
    return 0
}
refused huge "pgsql,up,1,2,1e308,2.0" tps
refused inf "pgsql,up,1,2,inf,2.0" tps
refused empty "pgsql,up,1,2,,2.0" tps
refused neglat "pgsql,up,1,2,200,-2.0" lat_p95_ms

# All-zero throughput draws (no "empty y range").
mkdir -p "$top/zero"
printf 'engine,variant,cpus,threads,tps\npgsql,up,1,1,0\npgsql,up,1,2,0\npgsql,up,1,4,0\n' \
    >"$top/zero/results.csv"
DBSCALE_DATADIR=$root "$bin" plot "$top/zero" --out "$top/zero/plots" >"$top/zero.out" 2>&1 ||
    { cat "$top/zero.out"; fail "all-zero throughput: plot failed"; }
[ -s "$top/zero/plots/throughput.png" ] || fail "all-zero throughput: no graph"
echo "plot_values: ok"
exit 0
