#!/bin/sh
# One short real run under AddressSanitizer + UBSan (build/asan/dbscale, made
# by `make asan` / `make check`): prepare, a run with interval reports, rate
# limiting and text statements, a two-level sweep, sysbench's own scripts
# (connections on fibers, paced ones waiting for their arrivals; several to
# a loop), cleanup. Any sanitizer report fails the test.
. "$(dirname "$0")/lib.sh" "$1"
asan=$(dirname "$DBSCALE")/asan/dbscale
[ -x "$asan" ] || skip "no ASan build at $asan (make asan)"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql
C="$SERVER_OPTS --tables=2 --table-size=1000"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run() { "$asan" "$@" >"$work/out" 2>&1 || fail "asan: dbscale $*: $(tail -20 "$work/out")"; }
run prepare oltp_read_write $C
run run oltp_read_write $C --threads=4 --time=1.5 --report-interval=0.5 --rate=400
run run oltp_read_write $C --threads=3 --time=1 --db-ps-mode=disable --warmup-time=0.3
run sweep oltp_read_only $C --server=external --cpus=1,all --threads=1,2 --repeats=1 --time=0.5 --out "$work/r"
if have_file /usr/share/sysbench/oltp_read_write.lua sysbench; then
    run run /usr/share/sysbench/oltp_read_write.lua $C --threads=6 --client-loops=2 --time=1
    run run /usr/share/sysbench/oltp_point_select.lua $C --threads=4 --client-loops=1 --time=1 \
        --rate=300
fi
run cleanup oltp_read_write $C
echo "asan run clean"
