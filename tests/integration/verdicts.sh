#!/bin/sh
# integration: alone
# integration: quiet
# verdicts.sh - the verdicts against a real PostgreSQL (one server, its
# waits from pg_wait_sampling):
#  1. a 1-row update (oltp_update_non_index, --table-size=1) over 1, 4, 16
#     threads: its limit is row locks (Lock:transactionid or Lock:tuple), said
#     as the verdict or beside it, never "not measured" as 0;
#  2. point selects on one CPU over 4, 8, 16 threads, the client on the
#     other: CPU-saturated, with the server's user/kernel split named;
#  3. point selects capped by --rate: offered-load-bound;
# The verdicts are read from verdict.json, which the page renders too. Alone:
# a neighbour's load on the CPUs is what the CPU verdicts read (B against A,
# which reads no CPU verdict, is verdicts_ab.sh).
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql --conf shared_preload_libraries=pg_wait_sampling
# one repeat where a curve's limit is asked (its class needs no interval),
# three a side where B is compared with A
common="$SERVER_OPTS --server=external --repeats=1 --time=1.5 --warmup-time=0.3"

# limits FILE: every limit's class, also and part, one per line
limits() {
    python3 -c '
import json, sys
for l in json.load(open(sys.argv[1]))["limits"]:
    print(l["class"], "|", l["also"], "|", l["part"], "|", l["sentence"])' "$1"
}

# 1. the 1-row update
"$DBSCALE" sweep oltp_update_non_index $common --prepare=on --tables=1 --table-size=1 \
    --threads=1,4,16 --out "$work/upd" >"$work/log1" 2>&1 || fail "update sweep: $(cat "$work/log1")"
limits "$work/upd/verdict.json" >"$work/l1"
cat "$work/l1"
grep -Eq '^(lock-bound \||.*\| lock-bound \|)' "$work/l1" ||
    fail "the 1-row update is not lock-bound: $(cat "$work/l1")"
grep -Eq 'row locks \(Lock:(transactionid|tuple)\)' "$work/l1" ||
    fail "the lock is not named as row locks: $(cat "$work/l1")"
grep -q 'lock-bound' "$work/upd/report.html" || fail "the page does not say lock-bound"
grep -q 'id="verdict"' "$work/upd/report.html" || fail "the page has no verdict section"

# 2. point selects on one CPU (the 1-row table goes first)
"$DBSCALE" cleanup oltp_update_non_index $SERVER_OPTS --tables=1 >/dev/null 2>&1 ||
    fail "cleanup after the update sweep failed"
"$DBSCALE" sweep oltp_point_select $common --prepare=on --tables=1 --table-size=1000 --cpus=1 \
    --client-cpus=1 --threads=4,8,16 --out "$work/cpu" >"$work/log2" 2>&1 || fail "cpu sweep: $(cat "$work/log2")"
limits "$work/cpu/verdict.json" >"$work/l2"
cat "$work/l2"
grep -Eq '^CPU-saturated \|' "$work/l2" || fail "1 CPU, 4-16 threads is not CPU-saturated: $(cat "$work/l2")"
grep -Eq '^CPU-saturated \|.*user [0-9]+%, kernel [0-9]+%' "$work/l2" ||
    fail "the CPU's user/kernel split is not named: $(cat "$work/l2")"

# 3. a --rate cap
"$DBSCALE" sweep oltp_point_select $common --tables=1 --table-size=1000 --threads=1,2,4 \
    --rate=200 --out "$work/rate" >"$work/log3" 2>&1 || fail "rate sweep: $(cat "$work/log3")"
limits "$work/rate/verdict.json" >"$work/l3"
cat "$work/l3"
grep -Eq '^offered-load-bound \|.*--rate=200' "$work/l3" ||
    fail "a level capped by --rate is not load-bound: $(cat "$work/l3")"

echo "verdicts: lock, CPU and load as expected"
