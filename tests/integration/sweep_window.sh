#!/bin/sh
# integration: alone
# Every per-level figure covers the same window: with a 3 s warmup before a
# 1 s window, the server's CPU in results.csv must be what it used in that
# second. Held to 1 CPU it cannot have used more than 1 CPU-second of it
# (a tick of slack), where warmup plus window would give it up to four.
# idle_pct is a share of the same window: 0..100.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql
out=$work/r
"$DBSCALE" sweep oltp_point_select $SERVER_OPTS --server=external --prepare=on --cpus=1 \
    --threads=2 --repeats=1 --warmup-time=3 --time=1 --tables=1 --table-size=1000 \
    --report=off --out "$out" >"$work/log" 2>&1 || fail "sweep failed: $(cat "$work/log")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { t = $col["time_s"]; s = $col["server_cpu_s"]; idle = $col["idle_pct"]
      printf "window %.3f s, server CPU %.3f s, idle %.1f%%\n", t, s, idle
      if (s <= 0) { print "no server CPU measured"; bad = 1 }
      if (s > t * 1 + 0.05) { print "server CPU exceeds the window on 1 CPU"; bad = 1 }
      if (idle < 0 || idle > 100) { print "idle outside 0..100"; bad = 1 } }
    END { exit bad }' "$out/results.csv" || fail "server CPU is not the window's: $(cat "$out/results.csv")"
echo "server CPU and idle cover the measured window"
