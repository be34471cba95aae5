#!/bin/sh
# plot_hostile.sh - received results must never run as code when plotted.
# gnuplot expands `cmd` inside double-quoted strings and @name macros, and a
# newline ends a string and starts a command, so every field that reaches a
# generated script (engine, workload, variant, the directory's name, the
# host, kernel and server version from meta.json, the micro.csv test name)
# is filled with backquotes, system(), macros and newlines (and --label, and
# a micro directory's test names in its own kernel graph); plotting must
# draw the graphs and create no file anywhere. $1 = dbscale binary.
# Exit 0 pass, 77 skip (no gnuplot; make check: a failure), anything else fail.
set -u
bin=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh" "$1"
need_tool gnuplot gnuplot-nox
top=$(mktemp -d /tmp/dbscale-hostile-XXXXXX)
trap 'rm -rf "$top"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Each payload touches its own marker file pwned-NAME: gnuplot runs in the
# out directory, and the check below looks for any pwned-* under $top.
bq() { printf '`touch pwned-%s`' "$1"; }
sy() { printf "'.system('touch pwned-%s').'" "$1"; }
nl() { printf '"\nsystem("touch pwned-%s")\n#' "$1"; }
# The directory's name carries payloads too, a newline among them.
d=$top/$(printf 'r%s@x%s\n' "$(bq dir)" "$(nl dirnl)")
mkdir -p "$d" || fail "mkdir"

csvq() { printf '"%s"' "$(printf '%s' "$1" | sed 's/"/""/g')"; }
# results.csv holds short fields (workload 31 bytes, variant 31), and refuses
# an unknown engine; two variants give two curves, both payloads.
eng=pgsql
wl=$(csvq "w$(bq wl)")
v1=$(csvq "v\"$(bq v1)\\")
v2=$(csvq "$(sy v2)")
{
    echo "engine,workload,variant,cpus,threads,repeat,tps,lat_p50_ms,lat_p95_ms,lat_p99_ms"
    for c in 1 2; do
        for t in 1 2 4 8; do
            for r in 0 1; do
                echo "$eng,$wl,$v1,$c,$t,$r,$((c * t * 100 + r)),1.0,2.0,3.0"
                echo "$eng,$wl,$v2,$c,$t,$r,$((c * t * 90 + r)),1.0,2.0,3.0"
            done
        done
    done
} >"$d/results.csv"
jq() { printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g' | awk 'BEGIN{ORS=""} NR>1{print "\\n"} {print}'; }
cat >"$d/meta.json" <<JSON
{
  "host": "$(jq "h$(bq host)@host")",
  "kernel": "$(jq "k$(nl kernel)")",
  "server_version": "$(jq "s$(bq server)$(sy server2)")"
}
JSON
{
    echo "test,mode,tasks,cpus,ops_per_s,min,max,cv,samples,fs_type,error"
    for t in 1 2 4; do
        echo "$(csvq "m$(bq micro)$(sy micro2)"),t,$t,2,$((t * 1000)),1,1,0,$((t * 1000)),,"
    done
} >"$d/micro.csv"

{
    echo "variant,cpus,threads,repeat,t,tps,qps,p95,errors"
    for t in 1 2 3; do echo "$v1,1,1,0,$t,100,1000,1.5,0"; done
} >"$d/intervals.csv"
{
    echo "variant,cpus,threads,repeat,lo_ms,hi_ms,count"
    echo "$v2,1,1,0,1,2,10"
    echo "$v1,1,1,0,1,2,10"
} >"$d/latency.csv"

cd "$top" || fail "cd"
# --label reaches the subtitle; a comma splits labels, so none here.
DBSCALE_DATADIR=$root "$bin" plot "$d" --out "$top/out" --label "l$(bq label)$(sy label2)" \
    >"$top/stdout" 2>"$top/stderr"
rc=$?
cat "$top/stdout" "$top/stderr"
# A micro directory alone: the test names become panel titles (kernel.gp).
k=$top/$(printf 'k%s' "$(bq kdir)")
mkdir -p "$k" && cp "$d/micro.csv" "$k/"
DBSCALE_DATADIR=$root "$bin" plot "$k" --out "$top/kout" >"$top/kstdout" 2>&1 ||
    { cat "$top/kstdout"; fail "plot of a hostile micro directory failed"; }
[ -s "$top/kout/kernel.png" ] || fail "kernel.png missing"
left=$(find "$top" -name 'pwned-*' | head -5)
[ -z "$left" ] || fail "plotting ran data as code: created $left"
[ $rc -eq 0 ] || fail "dbscale plot exited $rc"
for g in throughput speedup efficiency cpus baseline timeseries latency-cdf; do
    [ -s "$top/out/$g.png" ] || fail "$g.png missing"
done
grep -q "gnuplot failed" "$top/stderr" && fail "gnuplot failed"

# A results directory that holds a planted link where plot writes: its
# plots (or plots/graphs) pointing elsewhere, or a graph's image pointing
# at a file. Nothing is written or removed through a link: the plot is
# refused (or, for an image, the link replaced), the targets untouched.
v=$top/victim
mkdir -p "$v/g"
echo keep >"$v/curve09.dat"
echo keep >"$v/kernel.png"
echo keep >"$v/precious"
h=$top/h1
cp -r "$root/tests/data/pgsql-sweep" "$h"
ln -s "$v" "$h/plots"
IT_WATCH="$h
$v"
refuses 1 "plots: a symbolic link" env DBSCALE_DATADIR="$root" "$bin" plot "$h"
h=$top/h2
cp -r "$root/tests/data/pgsql-sweep" "$h"
mkdir "$h/plots"
ln -s "$v/g" "$h/plots/graphs"
IT_WATCH="$h
$v"
refuses 1 "graphs: a symbolic link" env DBSCALE_DATADIR="$root" "$bin" plot "$h"
rm "$h/plots/graphs"
ln -s "$v/precious" "$h/plots/throughput.png"
DBSCALE_DATADIR=$root "$bin" plot "$h" >"$top/hout" 2>&1 || fail "plot with a planted image link: $(cat "$top/hout")"
[ -L "$h/plots/throughput.png" ] && fail "the planted throughput.png link is still there"
for f in curve09.dat kernel.png precious; do
    [ "$(cat "$v/$f" 2>/dev/null)" = keep ] || fail "plot wrote or removed $v/$f through a planted link"
done
[ -z "$(ls "$v/g")" ] || fail "plot wrote into a planted graphs link: $(ls "$v/g")"
[ "$(ls "$v" | wc -l)" = 4 ] || fail "plot wrote through a planted link: $(ls "$v")"
# compare's --out the same
ln -s "$v" "$top/cmp"
IT_WATCH="$v
$root/tests/data"
refuses 1 "cmp: a symbolic link" env DBSCALE_DATADIR="$root" "$bin" compare "$root/tests/data/pgsql-sweep" \
    "$root/tests/data/mysql-sweep" --out "$top/cmp"
[ "$(ls "$v" | wc -l)" = 4 ] || fail "compare wrote through a link: $(ls "$v")"
echo "plot_hostile: ok"
exit 0
