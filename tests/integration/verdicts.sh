#!/bin/sh
# integration: alone
# verdicts.sh - the verdicts against a real PostgreSQL (one server, its
# waits from pg_wait_sampling):
#  1. a 1-row update (oltp_update_non_index, --table-size=1) over 1, 4, 16
#     threads: its limit is row locks (Lock:transactionid or Lock:tuple), said
#     as the verdict or beside it, never "not measured" as 0;
#  2. point selects on one CPU over 4, 8, 16 threads, the client on the
#     other: CPU-saturated, with the server's user/kernel split named;
#  3. point selects capped by --rate: offered-load-bound;
#  4. A/B: the same point-select sweep before and after the role is told to
#     JIT-compile every statement (jit_above_cost=0 and the other jit costs
#     at 0, as its session defaults): compare A B is a regression (exit 3) and says so in
#     verdict.json; B A is an improvement (no point worse); A against A
#     marks no point worse or better;
#  5. two sweeps at different CPU counts share no point: exit 5, fail closed.
# The verdicts are read from verdict.json, which the page renders too. Alone:
# a neighbour's load on the CPUs is what the CPU verdicts read.
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

# 4. A/B: JIT on every statement slows point selects by orders of magnitude
ab="oltp_point_select $common --repeats=3 --tables=1 --table-size=1000 --threads=2"
"$DBSCALE" sweep $ab --out "$work/A" >"$work/logA" 2>&1 || fail "sweep A: $(cat "$work/logA")"
"$DBSCALE" sweep $ab --out "$work/A2" >"$work/logA2" 2>&1 || fail "sweep A2: $(cat "$work/logA2")"
# the role's own session defaults (jit's settings are the user's to set):
# every connection of the next sweep starts with them
for s in "jit = on" "jit_above_cost = 0" "jit_inline_above_cost = 0" "jit_optimize_above_cost = 0"; do
    pg_sql "ALTER ROLE CURRENT_USER SET $s" >/dev/null || fail "cannot set $s"
done
"$DBSCALE" sweep $ab --out "$work/B" >"$work/logB" 2>&1 || fail "sweep B: $(cat "$work/logB")"
pg_sql "ALTER ROLE CURRENT_USER RESET ALL" >/dev/null
gate() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); print(v["gate"], sum(p["class"] == sys.argv[2] for p in v["points"]))' "$@"; }
rc=0
"$DBSCALE" compare "$work/A" "$work/B" --out "$work/ab" >"$work/ab.out" 2>&1 || rc=$?
expect_eq "compare A B (jit): exit" "$rc" 3
set -- $(gate "$work/ab/verdict.json" worse)
[ "$1" = regression ] && [ "$2" -ge 1 ] || fail "A B: gate $1, $2 points worse: $(cat "$work/ab.out")"
grep -q '^worse: ' "$work/ab.out" || fail "A B: the summary lists no worse point"
rc=0
"$DBSCALE" compare "$work/B" "$work/A" --out "$work/ba" >"$work/ba.out" 2>&1 || rc=$?
set -- $(gate "$work/ba/verdict.json" worse)
[ "$2" = 0 ] || fail "B A: $2 points worse: $(cat "$work/ba.out")"
[ "$rc" = 0 ] || [ "$rc" = 4 ] || fail "B A: exit $rc: $(cat "$work/ba.out")"
set -- $(gate "$work/ba/verdict.json" better)
[ "$2" -ge 1 ] || fail "B A: only $2 points better: $(cat "$work/ba.out")"
rc=0
"$DBSCALE" compare "$work/A" "$work/A2" --out "$work/aa" >"$work/aa.out" 2>&1 || rc=$?
python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))
bad = [p for p in v["points"] if p["class"] in ("worse", "better") and p["figure"] == "tps"]
assert not bad, bad' "$work/aa/verdict.json" || fail "A/A: a throughput point marked: $(cat "$work/aa.out")"
[ "$rc" != 5 ] && [ "$rc" != 1 ] && [ "$rc" != 2 ] || fail "A/A: exit $rc"

# 5. different CPU counts: nothing to compare, never a pass
"$DBSCALE" sweep oltp_point_select $common --tables=1 --table-size=1000 --cpus=1 \
    --threads=2 --out "$work/c1" >"$work/logc1" 2>&1 || fail "sweep c1: $(cat "$work/logc1")"
"$DBSCALE" sweep oltp_point_select $common --tables=1 --table-size=1000 --cpus=2 \
    --threads=2 --out "$work/c2" >"$work/logc2" 2>&1 || fail "sweep c2: $(cat "$work/logc2")"
rc=0
"$DBSCALE" compare "$work/c1" "$work/c2" >"$work/c.out" 2>&1 || rc=$?
expect_eq "compare at different CPU counts: exit" "$rc" 5
grep -q 'incomparable (no point measured on both sides' "$work/c.out" || fail "$(cat "$work/c.out")"
echo "verdicts: lock, CPU, load, regression, improvement, A/A and incomparable as expected"
