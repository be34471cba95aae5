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
fail=0
for t in "$@"; do
    echo "== $t"
    "$t" || fail=1
done
exit $fail
