#!/bin/sh
# tests/fuzz/run.sh [SECONDS|build] - build the libFuzzer targets into
# build/fuzz/bin/ and run each for SECONDS (default 60) on its seed corpus
# plus what earlier runs found (build/fuzz/TARGET/corpus); "build" only builds.
#
# The driver rooms are compiled once into build/fuzz/libdbscale.a with the
# fuzzer's coverage hooks and ASan+UBSan (LeakSanitizer on), so a target
# links only what it reaches. A crash, leak or UB stops that target, leaves
# its input as build/fuzz/TARGET/crash-*, and makes this script exit 1.
# Run from anywhere; the environment variable CC overrides clang.
set -eu

SECONDS_EACH=${1:-60}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CC=${CC:-clang}
B=$ROOT/build/fuzz
TARGETS="fuzz_options fuzz_config fuzz_results"

SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
CFLAGS="-std=c11 -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer $SAN \
 -Wall -Wextra -Werror -Wno-missing-field-initializers \
 -I$ROOT/driver -I/usr/include/postgresql $(mariadb_config --cflags 2>/dev/null || true) \
 -DDBSCALE_VERSION=\"fuzz\" -DDBSCALE_GIT=\"fuzz\""
LIBS="-lpq $(mariadb_config --libs 2>/dev/null || echo -lmariadb) -linih -lm -lpthread"

cd "$ROOT"
mkdir -p "$B/obj"

# Library objects: rebuilt when the source or any driver header is newer.
newest_h=$(ls -t driver/*.h driver/micro/*.h | head -n 1)
srcs=$(ls driver/*.c driver/micro/*.c driver/micro/tests/*.c | grep -v '^driver/main\.c$')
stale=""
for s in $srcs; do
    o=$B/obj/$(echo "$s" | tr / _ | sed 's/\.c$/.o/')
    if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$newest_h" -nt "$o" ]; then
        stale="$stale $s"
    fi
done
if [ -n "$stale" ]; then
    echo "building driver objects for fuzzing ($(echo $stale | wc -w) files)"
    export B CC CFLAGS
    # shellcheck disable=SC2086
    printf '%s\n' $stale | xargs -P "$(nproc)" -I{} sh -c \
        'o=$B/obj/$(echo "{}" | tr / _ | sed "s/\.c\$/.o/"); \
         $CC $CFLAGS -fsanitize=fuzzer-no-link -c -o "$o" "{}"'
    rm -f "$B/libdbscale.a"
fi
[ -f "$B/libdbscale.a" ] || ar rcs "$B/libdbscale.a" "$B"/obj/*.o

for t in $TARGETS; do
    echo "  LD  build/fuzz/bin/$t"
    mkdir -p "$B/bin"
    # shellcheck disable=SC2086
    $CC $CFLAGS -fsanitize=fuzzer -o "$B/bin/$t.tmp" "tests/fuzz/$t.c" "$B/libdbscale.a" $LIBS
    mv "$B/bin/$t.tmp" "$B/bin/$t" # a renamed file: a target still running keeps its own
done
[ "$SECONDS_EACH" = build ] && exit 0

fail=0
for t in $TARGETS; do
    # The target runs in its own directory: fuzz_options may open a --config
    # name there (never a path with '/'), and a.ini is the one it can find.
    mkdir -p "$B/$t/corpus" "$B/$t/run"
    printf '[oltp]\nthreads = 4\ntime = 30\ndb-driver = mysql\npercentile = 99\nskip-trx = yes\n' \
        >"$B/$t/run/a.ini"
    case $t in
    fuzz_results) dict=$ROOT/tests/fuzz/results.dict ;;
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
