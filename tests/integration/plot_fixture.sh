#!/bin/sh
# plot_fixture.sh - `dbscale plot` over the two fixture sweeps in tests/data
# (a PostgreSQL and a MariaDB sweep, 2 variants x 4 thread counts x 3
# repeats, with a kernel baseline): every graph must be a valid PNG/SVG of
# the expected size, gnuplot must report no error, the scripts must re-run
# by hand, and compare must write its tables; inputs that are not what they
# claim (a results.csv that is a FIFO or has no latency columns, a corrupt
# meta.json) are refused or said, never a quiet wrong answer. $1 = binary.
# Exit 0 pass, 77 skip (no gnuplot; make check: a failure), anything else fail.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
data=$root/tests/data
. "$(dirname "$0")/lib.sh" "$1"
need_tool gnuplot gnuplot-nox
out=$(mktemp -d /tmp/dbscale-plot-XXXXXX)
trap 'rm -rf "$out"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

DBSCALE_DATADIR=$root "$bin" plot "$data/pgsql-sweep" "$data/mysql-sweep" --out "$out" \
    --format png,svg >"$out/stdout" 2>"$out/stderr"
rc=$?
cat "$out/stdout" "$out/stderr"
[ $rc -eq 0 ] || fail "dbscale plot exited $rc"
grep -qi "error" "$out/stderr" && fail "an error was reported on stderr"
grep -qi "gnuplot" "$out/stderr" && fail "gnuplot complained"

# PNG: signature, IHDR first, width and height as big-endian 32-bit numbers.
png_size() {
    sig=$(od -An -tx1 -N8 "$1" | tr -d ' \n')
    [ "$sig" = "89504e470d0a1a0a" ] || return 1
    ihdr=$(dd if="$1" bs=1 skip=12 count=4 2>/dev/null)
    [ "$ihdr" = "IHDR" ] || return 1
    w=$(od -An -tu1 -j16 -N4 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
    h=$(od -An -tu1 -j20 -N4 "$1" | awk '{print $1*16777216+$2*65536+$3*256+$4}')
    echo "${w}x${h}"
}

for g in throughput speedup efficiency cpus latency tput-latency baseline; do
    png=$out/$g.png svg=$out/$g.svg
    [ -s "$png" ] || fail "$png missing"
    [ -s "$svg" ] || fail "$svg missing"
    grep -q "graph: $png" "$out/stdout" || fail "path of $png not printed"
    size=$(png_size "$png") || fail "$png is not a PNG"
    [ "$size" = "1000x700" ] || fail "$png is $size, expected 1000x700"
    grep -q '<svg' "$svg" || fail "$svg has no svg root element"
    tr '\n' ' ' <"$svg" | grep -Eq '<svg[^>]* width="1000" height="700"' ||
        fail "$svg root is not 1000x700"
    tail -c 20 "$svg" | grep -q '</svg>' || fail "$svg is truncated"
    [ -s "$out/$g.gp" ] && [ -s "$out/graphs/$g.gp" ] || fail "$g scripts not beside the data"
done
[ "$(wc -l <"$out/summary.csv")" -eq 17 ] || fail "summary.csv should hold 16 points + header"
grep -q "Universal Scalability Law" "$out/summary.md" || fail "summary.md has no USL table"
# Speedup and efficiency over the fewest-CPUs curve, per point and at the peak,
# p95 beside tps; a superlinear point is marked with its reason (the fixture's
# 1-CPU curve is 55% idle at one thread).
grep -q "speedup vs fewest CPUs | CPU efficiency" "$out/summary.md" || fail "no CPU speedup columns"
grep -q "## At the peak" "$out/summary.md" || fail "no at-the-peak table"
grep -q "| median tps | p95 ms |" "$out/summary.md" || fail "no p95 beside tps"
grep -q "superlinear.*idle at 1 thread" "$out/summary.md" || fail "superlinear point not explained"

# One repeat and three thread counts: no interval, and no USL fit but why.
mkdir "$out/thin"
printf 'engine,variant,cpus,threads,tps\npgsql,up,1,1,100\npgsql,up,1,2,190\npgsql,up,1,4,300\n' \
    >"$out/thin/results.csv"
DBSCALE_DATADIR=$root "$bin" plot "$out/thin" --out "$out/thin/plots" >"$out/thin.out" 2>&1 ||
    { cat "$out/thin.out"; fail "plot of a one-repeat sweep failed"; }
grep -q "no fit: 3 points < 4" "$out/thin/plots/summary.md" || fail "a 3-point fit was not refused"
# (and no latency columns: p95 not measured, never 0.000)
grep -q '| c1 | 1 | 100.0 | n/a | - |' "$out/thin/plots/summary.md" || fail "a CI shown for n=1, or p95 not n/a"
grep -q '^c1 .* 0\.000 ' "$out/thin.out" && fail "a latency the results do not hold shown as 0.000"
grep -q '^c1,thin,pgsql,,up,1,1,1,100.000,100.000,0.000,,,100.000,100.000,1.0000,1.0000,,,,' \
    "$out/thin/plots/summary.csv" || fail "summary.csv: p50/p95/p99 not empty: $(cat "$out/thin/plots/summary.csv")"
DBSCALE_DATADIR=$root "$bin" report "$out/thin" --out "$out/thin/r.html" >/dev/null 2>&1 || fail "report of thin"
grep -q "not measured" "$out/thin/r.html" || fail "the page shows a latency the results do not hold"
grep -q "USL" "$out/thin/plots/throughput.gp" && fail "a meaningless fit reached the graph"

# A user re-runs a script by hand.
rm "$out/throughput.png"
(cd "$out" && gnuplot throughput.gp) 2>"$out/rerun.err" || fail "re-running throughput.gp failed"
[ -s "$out/rerun.err" ] && { cat "$out/rerun.err"; fail "gnuplot complained on re-run"; }
[ "$(png_size "$out/throughput.png")" = "1000x700" ] || fail "re-run made no 1000x700 PNG"

# A broken results file is refused with its line named, not drawn.
mkdir "$out/bad"
printf 'engine,variant,cpus,threads,tps\npgsql,up,1,1,100\npgsql,up,1,2,abc\n' >"$out/bad/results.csv"
IT_WATCH=$out/bad
refuses 2 "results.csv:3" "$bin" plot "$out/bad" --out "$out/bad/plots"

# A gnuplot error fails the verb with gnuplot's own message.
mkdir -p "$out/dd"
cp -r "$root/graphs" "$out/dd/"
echo 'plot no_such_function(x)' >>"$out/dd/graphs/speedup.gp"
DBSCALE_DATADIR=$out/dd "$bin" plot "$data/pgsql-sweep" --out "$out/broken" >/dev/null \
    2>"$out/broken.err"
rc=$?
[ $rc -eq 1 ] || fail "broken script: exit $rc, expected 1"
grep -q "gnuplot failed on .*speedup.gp" "$out/broken.err" || fail "broken script: no clear message"
grep -q "undefined function" "$out/broken.err" || fail "broken script: gnuplot's message lost"

# compare over the same two sweeps writes its Markdown and CSV tables and
# the verdict; MariaDB (B) against PostgreSQL (A) is slower here, so the
# gate says regression: exit 3.
rc=0
"$bin" compare "$data/pgsql-sweep" "$data/mysql-sweep" --out "$out/cmp" >"$out/cmp.out" || rc=$?
cat "$out/cmp.out"
[ $rc -eq 3 ] || fail "compare pgsql mysql: exit $rc, expected 3 (regression)"
[ -s "$out/cmp/compare.md" ] && [ -s "$out/cmp/compare.csv" ] || fail "compare files missing"
[ -s "$out/cmp/verdict.txt" ] && [ -s "$out/cmp/verdict.json" ] || fail "verdict files missing"
grep -q '+56\*' "$out/cmp.out" || fail "compare: expected a significant +56 at 8 threads"
grep -q '^dbscale verdict: mysql-sweep against pgsql-sweep: regression' "$out/cmp.out" ||
    fail "compare: no regression verdict"
python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); assert v["gate"] == "regression", v["gate"]' \
    "$out/cmp/verdict.json" || fail "verdict.json: gate is not regression"
# ... and never quietly compares micro.csv when results.csv is there but is
# no readable table: a FIFO, a link to /dev/zero, a directory, a header alone
for kind in fifo zero dir header; do
    b=$out/b-$kind
    mkdir "$b"
    cp "$data/pgsql-sweep/micro.csv" "$b/"
    case $kind in
    fifo) mkfifo "$b/results.csv" ;;
    zero) ln -s /dev/zero "$b/results.csv" ;;
    dir) mkdir "$b/results.csv" ;;
    header) head -n 1 "$data/pgsql-sweep/results.csv" >"$b/results.csv" ;;
    esac
    IT_WATCH="$b
$data/mysql-sweep"
    refuses 2 "results.csv" timeout 20 "$bin" compare "$b" "$data/mysql-sweep"
done
# A corrupt meta.json: plot and report say it was left out, not a word less
mkdir "$out/cm"
cp "$data/pgsql-sweep/results.csv" "$out/cm/"
printf '{"host": ' >"$out/cm/meta.json"
for verb in plot report; do
    DBSCALE_DATADIR=$root "$bin" $verb "$out/cm" --out "$out/cm/$verb.x" >"$out/cm.out" 2>&1 ||
        fail "$verb with a corrupt meta.json: $(cat "$out/cm.out")"
    grep -q "meta.json left out.*meta.json:1" "$out/cm.out" || fail "$verb dropped a corrupt meta.json silently: $(cat "$out/cm.out")"
done
# Kernel baseline: every series (here 8 micro + 4 fs, more than the 8 once
# kept), fs included, and one panel per CPU count, each database curve beside
# the kernel figures measured at its own CPU count (micro at 1 and 2 CPUs).
mkdir "$out/kb"
cp "$data/pgsql-sweep/results.csv" "$data/pgsql-sweep/meta.json" "$out/kb/"
{
    cat "$data/pgsql-sweep/micro.csv"
    for t in lock1 lock2; do
        for tasks in 1 2; do
            echo "$t,p,$tasks,1,$((tasks * 1000)),1,1,0,$((tasks * 1000)),,"
        done
    done
} >"$out/kb/micro.csv"
{
    echo "files,pass,tasks,cpus,create_s,create_files_per_s,remove_s,remove_files_per_s,error,variant"
    echo "2000,1,1,1,0.1,20000,0.1,20000,,up"
    echo "2000,1,2,2,0.1,30000,0.1,25000,,smp"
} >"$out/kb/fs.csv"
DBSCALE_DATADIR=$root "$bin" plot "$out/kb" --out "$out/kb/plots" >"$out/kb.out" 2>&1 ||
    { cat "$out/kb.out"; fail "plot with a wide kernel baseline failed"; }
gp=$out/kb/plots/baseline.gp
grep -q '^m = 12$' "$gp" || { grep '^m = ' "$gp"; fail "kernel series dropped or merged"; }
grep -q "fs create" "$gp" || fail "fs not drawn in the baseline graph"
grep -q '^npanel = 2$' "$gp" || fail "no panel per CPU count"
grep -q "lock1 (processes), 1 CPU" "$gp" || fail "the 1-CPU kernel figures are missing"
[ -s "$out/kb/plots/baseline.png" ] || fail "no baseline.png"
grep -qi "gnuplot" "$out/kb.out" && { cat "$out/kb.out"; fail "gnuplot complained on the baseline"; }

# Plotting again into a used directory leaves nothing of the old plot: the
# thin sweep has one CPU count, no latency and no kernel baseline. A file
# that is not plot's own stays.
echo mine >"$out/notes.txt"
DBSCALE_DATADIR=$root "$bin" plot "$out/thin" --out "$out" >"$out/again.out" 2>&1 ||
    { cat "$out/again.out"; fail "plotting into a used directory failed"; }
for f in cpus.png cpus.svg cpus.gp baseline.png latency.png tput-latency.svg curve02.dat \
    curve01-usl.dat cpus01.dat micro01.dat throughput.svg graphs/cpus.gp graphs/baseline.gp; do
    [ -e "$out/$f" ] && fail "a stale $f of the previous plot was left"
done
[ -s "$out/throughput.png" ] && [ -s "$out/curve01.dat" ] || fail "the new plot is missing"
[ "$(cat "$out/notes.txt")" = mine ] || fail "a file plot did not write was removed"
echo "plot_fixture: ok"
exit 0
