#!/bin/sh
# integration: alone
# dbscale-mpi sweep over 3 MPI ranks on this machine against a real
# throwaway PostgreSQL: rank 0 plans and holds the server to 1 CPU and then
# all; every level's --threads are split over the ranks (7 = 3/2/2, seen at
# the server by each rank's application_name while the level runs);
# results.csv keeps one row per level, as a single-process sweep writes,
# plus one row per rank and level whose connections add up to the level's
# and whose tps add up to its tps; meta.json names the ranks, their hosts
# and the window start skew; the page is still written from the levels.
. "$(dirname "$0")/lib.sh" "$1"
need_tool mpirun openmpi-bin
MPI_BIN=$(dirname "$DBSCALE")/dbscale-mpi
[ -x "$MPI_BIN" ] || fail "$MPI_BIN missing: make builds it when mpicc (libopenmpi-dev) is installed"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql
ncpu=$(nproc)
cpus=$([ "$ncpu" -gt 1 ] && echo 1,all || echo all)
k=$([ "$ncpu" -gt 1 ] && echo 2 || echo 1)

out=$work/r
timeout 120 mpirun --allow-run-as-root --oversubscribe -n 3 "$MPI_BIN" sweep oltp_point_select \
    $SERVER_OPTS --server=external --prepare=on --cpus=$cpus --threads=3,7 --repeats=1 \
    --time=2 --warmup-time=0.5 --tables=1 --table-size=1000 --out "$out" >"$work/log" 2>&1 &
job=$!
seen="" i=0
while [ $i -lt 200 ] && kill -0 $job 2>/dev/null; do
    seen=$(pg_sql "SELECT application_name, count(*) FROM pg_stat_activity
            WHERE application_name LIKE 'dbscale-rank-%' GROUP BY 1" | tr '|' ' ' |
        awk '{n[$1]=$2} END {printf "%d %d %d", n["dbscale-rank-0"], n["dbscale-rank-1"], n["dbscale-rank-2"]}')
    [ "$seen" = "3 2 2" ] && break
    sleep 0.1
    i=$((i + 1))
done
wait $job || fail "mpirun sweep failed: $(cat "$work/log")"
expect_eq "connections per rank at the server (7 threads)" "$seen" "3 2 2"
grep -q "rank 0's host" "$work/log" ||
    fail "no word that the CPU method acts on rank 0's host: $(cat "$work/log")"

csv=$out/results.csv
col() { head -1 "$csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
R=$(col rank) C=$(col connections) T=$(col threads) P=$(col tps) V=$(col variant)
[ -n "$R" ] && [ -n "$C" ] && [ -n "$(col host)" ] || fail "results.csv lacks rank/host/connections: $(head -1 "$csv")"
levels=$(awk -F, -v r=$R 'NR > 1 && $r == ""' "$csv" | wc -l)
ranks=$(awk -F, -v r=$R 'NR > 1 && $r != ""' "$csv" | wc -l)
expect_eq "level rows" "$levels" $((k * 2))
expect_eq "rank rows (3 a level)" "$ranks" $((k * 6))
# every level: the ranks' connections add up to its threads, their tps to its tps
bad=$(awk -F, -v r=$R -v c=$C -v t=$T -v p=$P -v v=$V '
    NR == 1 { next }
    $r == "" { lt[$v "/" $t] = $p; next }
    { sc[$v "/" $t] += $c; sp[$v "/" $t] += $p; nr[$v "/" $t]++; split7[$v "/" $t] = split7[$v "/" $t] " " $c }
    END {
        for (key in lt) {
            split(key, kt, "/")
            if (nr[key] != 3 || sc[key] != kt[2]) print key ": connections " split7[key]
            d = sp[key] - lt[key]; if (d < 0) d = -d
            if (d > lt[key] * 0.02 + 1) print key ": ranks tps " sp[key] " level tps " lt[key]
        }
    }' "$csv")
[ -z "$bad" ] || fail "rank rows disagree with their level: $bad
$(cat "$csv")"
split=$(awk -F, -v r=$R -v c=$C -v t=$T 'NR > 1 && $r != "" && $t == 7 {printf "%s ", $c; n++} n == 3 {exit}' "$csv")
expect_eq "per-rank connections at 7 threads" "$split" "3 2 2 "

# intervals.csv: the periods are summed over the ranks after each level
# (rank 0 alone holds 3 of 7 connections and 1 of 3: under half the load).
# The periods cut the level's window, so their transactions (tps x the
# period's length, t being its end) add up to the level's (tps x time_s):
# held to 1% (they agree to a transaction here; the periods' figures are
# rounded to 0.01): a sum, not a speed: one slow period cannot fail it.
iv=$(awk -F, 'NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) h[$i] = i; next }
        if ($h["rank"] == "") { k = $h["variant"] "/" $h["threads"]; want[k] = $h["tps"] * $h["time_s"] }
        next }
    FNR == 1 { for (i = 1; i <= NF; i++) g[$i] = i; next }
    { key = $g["variant"] "/" $g["threads"]; n++
      got[key] += $g["tps"] * ($g["t"] - (key in last ? last[key] : 0)); last[key] = $g["t"] }
    END { if (!n) print "no periods"
          for (key in want) { d = got[key] - want[key]; if (d < 0) d = -d
              if (!(key in got) || d > want[key] * 0.01)
                  printf "%s: periods add up to %.0f transactions, the level has %.0f\n", key, got[key], want[key] } }' \
    "$csv" "$out/intervals.csv")
[ -z "$iv" ] || fail "intervals.csv not summed over the ranks: $iv
$(cat "$out/intervals.csv")"
meta=$out/meta.json
grep -q '"ranks": 3' "$meta" || fail "meta.json: no \"ranks\": 3: $(cat "$meta")"
hosts=$(sed -n '/"hosts"/,/]/p' "$meta" | grep -c "\"$(hostname)\"")
expect_eq "hosts in meta.json" "$hosts" 3
grep -q '"start_skew_max_s": [0-9]' "$meta" || fail "meta.json: no start_skew_max_s: $(cat "$meta")"
nsk=$(sed -n '/"start_skew_s"/,/]/p' "$meta" | grep -c '[0-9]')
expect_eq "a start skew per level" "$nsk" $((k * 2))
[ -s "$out/report.html" ] || fail "no report.html: $(cat "$work/log")"
grep -q "peak" "$work/log" || fail "no summary table: $(cat "$work/log")"
# readers see the levels only: plot and compare load the directory
ok "$DBSCALE" compare "$out" "$out" --inconclusive=pass
pgrep -f "$MPI_BIN" >/dev/null 2>&1 && fail "a rank is left running: $(pgrep -af "$MPI_BIN")"
echo "3 ranks: $levels levels, $ranks rank rows, connections at 7 threads $split"

# fewer connections than ranks at a level is bad input, refused (exit 2)
# before a managed server or a results directory is made
IT_WATCH=$work
refuses 2 "--threads=2 over 3 ranks" timeout 60 mpirun --allow-run-as-root --oversubscribe -n 3 \
    "$MPI_BIN" sweep oltp_point_select --db-driver=pgsql --threads=2,7 --repeats=1 --time=1 \
    --out "$work/split"
echo "$REFUSED_OUT" | grep -q "starting a throwaway" && fail "a server was started first: $REFUSED_OUT"
echo "--threads=2 over 3 ranks: refused before anything started"

# a Lua script is swept by one process: over the ranks it is refused (exit
# 2, naming it) before anything starts, not a crash in the first level
printf 'function event() end\n' >"$work/one.lua"
refuses 2 "one.lua: a Lua script is swept by one process" timeout 60 mpirun --allow-run-as-root \
    --oversubscribe -n 2 "$MPI_BIN" sweep "$work/one.lua" $SERVER_OPTS --server=external \
    --threads=2 --repeats=1 --time=1 --out "$work/lua" </dev/null
echo "a Lua script over 2 ranks: refused before anything started"
