#!/bin/sh
# The lock-free parts under ThreadSanitizer (build/tsan/dbscale, made by
# `make tsan` / `make check`): several event loops and the interval reporter
# reading their counters and histograms (a Lua script's too), rate-limited
# arrivals, and a sweep reusing the pool across levels. Any data race report fails the test.
. "$(dirname "$0")/lib.sh" "$1"
tsan=$(dirname "$DBSCALE")/tsan/dbscale
[ -x "$tsan" ] || skip "no TSan build at $tsan (make tsan)"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql
C="$SERVER_OPTS --tables=2 --table-size=1000"
export TSAN_OPTIONS=halt_on_error=1:exitcode=66
run() { "$tsan" "$@" >"$work/out" 2>&1 || fail "tsan: dbscale $*: $(grep -A20 ThreadSanitizer "$work/out" | head -40)"; }
ok "$DBSCALE" prepare oltp_read_write $C
run run oltp_read_only $C --threads=12 --client-loops=3 --time=1.5 --report-interval=0.3
run run oltp_read_write $C --threads=8 --client-loops=2 --time=1 --rate=400
# the queue-length line and the checkpoints read the loops' counters mid-run
run run oltp_read_only $C --threads=6 --client-loops=2 --time=2 --rate=300 --report-interval=0.5 --report-checkpoints=1
# a script's loops and the ticker's periods and checkpoints (lrun.c)
run /usr/share/sysbench/oltp_read_only.lua $C --threads=6 --client-loops=2 --time=2 \
    --report-interval=0.5 --report-checkpoints=1 run
run sweep oltp_point_select $C --server=external --threads=1,9,17 --repeats=1 --time=0.4 --out "$work/r"
echo "tsan run clean"
