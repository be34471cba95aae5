#!/bin/sh
# integration: alone
# why_pgsql.sh - the why collectors against a real PostgreSQL with a
# bottleneck made on purpose: a 1-row table that 8 connections update
# (oltp_update_non_index, --table-size=1). One server for the whole script.
#  1. pg_wait_sampling (preloaded), --profile=knee over threads 1,8: the top
#     wait at 8 threads is Lock:transactionid or Lock:tuple; the CPU split,
#     sched and waits files are keyed as results.csv; meta.json documents
#     them; the knee's extra profiled runs have folded stacks holding an
#     executor function and a kernel syscall entry; the page has the why
#     sentence with numbers and a flame graph the browser shows whole.
#  2. the pg_stat_activity sampler asked for 10 kHz: the same top wait, its
#     rate reached (over 100 Hz) and CPU in waits.csv, and a sentence saying
#     it could not keep up, with the rate.
#  3. perf not on the PATH: --profile says which package, the sweep goes on
#     without profiles.
#  4. a role without pg_read_all_stats: the grant is named, the sweep goes
#     on without waits (root only: the revoke needs the superuser).
#  5. bad input: an unknown --profile or --waits value exits 2 naming it.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'

# 5 first: no server needed
"$DBSCALE" sweep oltp_point_select --db-driver=pgsql --profile=flames >/dev/null 2>"$work/err"
expect_eq "--profile=flames: exit" "$?" 2
grep -q "'flames'" "$work/err" || fail "the bad --profile value is not named: $(cat "$work/err")"
"$DBSCALE" sweep oltp_point_select --db-driver=pgsql --waits=performance_schema \
    >/dev/null 2>"$work/err"
expect_eq "--waits=performance_schema on pgsql: exit" "$?" 2
grep -q "performance_schema" "$work/err" || fail "the bad --waits is not named: $(cat "$work/err")"
"$DBSCALE" sweep oltp_point_select --db-driver=pgsql --why=off --profile=knee >/dev/null 2>"$work/err"
expect_eq "--why=off --profile=knee: exit" "$?" 2
grep -q "why=off" "$work/err" || fail "the contradiction is not named: $(cat "$work/err")"

start_server pgsql --conf shared_preload_libraries=pg_wait_sampling
hot="oltp_update_non_index $SERVER_OPTS --server=external --tables=1 --table-size=1 --repeats=1"

# col FILE NAME: the column's index in FILE's header
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
# top_wait FILE THREADS REPEAT: the lock/io/other event with the most us per transaction
top_wait() {
    awk -F, -v t="$2" -v r="$3" -v ce="$(col "$1" event)" -v cc="$(col "$1" cls)" \
        -v cu="$(col "$1" us_txn)" -v ct="$(col "$1" threads)" -v cr="$(col "$1" repeat)" \
        'NR > 1 && $ct == t && $cr == r && $cc != "cpu" && $cc != "client" && $cu > best {
             best = $cu; ev = $ce } END { print ev }' "$1"
}

# 1. pg_wait_sampling, profiled around the knee
out=$work/ext
"$DBSCALE" sweep $hot --prepare=on --threads=1,8 --time=1.5 --profile=knee --out "$out" \
    >"$work/log1" 2>&1 || fail "sweep failed: $(cat "$work/log1")"
for f in results.csv cpusplit.csv sched.csv waits.csv profile.csv report.html; do
    [ -s "$out/$f" ] || fail "no $f: $(cat "$work/log1")"
done
grep -q ',pg_wait_sampling,' "$out/waits.csv" || fail "waits not from pg_wait_sampling: $(head "$out/waits.csv")"
top=$(top_wait "$out/waits.csv" 8 1)
case $top in
Lock:transactionid | Lock:tuple) echo "top wait at 8 threads (pg_wait_sampling): $top" ;;
*) fail "top wait at 8 threads is '$top': $(cat "$out/waits.csv")" ;;
esac
# keyed as results.csv: every level of results.csv has its CPU split and sched row
tail -n +2 "$out/results.csv" | cut -d, -f3-6 | sort -u >"$work/keys"
for f in cpusplit.csv sched.csv; do
    awk -F, 'NR > 1 && $4 > 0 { print $1 "," $2 "," $3 "," $4 }' "$out/$f" | sort -u >"$work/k2"
    cmp -s "$work/keys" "$work/k2" || fail "$f keys differ from results.csv: $(cat "$work/k2")"
done
python3 - "$out/meta.json" <<'PY' || fail "meta.json does not document the why files"
import json, sys
m = json.load(open(sys.argv[1]))["why"]
assert m["waits"] == "pg_wait_sampling", m["waits"]
for f in ("cpusplit.csv", "sched.csv", "waits.csv", "profile.csv"):
    cols = open(sys.argv[1].replace("meta.json", f)).readline().strip().split(",")
    assert set(cols) <= set(m["files"][f]), (f, set(cols) - set(m["files"][f]))
PY
# the extra runs around the knee and the peak (the hot row may or may not
# bend the curve from 1 to 8 threads: 8 is the knee or the peak): repeat 0,
# folded stacks with an executor function and a syscall entry
grep -Eq ',8,0,(knee|peak),' "$out/profile.csv" || fail "no knee/peak profile: $(cat "$out/profile.csv")"
folded=$(awk -F, -v c="$(col "$out/profile.csv" folded)" 'NR > 1 && /,8,0,/ { print $c; exit }' \
    "$out/profile.csv")
[ -s "$out/$folded" ] || fail "no folded stacks at $folded"
grep -Eq 'Exec(utorRun|Update|ModifyTable|Scan|Plan|utePlan)|standard_ExecutorRun' "$out/$folded" ||
    fail "no executor function in $folded: $(head -c 600 "$out/$folded")"
grep -Eq 'entry_SYSCALL_64[a-z_]*_\[k\]|do_syscall_64_\[k\]' "$out/$folded" ||
    fail "no kernel syscall entry in $folded"
# the page: the sentence with its numbers, the flame graph whole in a browser
grep -Eq '<p class="why" id="why-c1"[^>]*>From 1 to 8 threads on [0-9]+ CPUs? .* -&gt; [0-9.]+ us' \
    "$out/report.html" || fail "no why sentence with numbers: $(grep -o '<p class="why".\{0,300\}' "$out/report.html")"
boxes=$(grep -o '<rect class="fr"' "$out/report.html" | wc -l)
[ "$boxes" -gt 20 ] || fail "flame graph with $boxes boxes"
grep -qi '<script' "$out/report.html" && fail "the page has a script"
if have_tool chromium chromium; then
    browser=$(command -v chromium)
    HOME=$work timeout 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
        --user-data-dir="$work/profile" --enable-logging=stderr --v=0 --dump-dom \
        "file://$out/report.html" >"$work/dom.html" 2>"$work/console" ||
        fail "chromium failed: $(tail -3 "$work/console")"
    grep CONSOLE "$work/console" && fail "the page logged to the browser console"
    expect_eq "flame boxes in the browser's DOM" "$(grep -o '<rect class="fr"' "$work/dom.html" | wc -l)" "$boxes"
fi

# 2. the pg_stat_activity sampler, asked for more than it can do
out=$work/act
"$DBSCALE" sweep $hot --prepare=off --threads=8 --time=1.5 --waits=pg_stat_activity --wait-hz=10000 \
    --report=off --out "$out" >"$work/log2" 2>&1 || fail "sweep failed: $(cat "$work/log2")"
top=$(top_wait "$out/waits.csv" 8 1)
case $top in
Lock:transactionid | Lock:tuple) echo "top wait at 8 threads (pg_stat_activity): $top" ;;
*) fail "top wait (pg_stat_activity) is '$top': $(cat "$out/waits.csv")" ;;
esac
grep -Eq 'could not keep up: [0-9]+ Hz reached of the 10000 Hz asked' "$work/log2" ||
    fail "the sampler's shortfall is not said: $(cat "$work/log2")"
awk -F, -v h="$(col "$out/waits.csv" sampler_hz)" -v c="$(col "$out/waits.csv" sampler_cpu_s)" \
    'NR == 2 { printf "sampler: %.0f Hz, %.3f s of CPU\n", $h, $c; exit !($h > 100 && $c > 0) }' \
    "$out/waits.csv" || fail "the sampler's rate or CPU: $(head -3 "$out/waits.csv")"

# 3. no perf to be found
out=$work/noperf
PATH=$work/nowhere "$DBSCALE" sweep $hot --prepare=off --threads=1 --time=0.5 --profile \
    --report=off --out "$out" >"$work/log3" 2>&1 || fail "sweep without perf failed: $(cat "$work/log3")"
grep -q "perf is not installed: apt-get install linux-perf" "$work/log3" ||
    fail "no perf: no message naming the package: $(cat "$work/log3")"
[ -s "$out/waits.csv" ] && [ ! -e "$out/profile.csv" ] || fail "without perf: waits or no profile expected"

# 4. a role that may not read other sessions' waits
if [ "$(id -u)" = 0 ]; then
    hba=$SERVER_DIR/data/pg_hba.conf
    { echo "local all postgres peer"; cat "$hba"; } >"$work/hba" && cat "$work/hba" >"$hba"
    kill -HUP "$SERVER_PID"
    sleep 0.5
    su -s /bin/sh postgres -c "cd / && psql -X -q -h '$SERVER_SOCKET_DIR' -p $SERVER_PORT -d sbtest \
        -c 'REVOKE pg_read_all_stats FROM sbtest'" || fail "cannot revoke pg_read_all_stats"
    out=$work/nogrant
    "$DBSCALE" sweep $hot --prepare=off --threads=2 --time=1 --report=off --out "$out" \
        >"$work/log4" 2>&1 || fail "sweep without the grant failed: $(cat "$work/log4")"
    grep -q "GRANT pg_monitor TO sbtest" "$work/log4" || fail "the grant is not named: $(cat "$work/log4")"
    [ ! -s "$out/waits.csv" ] || fail "waits collected without the grant"
    [ -s "$out/cpusplit.csv" ] || fail "the rest was not collected without the grant"
    echo "without pg_read_all_stats: grant named, sweep done"
fi
echo "why_pgsql: ok"
