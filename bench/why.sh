#!/bin/sh
# bench/why.sh - what the why collectors cost (docs/why.md): TPS and client
# CPU per transaction of a sweep level with the default collection on
# against off, paired and interleaved, per engine and connection count, and
# what --profile costs on top.
#
# Two throwaway servers per engine, prepared alike: "off" as a managed
# server was before the collectors (no pg_wait_sampling), run with
# --why=off; "on" as a managed server is now (pg_wait_sampling preloaded;
# MariaDB as before: performance_schema only with --waits=performance_schema,
# weighed with MYSQL_ON_CONF), run with the default collection; "profile" is the "on"
# server with --profile (perf record -g over the window). Each pair runs
# off and on back to back, alternating who goes first, the profile arm
# beside them; a pair's ratio compares two runs seconds apart, and the
# table gives the median of the paired ratios with their range (drift on a
# shared machine moves it far less than a ratio of medians).
#
# usage: bench/why.sh [DBSCALE]
# Knobs: ENGINES="pgsql mysql" THREADS="1 4 16 64" PAIRS=5 TIME=5
# WORKLOAD=oltp_read_only TABLES=4 SIZE=10000 PROFILE=1 (0: no profile arm)
# MYSQL_ON_CONF="performance_schema=ON;..." (';'-separated server conf lines
# for the "on" MariaDB, to weigh another set of instruments)
# Target (issue 26): the default collection costs at most 2% TPS (median of
# pairs); --profile's cost is reported, not bounded.
set -u
here=$(cd "$(dirname "$0")" && pwd)
DBSCALE=${1:-$(dirname "$here")/build/dbscale}
DBSCALE=$(cd "$(dirname "$DBSCALE")" && pwd)/$(basename "$DBSCALE")
ENGINES=${ENGINES:-pgsql mysql}
THREADS=${THREADS:-1 4 16 64}
PAIRS=${PAIRS:-5}
TIME=${TIME:-5}
WORKLOAD=${WORKLOAD:-oltp_read_only}
TABLES=${TABLES:-4}
SIZE=${SIZE:-10000}
PROFILE=${PROFILE:-1}
OUT=$(mktemp -d /tmp/dbscale-bench-why-XXXXXX)
RAW=$OUT/raw.tsv
SERVERS=
stop_all() {
    for d in $SERVERS; do "$DBSCALE" server stop --dir "$d" >/dev/null 2>&1; rm -rf "$d"; done
    SERVERS=
}
trap 'stop_all; rm -rf "$OUT"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
printf 'engine\tthreads\tpair\tarm\ttps\tcpu_us_per_txn\tserver_us_per_txn\tperf_cpu_s\n' >"$RAW"

# start NAME ENGINE [conf...]: a server in $OUT/NAME, prepared
start() {
    name=$1 eng=$2
    shift 2
    dir=$(mktemp -d /tmp/dbscale-bench-why-srv-XXXXXX)
    SERVERS="$SERVERS $dir"
    maxc=$(echo "$THREADS" | tr ' ' '\n' | sort -n | tail -1)
    set -- --conf "max_connections=$((maxc + 30))" "$@"
    "$DBSCALE" server start "$eng" --dir "$dir" "$@" >"$OUT/$name.start" 2>&1 ||
        { cat "$OUT/$name.start" >&2; exit 1; }
    eval "dir_$name=$dir"
    port=$(sed -n 's/^port=//p' "$dir/state")
    eval "conn_$name=\"--db-driver=$eng --$eng-host=127.0.0.1 --$eng-port=$port --$eng-user=sbtest --$eng-db=sbtest\""
    with_pw "$name" "$DBSCALE" prepare "$WORKLOAD" $(eval echo "\$conn_$name") --tables="$TABLES" \
        --table-size="$SIZE" >/dev/null || { echo "bench/why.sh: prepare on $name failed" >&2; exit 1; }
}

# with_pw NAME CMD...: CMD with the server's password in its environment
with_pw() {
    d=$(eval echo "\$dir_$1")
    shift
    if [ -f "$d/pgpass" ]; then
        PGPASSFILE=$d/pgpass "$@"
    else
        MYSQL_PWD=$(sed -n 's/^password=//p' "$d/client.cnf") "$@"
    fi
}

# arm ENGINE THREADS PAIR ARM: one level; a row of $RAW
arm() {
    eng=$1 t=$2 p=$3 a=$4
    srv=on extra=
    case $a in
    off) srv=off extra=--why=off ;;
    profile) extra=--profile ;;
    esac
    out=$OUT/r.$eng.$t.$p.$a
    with_pw "$srv" "$DBSCALE" sweep "$WORKLOAD" $(eval echo "\$conn_$srv") --server=external \
        --prepare=off --cpus=all --threads="$t" --repeats=1 --time="$TIME" --tables="$TABLES" \
        --table-size="$SIZE" --report=off $extra --out "$out" >"$out.log" 2>&1 ||
        { echo "bench/why.sh: $eng $t $a failed:" >&2; tail -5 "$out.log" >&2; return; }
    grep 'why:' "$out.log" | sed "s/^/    [$eng $t $a] /" >&2
    perf=0
    [ -s "$out/profile.csv" ] && perf=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        { s += $h["perf_cpu_s"] } END { print s + 0 }' "$out/profile.csv")
    awk -F, -v e="$eng" -v t="$t" -v p="$p" -v a="$a" -v perf="$perf" '
        NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $h["rank"] == "" { txn = $h["tps"] * $h["time_s"]
            printf "%s\t%s\t%s\t%s\t%s\t%s\t%.1f\t%s\n", e, t, p, a, $h["tps"],
                $h["client_cpu_per_txn_us"], (txn > 0 ? $h["server_cpu_s"] * 1e6 / txn : 0), perf }' \
        "$out/results.csv" | tee -a "$RAW" | sed 's/^/    /' >&2
}

for eng in $ENGINES; do
    stop_all
    echo "== $eng: starting the off and on servers, preparing $TABLES x $SIZE rows" >&2
    if [ "$eng" = pgsql ]; then
        start off pgsql
        start on pgsql --conf shared_preload_libraries=pg_wait_sampling \
            --conf pg_wait_sampling.profile_queries=off
    else
        start off mysql
        if [ -n "${MYSQL_ON_CONF:-}" ]; then # an alternative to weigh, ';'-separated
            set -f
            IFS=';'
            # shellcheck disable=SC2086
            set -- $MYSQL_ON_CONF
            unset IFS
            set +f
            n=$# # each line becomes --conf LINE, quotes and all, without eval
            for c in "$@"; do set -- "$@" --conf "$c"; done
            shift "$n"
            start on mysql "$@"
        else # a managed MariaDB has no performance_schema unless --waits asks
            start on mysql
        fi
    fi
    for t in $THREADS; do
        for p in $(seq 1 "$PAIRS"); do
            if [ $((p % 2)) -eq 1 ]; then order="off on"; else order="on off"; fi
            [ "$PROFILE" = 1 ] && order="$order profile"
            for a in $order; do arm "$eng" "$t" "$p" "$a"; done
        done
    done
done
stop_all

echo
echo "$WORKLOAD, $TIME s per level, $PAIRS pairs; medians of paired ratios (range)"
awk -F'\t' '
    NR > 1 { k = $1 "\t" $2; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
             tps[k, $3, $4] = $5; cpu[k, $3, $4] = $6; srv[k, $3, $4] = $7; perf[k, $3, $4] = $8
             if ($3 + 0 > np[k]) np[k] = $3 + 0 }
    function sort(v, n,    i, j, x) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
        if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x } }
    function med(v, n) { sort(v, n); return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
    # paired ratio arr[a] / arr[b] over the pairs of k: median, lo, hi (globals)
    function paired(arr, k, a, b,    r, n, i) { n = 0
        for (i = 1; i <= np[k]; i++) if ((k, i, a) in arr && (k, i, b) in arr && arr[k, i, b] > 0)
            r[++n] = arr[k, i, a] / arr[k, i, b]
        if (!n) { lo = hi = 0; return "-" }
        sort(r, n); lo = r[1]; hi = r[n]; return sprintf("%.3f (%.2f-%.2f)", med(r, n), lo, hi) }
    function mof(arr, k, a,    v, n, i) { n = 0
        for (i = 1; i <= np[k]; i++) if ((k, i, a) in arr) v[++n] = arr[k, i, a]
        return n ? med(v, n) : 0 }
    END {
        printf "| engine | conns | tps off | tps on | TPS on/off | client CPU/txn on/off | server CPU/txn on/off | TPS profile/on | perf CPU s/level |\n"
        printf "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
        for (i = 1; i <= nk; i++) { k = keys[i]; split(k, f, "\t")
            printf "| %s | %s | %.1f | %.1f | %s | %s | %s | %s | %s |\n", f[1], f[2],
                mof(tps, k, "off"), mof(tps, k, "on"), paired(tps, k, "on", "off"),
                paired(cpu, k, "on", "off"), paired(srv, k, "on", "off"),
                paired(tps, k, "profile", "on"),
                (k, 1, "profile") in perf ? sprintf("%.2f", mof(perf, k, "profile")) : "-" } }' "$RAW"
cp "$RAW" "/tmp/dbscale-bench-why.tsv" 2>/dev/null && echo "raw rows: /tmp/dbscale-bench-why.tsv"
