#!/bin/sh
# bench/mpi.sh - what sharing a sweep over MPI ranks costs: 3 ranks x 4
# connections (dbscale-mpi sweep) against 1 process x 12 connections
# (dbscale sweep) on the same throwaway PostgreSQL, with 3 event-loop
# threads on each side (1 a rank, 3 in the one process: on a shared
# machine the side with more threads would get more CPU), interleaved A B B A so
# drift on a shared machine falls on both sides alike. Per side: median TPS,
# client CPU per transaction (every rank's CPU summed) and the dead time
# between levels (the gap between two levels' ends less the level's own
# warmup + time: reduction, results written, connections readied, barriers).
# Then, single process, how many connections one client core sustains:
# point_select at 64 and 256 connections, transactions per client
# CPU-second and connections per busy client core.
# usage: bench/mpi.sh [DBSCALE] [PAIRS]   (targets: TPS within noise, CPU/txn
# within 5%, dead time under 1 s)
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
DBSCALE=${1:-$top/build/dbscale}
pairs=${2:-3}
MPI_BIN=$(dirname "$DBSCALE")/dbscale-mpi
[ -x "$MPI_BIN" ] || { echo "bench/mpi.sh: $MPI_BIN missing (make, with libopenmpi-dev)" >&2; exit 1; }
. "$here/server.sh"
wl=oltp_point_select
levels=3 warm=1 t=3
work=$(mktemp -d /tmp/dbscale-bench-mpi-XXXXXX)
bench_server pgsql --conf max_connections=300
trap 'bench_server_stop; rm -rf "$work"' EXIT
"$DBSCALE" prepare $wl $conn --tables=1 --table-size=10000 >/dev/null

# one_run A|B N: a sweep of $levels levels; appends "side tps cpu_us dead_s"
# per level to $work/rows
one_run() {
    out=$work/$1.$2
    common="$wl $conn --server=external --prepare=off --cpus=all --repeats=$levels --time=$t"
    common="$common --warmup-time=$warm --report=off --tables=1 --table-size=10000 --out $out"
    if [ "$1" = A ]; then
        set -- "$1" mpirun --allow-run-as-root --oversubscribe -n 3 "$MPI_BIN" sweep $common \
            --threads=12 --client-loops=1
    else
        set -- "$1" "$DBSCALE" sweep $common --threads=12 --client-loops=3
    fi
    side=$1
    shift
    # the wall clock of every level's end, from its progress line
    log=$work/log.$side.$(basename "$out")
    "$@" 2>&1 >/dev/null | while IFS= read -r line; do
        echo "$(date +%s.%N) $line"
    done >"$log"
    [ -s "$out/results.csv" ] || { echo "bench/mpi.sh: $side failed:" >&2; cat "$log" >&2; exit 1; }
    awk '$2 ~ /^\[[0-9]+\/[0-9]+\]/ { print $1 }' "$log" >"$work/ends"
    awk -F, -v side="$side" -v lv=$((warm + t)) 'NR == FNR { e[FNR] = $1; n = FNR; next }
        FNR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["rank"] == "" { k++; d = k > 1 ? e[k] - e[k - 1] - lv : -1
            printf "%s %s %s %s\n", side, $h["tps"], $h["client_cpu_per_txn_us"], d }' \
        "$work/ends" "$out/results.csv" | tee -a "$work/rows" | sed 's/^/    /' >&2
}

for p in $(seq 1 "$pairs"); do
    if [ $((p % 2)) -eq 1 ]; then one_run A "$p"; one_run B "$p"; else one_run B "$p"; one_run A "$p"; fi
    echo "  pair $p done" >&2
done

med() { sort -g | awk '{ a[++n] = $1 } END { print n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }'; }
printf '%-28s %10s %14s %14s\n' "" "TPS" "CPU/txn us" "dead s/level"
for s in A B; do
    name=$([ $s = A ] && echo "3 ranks x 4 (dbscale-mpi)" || echo "1 process x 12 (dbscale)")
    tps=$(awk -v s=$s '$1 == s { print $2 }' "$work/rows" | med)
    cpu=$(awk -v s=$s '$1 == s { print $3 }' "$work/rows" | med)
    dead=$(awk -v s=$s '$1 == s && $4 >= 0 { print $4 }' "$work/rows" | med)
    printf '%-28s %10.0f %14.2f %14.3f\n' "$name" "$tps" "$cpu" "$dead"
done

# connections per client core: one process, 64 and 256 connections
out=$work/cores
"$DBSCALE" sweep $wl $conn --server=external --prepare=off --cpus=all --repeats=1 --time=5 \
    --warmup-time=1 --report=off --tables=1 --table-size=10000 --threads=64,256 --out "$out" \
    >/dev/null 2>&1
printf '\n%-12s %10s %12s %16s %16s\n' connections TPS "client CPU" "txn/client CPU-s" "conns/client core"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
    { c = $h["client_cpu_s"] / $h["time_s"]
      printf "%-12d %10.0f %12.2f %16.0f %16.0f\n", $h["threads"], $h["tps"], c,
          $h["tps"] / (c > 0 ? c : 1e-9), $h["threads"] / (c > 0 ? c : 1e-9) }' "$out/results.csv"
