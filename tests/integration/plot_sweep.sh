#!/bin/sh
# plot_sweep.sh - a real short sweep on a throwaway PostgreSQL (the demo
# config, cut to 3 thread counts x 2 repeats x 2 s), then plot and compare
# over it: every graph a valid 1000x700 PNG, no gnuplot complaint, the
# summary holding every level. $1 = dbscale binary.
# Exit 0 pass, 77 skip (no gnuplot, or no sweep possible here), else fail.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v gnuplot >/dev/null 2>&1 || { echo "gnuplot not installed"; exit 77; }
out=$(mktemp -d /tmp/dbscale-plotsweep-XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

if ! "$bin" sweep --config "$root/configs/demo.ini" --threads 1,2,4 --repeats 2 --time 2 \
    --out "$out/sweep" >"$out/sweep.log" 2>&1; then
    tail -n 5 "$out/sweep.log"
    echo "sweep not possible here (see above); plot is tested on fixtures by plot_fixture"
    exit 77
fi
[ -s "$out/sweep/results.csv" ] || fail "the sweep left no results.csv"

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
levels=$(grep -vc '^engine' "$out/sweep/results.csv")
points=$(grep -vc '^curve' "$out/plots/summary.csv")
[ "$points" -ge 3 ] || fail "summary.csv has $points points for $levels result rows"
echo "plot_sweep: ok ($levels result rows, $points points)"
exit 0
