#!/bin/sh
# Runs each cmocka unit-test binary given; fails if any fails.
#   run-unit.sh BIN...
#   run-unit.sh --both "BIN..." "BIN..."   two lists at once, logs shown after
# `make check` runs the plain and the sanitized lists at once: most of their
# time is the micro harness's sampling windows (wall time, not CPU), so the
# pair takes about as long as the sanitized list alone.
if [ "${1:-}" = --both ]; then
    logs=$(mktemp -d) || exit 1
    trap 'rm -rf "$logs"' EXIT
    # shellcheck disable=SC2086
    sh "$0" $2 >"$logs/a" 2>&1 &
    a=$!
    # shellcheck disable=SC2086
    sh "$0" $3 >"$logs/b" 2>&1
    rb=$?
    wait $a
    ra=$?
    cat "$logs/a" "$logs/b"
    [ $ra -eq 0 ] && [ $rb -eq 0 ]
    exit
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
