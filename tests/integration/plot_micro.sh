#!/bin/sh
# plot_micro.sh - `dbscale plot` on a results directory of `dbscale micro`
# or `dbscale fs` (micro.csv or fs.csv, no results.csv) draws ops/s against
# tasks, a panel per test, each series with its linear line (dotted, the
# ideal's style), instead of failing on the missing results.csv. Built from
# the fixture's micro.csv. $1 = dbscale binary.
# Exit 0 pass, 77 skip (no gnuplot; make check: a failure), anything else fail.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh" "$1"
need_tool gnuplot gnuplot-nox
out=$(mktemp -d /tmp/dbscale-plotmicro-XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$out/m" "$out/f"
cp "$root/tests/data/pgsql-sweep/micro.csv" "$out/m/"
DBSCALE_DATADIR=$root "$bin" plot "$out/m" >"$out/m.out" 2>&1
rc=$?
cat "$out/m.out"
[ $rc -eq 0 ] || fail "plot of a micro directory exited $rc"
gp=$out/m/plots/kernel.gp
[ -s "$out/m/plots/kernel.png" ] || fail "no kernel.png"
grep -q "graph: $out/m/plots/kernel.png" "$out/m.out" || fail "kernel.png not reported"
tests=$(cut -d, -f1 "$out/m/micro.csv" | sed 1d | sort -u | wc -l)
grep -q "^ntest = $tests\$" "$gp" || fail "not one panel per test ($tests): $(grep '^ntest' "$gp")"
grep -q "getppid1" "$gp" || fail "the test names are not the panel titles"
# Column 4 is the linear line: tasks x the one-task rate.
awk '!/^#/ && NR > 2 { if ($4 <= 0) bad = 1 } END { exit bad }' "$out/m/plots/micro01.dat" ||
    fail "no linear column in micro01.dat"
awk '!/^#/ { if (first == "") { first = $3 / $1 } d = $4 - $1 * first; if (d > 1 || d < -1) bad = 1 }
    END { exit bad }' "$out/m/plots/micro01.dat" || fail "the linear line is not tasks x the first rate"
grep -q 'using 1:4 with lines lt %d dt 3' "$out/m/plots/graphs/kernel.gp" ||
    fail "the linear line is not drawn dotted"
[ -e "$out/m/plots/throughput.png" ] && fail "a database graph drawn without database results"

{
    echo "files,pass,tasks,cpus,create_s,create_files_per_s,remove_s,remove_files_per_s,error,variant"
    echo "2000,1,1,2,0.1,20000,0.1,20000,,smp"
    echo "2000,1,2,2,0.1,30000,0.1,25000,,smp"
} >"$out/f/fs.csv"
DBSCALE_DATADIR=$root "$bin" plot "$out/f" --out "$out/fp" >"$out/f.out" 2>&1 ||
    { cat "$out/f.out"; fail "plot of an fs directory failed"; }
grep -q "fs create" "$out/fp/kernel.gp" || fail "fs create not drawn"
[ -s "$out/fp/kernel.png" ] || fail "no kernel.png for fs"

# A directory with none of the files is still refused as bad input.
mkdir "$out/empty"
IT_WATCH=$out/empty
refuses 2 "" "$bin" plot "$out/empty"
echo "plot_micro: ok"
exit 0
