#!/bin/sh
# Runs every tests/integration/*.sh against real throwaway servers.
# Each script gets the dbscale binary as $1 and exits 0 (pass), 77 (skip) or
# anything else (fail). Set ONLY=name to run one.
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
pass=0 failn=0 skip=0 failed=""
for t in "$here"/integration/*.sh; do
    [ -e "$t" ] || continue
    name=$(basename "$t" .sh)
    [ "$name" = lib ] && continue # sourced by the tests, not one itself
    if [ -n "${ONLY:-}" ] && [ "$ONLY" != "$name" ]; then continue; fi
    start=$(date +%s)
    log=$(mktemp /tmp/dbscale-it-XXXXXX.log)
    sh "$t" "$bin" >"$log" 2>&1
    rc=$?
    secs=$(( $(date +%s) - start ))
    case $rc in
    0) pass=$((pass + 1)); echo "PASS $name (${secs}s)" ;;
    77) skip=$((skip + 1)); echo "SKIP $name: $(tail -n 1 "$log")" ;;
    *) failn=$((failn + 1)); failed="$failed $name"; echo "FAIL $name (${secs}s, exit $rc)"; sed 's/^/    /' "$log" | tail -n 40 ;;
    esac
    rm -f "$log"
done
echo "integration: $pass passed, $failn failed, $skip skipped"
[ $failn -eq 0 ]
