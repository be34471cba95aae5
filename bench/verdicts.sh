#!/bin/sh
# bench/verdicts.sh BIN: what the verdict costs over a large study. Two
# synthetic results directories (A, and B 8% slower at a fifth of its points),
# each variants x CPU counts x threads x repeats rows (2 x 2500 = 5,000 points
# by default), then `dbscale compare A B` and `dbscale report A B` timed as
# whole processes, and the page's size. Override V, C, T, R for another size.
# No peer computes a verdict, so the figures stand alone (docs/performance.md).
set -eu
bin=${1:-build/dbscale}
V=${V:-5} C=${C:-5} T=${T:-20} R=${R:-5}
w=$(mktemp -d /tmp/dbscale-bench-verdicts.XXXXXX)
trap 'rm -rf "$w"' EXIT
gen() { # gen DIR SLOWER_SHARE SEED
    mkdir -p "$1"
    awk -v V="$V" -v C="$C" -v T="$T" -v R="$R" -v slow="$2" -v seed="$3" 'BEGIN {
        srand(seed)
        print "engine,workload,variant,cpus,threads,repeat,time_s,tps,lat_p95_ms,client_cpu_per_txn_us,server_cpu_s,idle_pct,disturbed"
        for (v = 1; v <= V; v++) for (c = 0; c < C; c++) for (t = 1; t <= T; t++) {
            cpus = 2 ^ c; f = (t % 5 == 0) ? slow : 1
            for (r = 1; r <= R; r++) {
                # Box-Muller: 3% lognormal noise
                z = sqrt(-2 * log(rand() + 1e-12)) * cos(6.283185307 * rand())
                tps = f * 1000 * cpus * t / (1 + 0.05 * (t - 1) + 0.002 * t * (t - 1)) * exp(0.03 * z)
                printf "pgsql,oltp_read_only,v%d,%d,%d,%d,10,%.2f,%.3f,%.2f,%.4f,20,0\n",
                    v, cpus, t, r, tps, t / tps * 2000, 100 * exp(0.03 * z), tps * 10 * 3e-4
            }
        }
    }' >"$1/results.csv"
}
gen "$w/A" 1 1
gen "$w/B" 0.92 2
rows=$(( $(wc -l <"$w/A/results.csv") + $(wc -l <"$w/B/results.csv") - 2 ))
t0=$(date +%s.%N)
"$bin" compare "$w/A" "$w/B" --out "$w/cmp" >"$w/compare.out" 2>&1 || true
t1=$(date +%s.%N)
"$bin" report "$w/A" "$w/B" --out "$w/page.html" >"$w/report.out" 2>&1
t2=$(date +%s.%N)
worse=$(grep -c '"class": "worse"' "$w/cmp/verdict.json" || true)
echo "verdicts over $rows points ($V variants x $C CPU counts x $T threads x $R repeats, two directories):"
echo "  dbscale compare: $(echo "$t1 - $t0" | bc) s ($worse points x figures found worse; $(head -c 200 "$w/cmp/verdict.txt" | head -1))"
echo "  dbscale report:  $(echo "$t2 - $t1" | bc) s, page $(($(wc -c <"$w/page.html") / 1024)) KiB, verdict.json $(($(wc -c <"$w/page.verdict.json") / 1024)) KiB"
