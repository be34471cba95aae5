#!/bin/sh
# Runs each cmocka unit-test binary given; fails if any fails.
#   run-unit.sh BIN...
#   run-unit.sh --lists "BIN..." "BIN..." ...   the lists at once, logs shown after
# `make check` runs the plain and the sanitized lists at once. Not more:
# as four lists (test_micro plain and sanitized, the rest plain and
# sanitized) the phase took 49 s against 62, but in a fresh check a
# test_micro point then counted nothing in three tries (its samples are
# short windows that a loaded CPU starves).
if [ "${1:-}" = --lists ]; then
    shift
    logs=$(mktemp -d) || exit 1
    trap 'rm -rf "$logs"' EXIT
    i=0
    pids=
    for l in "$@"; do
        i=$((i + 1))
        # shellcheck disable=SC2086
        sh "$0" $l >"$logs/$i" 2>&1 &
        pids="$pids $!"
    done
    rc=0
    for p in $pids; do wait "$p" || rc=1; done
    j=1
    while [ $j -le $i ]; do
        cat "$logs/$j"
        j=$((j + 1))
    done
    exit $rc
fi
# cmocka's skips (test_cpuset, test_spawn_reuse: what this machine cannot
# do, docs/testing.md "Skips") are named in the last line, not counted as
# passes
fail=0
skipped=
log=$(mktemp) || exit 1
for t in "$@"; do
    echo "== $t"
    "$t" >"$log" 2>&1 || fail=1
    cat "$log"
    for s in $(sed -n 's/^\[  SKIPPED \] \(test_[a-z0-9_]*\)$/\1/p' "$log" | sort -u); do
        skipped="$skipped $(basename "$t"):$s"
    done
done
rm -f "$log"
[ -z "$skipped" ] || echo "unit: skipped for this machine:$skipped"
exit $fail
