#!/bin/sh
# integration: alone
# dbscale sweep on a managed (throwaway) MariaDB with cpus=1,all and a small
# kernel baseline: results.csv has every level labelled, micro.csv holds the
# baseline rows labelled with the same variants, meta.json names the server,
# and no mariadbd is left behind.
. "$(dirname "$0")/lib.sh" "$1"
need_engine mysql
ncpu=$(nproc)
work=$(mktemp -d)
chmod 755 "$work" # the server runs as mysql and must reach its directory in here
trap 'rm -rf "$work"' EXIT
out=$work/r
# The managed server's directory goes under $work (TMPDIR), so only this
# sweep's mariadbd is counted, not other tests' running beside it.
count_mariadbd() { ps -eo args | grep "[m]ariadbd" | grep -c -F "$work/" || true; }
TMPDIR=$work "$DBSCALE" sweep oltp_read_write --db-driver=mysql --cpus=1,all --threads=1,2 --repeats=1 \
    --time=1 --tables=1 --table-size=1000 --baseline=getppid1,fs --out "$out" >"$work/log" 2>&1 ||
    fail "sweep failed: $(cat "$work/log")"
k=$((ncpu > 1 ? 2 : 1))
rows=$(tail -n +2 "$out/results.csv" | wc -l)
expect_eq "results rows" "$rows" $((k * 2))
grep -q '^mysql,oltp_read_write,smp-k1,1,' "$out/results.csv" || fail "no smp-k1 rows"
grep -q '"engine": "mysql"' "$out/meta.json" || fail "meta.json engine"
grep -q '"innodb_buffer_pool_size"' "$out/meta.json" || fail "meta.json lacks InnoDB settings"
grep -q 'MariaDB' "$out/meta.json" || fail "meta.json lacks the server version"
[ -s "$out/micro.csv" ] || fail "no micro.csv from --baseline"
grep -q '^getppid1,' "$out/micro.csv" || fail "no getppid1 rows: $(cat "$out/micro.csv")"
# the variant column, found by its name in the header
variants=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "variant") v = i; next }
    { print $v }' "$out/micro.csv" | sort -u | tr '\n' ' ')
case " $variants" in *" smp-k1 "*) ;; *) fail "baseline rows not labelled smp-k1: $(cat "$out/micro.csv")" ;; esac
if [ "$ncpu" -gt 1 ]; then
    case " $variants" in *" smp-k$ncpu "*) ;; *) fail "baseline rows not labelled smp-k$ncpu" ;; esac
fi
# polled: mariadbd ends its shutdown just after the sweep has asked it to
i=0
while [ "$(count_mariadbd)" != 0 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect_eq "mariadbd processes after the sweep (it must remove its own)" "$(count_mariadbd)" 0
[ -s "$out/fs.csv" ] || fail "no fs.csv from --baseline=...,fs"
fsrows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "variant") v = i; next }
    $v == "smp-k1"' "$out/fs.csv" | wc -l)
expect_eq "fs baseline passes at 1 CPU" "$fsrows" 3
awk -F, 'NR > 1 && ($6 <= 0 || $8 <= 0 || $9 != "") {bad = 1} END {exit bad}' "$out/fs.csv" ||
    fail "fs baseline rows without rates: $(cat "$out/fs.csv")"
# the graphs and the page from a real MariaDB sweep too (plot_sweep.sh does PostgreSQL's,
# with levels long enough for the time series)
[ -s "$out/report.html" ] || fail "the sweep wrote no report.html"
if have_tool gnuplot gnuplot-nox; then
    "$DBSCALE" plot "$out" --out "$out/plots" >"$work/plot" 2>&1 || fail "plot: $(cat "$work/plot")"
    for g in throughput speedup efficiency latency tput-latency cpus baseline latency-cdf; do
        [ "$(od -An -tx1 -N8 "$out/plots/$g.png" 2>/dev/null | tr -d ' \n')" = "89504e470d0a1a0a" ] ||
            fail "no $g.png from the MariaDB sweep: $(ls "$out/plots")"
    done
fi
echo "mysql sweep ok: $rows levels, micro and fs baselines stored, graphs and page drawn"
