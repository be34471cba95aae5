#!/bin/sh
# study_target.sh - repeats until the answer is clear (dbscale study
# --target-ci) over a managed PostgreSQL, one variant, two points:
#  1. a target no point can meet (+-0.01%): rounds are added, each run
#     restricted to the points still wide, until every point has
#     --max-repeats repeats; the study says the budget was spent and marks
#     every point (stdout, study.json, the page);
#  2. a target every point meets once judged (+-100%): one round added
#     (two repeats are no interval), then it stops, saying it was met;
#  3. a wall-time budget: no round is started that would end past
#     --max-time, and the study says so;
#  4. SIGINT during a run: passed on to it, exit 130, what finished kept
#     and recorded (ok, stopped, not run).
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d /tmp/dbscale-study-XXXXXX)
at_exit '[ -n "${KEEP:-}" ] || rm -rf "$work"'
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
W="sweep oltp_point_select --db-driver=pgsql --threads=1,2 --time=1 --tables=1 --table-size=1000"

# 1. never met: to the budget, said and marked
out=$work/tight
# shellcheck disable=SC2086
"$DBSCALE" study --target-ci=0.01 --max-repeats=4 --repeats=2 --quiet --out "$out" -- $W \
    >"$work/tight.log" 2>&1
rc=$?
cat "$work/tight.log"
expect_eq "exit of the study" $rc 0
grep -q "target: budget spent: 2 point(s) still wider than +-0.01% after 4 repeats (--max-repeats)" \
    "$work/tight.log" || fail "the study does not say the budget was spent"
expect_eq "runs" "$(json "$out/study.json" "' '.join(r['id'] for r in d['runs'])")" \
    "base.r1 base.r2 base.r3 base.r4"
expect_eq "the added runs' points" \
    "$(json "$out/study.json" "' '.join(r['only_threads'] for r in d['runs'][2:])")" "1,2 1,2"
expect_eq "repeats at each point" \
    "$(python3 -c "import csv,sys,collections; print(sorted(collections.Counter(r['threads'] for r in csv.DictReader(open(sys.argv[1]))).items()))" "$out/base/results.csv")" \
    "[('1', 4), ('2', 4)]"
expect_eq "points never met (study.json)" \
    "$(json "$out/study.json" "[(p['threads'], p['repeats']) for p in d['target']['unmet']]")" \
    "[(1, 4), (2, 4)]"
expect_eq "rounds added" "$(json "$out/study.json" "d['target']['rounds_added']")" 2
grep -q "^never met: variant" "$work/tight.log" || fail "stdout does not list the points never met"
expect_eq "points never met (the page)" "$(grep -c '<tr class="unmet">' "$out/report.html")" 2
grep -q 'id="study-target"' "$out/report.html" || fail "the page says nothing of the target"

# 2. met once judged: one round added, no more
out=$work/loose
# shellcheck disable=SC2086
"$DBSCALE" study --target-ci=100 --max-repeats=6 --repeats=2 --quiet --out "$out" -- $W \
    >"$work/loose.log" 2>&1
rc=$?
cat "$work/loose.log"
expect_eq "exit of the loose study" $rc 0
grep -q "target: met" "$work/loose.log" || fail "the study does not say the target was met"
expect_eq "runs of the loose study" "$(json "$out/study.json" "len(d['runs'])")" 3
expect_eq "met" "$(json "$out/study.json" "d['target']['met']")" True

# 3. the wall-time budget: a round that would end past it is not started
out=$work/time
# shellcheck disable=SC2086
"$DBSCALE" study --target-ci=0.01 --max-repeats=50 --max-time=1 --repeats=2 --quiet \
    --out "$out" -- $W >"$work/time.log" 2>&1
rc=$?
cat "$work/time.log"
expect_eq "exit of the timed study" $rc 0
grep -q "would end past --max-time=1 s" "$work/time.log" || fail "the study does not say it ran out of time"
expect_eq "runs of the timed study" "$(json "$out/study.json" "len(d['runs'])")" 2
# 4. SIGINT during the second run
out=$work/int
# shellcheck disable=SC2086
"$DBSCALE" study --settings a= --settings b= --repeats=2 --quiet --out "$out" -- $W --time=3 \
    >"$work/int.log" 2>&1 &
pid=$!
i=0
while ! grep -q "b, repeat 1: running" "$work/int.log" 2>/dev/null; do
    i=$((i + 1))
    [ $i -lt 600 ] || fail "the second run never started: $(cat "$work/int.log")"
    sleep 0.1
done
sleep 1
kill -INT $pid
wait $pid
rc=$?
cat "$work/int.log"
expect_eq "exit after SIGINT" $rc 130
expect_eq "runs after SIGINT" "$(json "$out/study.json" "' '.join(r['status'] for r in d['runs'])")" \
    "ok stopped not run not run"
grep -q "interrupted" "$out/log/b.r1.log" || fail "the run was not told: $(cat "$out/log/b.r1.log")"
echo "study_target: ok"
