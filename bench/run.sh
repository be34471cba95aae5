#!/bin/sh
# bench/run.sh - dbscale against sysbench (and pgbench) on the same throwaway
# server, workload and transport, interleaved, with repeats; prints a ratio
# table. Usage: bench/run.sh path/to/dbscale
# Knobs (environment): ENGINES="pgsql mysql" WORKLOADS="oltp_read_only
# oltp_read_write" THREADS="1 4 16 64 256 1024" REPEATS=3 TIME=8 TABLES=4
# SIZE=10000 PGBENCH=1 (also pgbench -S against dbscale oltp_point_select on
# pgsql) LONG_TIME=3*TIME (the run time from 256 connections: there a
# transaction waits behind hundreds of others for seconds, and connecting
# them all costs both tools CPU that a short run would charge to a few
# transactions). The server's max_connections is raised to fit the largest count.
# DBSCALE_ARGS: more options for dbscale's runs only (e.g. --client-sched=normal,
# to see what the loops' SCHED_BATCH is worth). ALT_ARGS: a second dbscale
# run in every repeat with these options instead (e.g. --client-loops=100000,
# a thread per connection), interleaved with the other two (the order
# rotates) and paired with the same sysbench run: its rows are the engine's
# name with ":alt" (mysql:alt), so one run compares two client policies.
# SERVER_CPUS and CLIENT_CPUS (CPU lists, e.g. 0 and 1): the server held to the
# first (dbscale server start --cpus) and every tool run under taskset on the
# second. At few connections an unpinned run is bimodal in a VM (the client
# and the server on one CPU or on two: 340-370 against 400-490 us of client
# CPU a read-only transaction, for every tool), so its ratios compare
# placements; pinned, they compare the tools (docs/performance.md, "One
# connection").
# Client CPU is user+sys of the whole client process (GNU time), divided by
# the transactions it reports: the same ruler for every tool. Server CPU is
# the server's own (and its reaped children's: PostgreSQL's backends) from
# /proc, per transaction too: a client that makes the server work harder
# per transaction shows there, not in its own figure. Fairness is each
# tool's events per connection, stddev / mean: a peer that serves a few of
# its connections and starves the rest gets a smaller, warmer working set
# (README: PostgreSQL at 1024 connections).
set -u
DBSCALE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ENGINES=${ENGINES:-pgsql mysql}
WORKLOADS=${WORKLOADS:-oltp_read_only oltp_read_write}
THREADS=${THREADS:-1 4 16 64 256 1024}
REPEATS=${REPEATS:-3}
TIME=${TIME:-8}
TABLES=${TABLES:-4}
SIZE=${SIZE:-10000}
PGBENCH=${PGBENCH:-1}
LONG_TIME=${LONG_TIME:-$((TIME * 3))}
DBSCALE_ARGS=${DBSCALE_ARGS:-}
ALT_ARGS=${ALT_ARGS:-}
SERVER_CPUS=${SERVER_CPUS:-}
CLIENT_CPUS=${CLIENT_CPUS:-}
pin=
[ -z "$CLIENT_CPUS" ] || pin="taskset -c $CLIENT_CPUS"
# sysbench's and pgbench's windows open at once, cold backends and all, so
# dbscale's does too here (the same ruler): --ramp-timeout=0 before the rest
RAMP=--ramp-timeout=0
# run_time THREADS: the run time at that connection count
run_time() { if [ "$1" -ge 256 ]; then echo "$LONG_TIME"; else echo "$TIME"; fi; }
# fresh WORKLOAD: a workload that writes gets the tables prepared again before
# every run, so no tool inherits another's dead rows. Measured on PostgreSQL,
# read-write at one connection: eight 4 s runs in a row on the same tables
# took a range select from 12.6 to 39 buffer reads (pg_stat_statements), the
# server's CPU per transaction up with it, and in the three-tool rotation the
# later tool pays it (docs/performance.md). A prepare here takes 0.3 s.
fresh() {
    case $1 in oltp_read_only | oltp_point_select | select_random_*) return 0 ;; esac
    "$DBSCALE" cleanup "$1" $conn $data >/dev/null && "$DBSCALE" prepare "$1" $conn $data >/dev/null ||
        { echo "bench: preparing $1 again failed" >&2; exit 1; }
}
command -v sysbench >/dev/null || { echo "bench: sysbench is not installed (make deps)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
OUT=$(mktemp -d /tmp/dbscale-bench-XXXXXX)
RAW=$OUT/raw.tsv
printf 'engine\tworkload\tthreads\trep\ttool\ttps\tcpu_us_per_txn\tserver_us_per_txn\tevents_sd_mean\n' >"$RAW"
# connections the server must take: the largest count, plus the tools' own
# setup connection and a margin for the server's reserved slots
maxth=1
for th in $THREADS; do [ "$th" -gt "$maxth" ] && maxth=$th; done
maxconn=$((maxth + 50))
[ "$maxconn" -lt 100 ] && maxconn=100
# a thread per connection (sysbench) and a socket per connection (both)
nofile=$((maxth * 2 + 256))
[ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$nofile" ] && ulimit -n "$nofile" 2>/dev/null
hz=$(getconf CLK_TCK)
. "$(dirname "$0")/server.sh"

# measure TOOL ENGINE WORKLOAD THREADS REP -- command...: run it under GNU time,
# record tps and client (and server) CPU per transaction
measure() {
    tool=$1 m_eng=$2 wl=$3 th=$4 rep=$5
    shift 6
    s0=$(server_ticks)
    $pin /usr/bin/time -f '%U %S' -o "$OUT/time" "$@" >"$OUT/out" 2>&1 || {
        echo "bench: $tool failed:" >&2; tail -5 "$OUT/out" >&2; return 1; }
    sleep 0.2 # the backends of the connections just closed are reaped
    s1=$(server_ticks)
    case $tool in
    pgbench)
        n=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$OUT/out")
        tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$OUT/out" | head -n 1) ;;
    *)
        n=$(sed -n 's/^ *transactions: *\([0-9]*\).*/\1/p' "$OUT/out")
        tps=$(sed -n 's/^ *transactions: *[0-9]* *(\([0-9.]*\) per sec.*/\1/p' "$OUT/out") ;;
    esac
    cpu=$(awk -v n="$n" '{ if (n > 0) printf "%.1f", ($1 + $2) * 1e6 / n; else print "nan" }' "$OUT/time")
    srv=$(awk -v n="$n" -v t="$((s1 - s0))" -v hz="$hz" 'BEGIN { if (n > 0) printf "%.1f", t * 1e6 / hz / n; else print "nan" }')
    # fairness: the report's events per connection, stddev / mean (pgbench
    # prints none)
    fair=$(sed -n 's|^ *events (avg/stddev): *\([0-9.]*\)/\([0-9.]*\).*|\1 \2|p' "$OUT/out" |
        awk '{ if ($1 > 0) printf "%.2f", $2 / $1; else print "nan" }')
    [ -n "$fair" ] || fair=nan
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$m_eng" "$wl" "$th" "$rep" "$tool" "$tps" "$cpu" "$srv" "$fair" >>"$RAW"
    printf '  %-8s %-16s %4s threads rep %s %-9s %9s tps %8s us/txn client %8s server %5s events sd/mean\n' "$m_eng" "$wl" "$th" "$rep" "$tool" "$tps" "$cpu" "$srv" "$fair"
}

for eng in $ENGINES; do
    # both tools get the same TCP loopback connection
    # MariaDB: every connection prepares each statement of the workload
    # (about 20), against a server-wide limit of 16382 by default
    more=
    [ "$eng" = mysql ] && more="--conf max_prepared_stmt_count=$((maxth * 40 + 16382))"
    bench_server "$eng" --conf max_connections=$maxconn $more ${SERVER_CPUS:+--cpus=$SERVER_CPUS} || exit 1
    spid=$(sed -n 's/^pid=//p' "$DIR/state")
    data="--tables=$TABLES --table-size=$SIZE"
    "$DBSCALE" prepare oltp_read_write $conn $data >/dev/null || exit 1
    if [ "$eng" = pgsql ] && [ "$PGBENCH" = 1 ]; then
        pgbench -i -q -s 1 -h 127.0.0.1 -p "$port" -U sbtest sbtest >/dev/null 2>&1
    fi
    for wl in $WORKLOADS; do
        for th in $THREADS; do
            rep=1
            while [ $rep -le "$REPEATS" ]; do
                # alternate who goes first, so drift lands on both (all three
                # in turn with ALT_ARGS)
                if [ -n "$ALT_ARGS" ]; then
                    case $((rep % 3)) in
                    1) order="dbscale alt sysbench" ;; 2) order="alt sysbench dbscale" ;;
                    *) order="sysbench dbscale alt" ;;
                    esac
                elif [ $((rep % 2)) -eq 1 ]; then order="dbscale sysbench"; else order="sysbench dbscale"; fi
                for tool in $order; do
                    fresh "$wl"
                    if [ $tool = dbscale ]; then
                        measure dbscale "$eng" "$wl" "$th" "$rep" -- "$DBSCALE" run "$wl" $conn $data --threads="$th" --time="$(run_time "$th")" $RAMP $DBSCALE_ARGS
                    elif [ $tool = alt ]; then
                        measure dbscale "$eng:alt" "$wl" "$th" "$rep" -- "$DBSCALE" run "$wl" $conn $data --threads="$th" --time="$(run_time "$th")" $RAMP $ALT_ARGS
                    else
                        measure sysbench "$eng" "$wl" "$th" "$rep" -- sysbench "$wl" $conn $data --threads="$th" --time="$(run_time "$th")" run
                        # the same run is the alternative's peer
                        [ -z "$ALT_ARGS" ] || tail -n 1 "$RAW" | sed "s/^$eng\t/$eng:alt\t/" >>"$RAW"
                    fi
                done
                rep=$((rep + 1))
            done
        done
    done
    if [ "$eng" = pgsql ] && [ "$PGBENCH" = 1 ]; then
        for th in $THREADS; do
            rep=1
            while [ $rep -le "$REPEATS" ]; do
                if [ $((rep % 2)) -eq 1 ]; then order="dbscale pgbench"; else order="pgbench dbscale"; fi
                for tool in $order; do
                    if [ $tool = dbscale ]; then
                        measure dbscale pgsql point_select "$th" "$rep" -- "$DBSCALE" run oltp_point_select $conn $data --threads="$th" --time="$(run_time "$th")" $RAMP $DBSCALE_ARGS
                    else
                        measure pgbench pgsql point_select "$th" "$rep" -- pgbench -n -S -M prepared -h 127.0.0.1 -p "$port" -U sbtest -c "$th" -j "$th" -T "$(run_time "$th")" sbtest
                    fi
                done
                rep=$((rep + 1))
            done
        done
    fi
    bench_server_stop
done

echo
echo "Paired ratios dbscale / peer over $REPEATS repeats: median (min-max). Targets: tps >= 1.00"
echo "and client CPU per transaction <= 1.00 at every thread count, <= 0.60 from 64 threads up."
echo "Server CPU per transaction is shown beside them (its ratio: how hard each client makes it work)."
awk -f "$(dirname "$0")/ratios.awk" "$RAW"
echo
echo "raw measurements: $RAW"
