#!/bin/sh
# tests/fuzz/run.sh SECONDS TARGET... - run each libFuzzer target (built by
# `make fuzz-build` into build/fuzz/bin/, with ASan+UBSan and LeakSanitizer)
# for SECONDS on its seed corpus plus what earlier runs found
# (build/fuzz/TARGET/corpus). `make fuzz` builds and calls this. A crash, leak
# or UB stops that target, leaves its input as build/fuzz/TARGET/crash-*, and
# makes this script exit 1.
set -eu

SECONDS_EACH=${1:-60}
shift
TARGETS=${*:-fuzz_options fuzz_config fuzz_results fuzz_plot}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=$ROOT/build/fuzz
# fuzz_plot copies the graphs/NAME.gp styles from here.
DBSCALE_DATADIR=$ROOT
export DBSCALE_DATADIR

cd "$ROOT"

fail=0
for t in $TARGETS; do
    # The target runs in its own directory: fuzz_options may open a --config
    # name there (never a path with '/'), and a.ini is the one it can find.
    mkdir -p "$B/$t/corpus" "$B/$t/run"
    printf '[oltp]\nthreads = 4\ntime = 30\ndb-driver = mysql\npercentile = 99\nskip-trx = yes\n' \
        >"$B/$t/run/a.ini"
    case $t in
    fuzz_results | fuzz_plot) dict=$ROOT/tests/fuzz/results.dict ;;
    *) dict=$ROOT/tests/fuzz/options.dict ;;
    esac
    log=$B/$t/log.txt
    echo "== $t for ${SECONDS_EACH}s"
    # New inputs go to build/fuzz/T/corpus; the seeds in tests/ stay as committed.
    if (cd "$B/$t/run" && "$B/bin/$t" -max_total_time="$SECONDS_EACH" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$B/$t/" -dict="$dict" \
        "$B/$t/corpus" "$ROOT/tests/fuzz/corpus/$t") >"$log" 2>&1; then
        :
    else
        fail=1
        echo "$t: FAILED, see $log and $B/$t/crash-* / leak-* / timeout-*"
        grep -E "ERROR|SUMMARY|runtime error" "$log" | head -n 5 || true
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    echo "$t: ${runs:-?} executions"
done
exit $fail
