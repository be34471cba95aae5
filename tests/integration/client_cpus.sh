#!/bin/sh
# --client-cpus is checked once, in option set-up, for run and sweep alike:
# a list that is not a CPU list, or names a CPU this machine does not have
# (or that is offline), exits 2 naming the option before anything runs.
# A good list still runs, and run refuses the sweep-only words same/rest.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql
C="$SERVER_OPTS --tables=1 --table-size=100"
ok "$DBSCALE" prepare oltp_point_select $C

for bad in banana 9999 0-99999 1-0 rest; do
    "$DBSCALE" run oltp_point_select $C --threads=1 --time=1 --client-cpus=$bad >"$work/out" 2>&1
    rc=$?
    [ $rc = 2 ] || fail "run --client-cpus=$bad: exit $rc, want 2: $(cat "$work/out")"
    grep -q -- "--client-cpus" "$work/out" || fail "run --client-cpus=$bad: option not named: $(cat "$work/out")"
done
for bad in banana 9999; do
    "$DBSCALE" sweep oltp_point_select $C --server=external --cpus=all --threads=1 --time=1 \
        --repeats=1 --client-cpus=$bad --out "$work/s$bad" >"$work/out" 2>&1
    rc=$?
    [ $rc = 2 ] || fail "sweep --client-cpus=$bad: exit $rc, want 2: $(cat "$work/out")"
    grep -q -- "--client-cpus" "$work/out" || fail "sweep --client-cpus=$bad: option not named: $(cat "$work/out")"
    [ ! -f "$work/s$bad/results.csv" ] || fail "sweep --client-cpus=$bad measured anyway"
done
ok "$DBSCALE" run oltp_point_select $C --threads=1 --time=1 --client-cpus=0
echo "client_cpus: bad lists refused with exit 2 by run and sweep; a good one runs"
