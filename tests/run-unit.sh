#!/bin/sh
# Runs each cmocka unit-test binary given; fails if any fails.
fail=0
for t in "$@"; do
    echo "== $t"
    "$t" || fail=1
done
exit $fail
