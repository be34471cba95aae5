#!/bin/sh
# verdicts_ab.sh - B against A with real PostgreSQL sweeps (verdicts.sh has
# the curves' limits; this part reads no CPU verdict, so it shares the
# machine):
#  1. the same point-select sweep before and after the role is told to
#     JIT-compile every statement (jit_above_cost=0 and the other jit costs
#     at 0, as its session defaults): compare A B is a regression (exit 3)
#     and says so in verdict.json; B A is an improvement (no point worse);
#     A against A marks no throughput point worse or better;
#  2. two sweeps at different CPU counts share no point: exit 5, fail closed.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql
common="$SERVER_OPTS --server=external --repeats=1 --time=1.5 --warmup-time=0.3"
"$DBSCALE" prepare oltp_point_select $SERVER_OPTS --tables=1 --table-size=1000 >/dev/null ||
    fail "prepare failed"
# 1. A/B: JIT on every statement slows point selects by orders of magnitude
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

# 2. different CPU counts: nothing to compare, never a pass
"$DBSCALE" sweep oltp_point_select $common --tables=1 --table-size=1000 --cpus=1 \
    --threads=2 --out "$work/c1" >"$work/logc1" 2>&1 || fail "sweep c1: $(cat "$work/logc1")"
"$DBSCALE" sweep oltp_point_select $common --tables=1 --table-size=1000 --cpus=2 \
    --threads=2 --out "$work/c2" >"$work/logc2" 2>&1 || fail "sweep c2: $(cat "$work/logc2")"
rc=0
"$DBSCALE" compare "$work/c1" "$work/c2" >"$work/c.out" 2>&1 || rc=$?
expect_eq "compare at different CPU counts: exit" "$rc" 5
grep -q 'incomparable (no point measured on both sides' "$work/c.out" || fail "$(cat "$work/c.out")"
echo "verdicts_ab: regression, improvement, A/A and incomparable as expected"
