#!/bin/sh
# Runs every tests/integration/*.sh against real throwaway servers.
# Each script gets the dbscale binary as $1 and exits 0 (pass), 77 (skip) or
# anything else (fail). Set ONLY=name to run one.
#
# Most tests spend their time waiting (a server's start, a timeout they
# provoke, a window), so they run IT_JOBS at a time (default 3). A test whose
# header has the line
#     # integration: alone
# runs with no other test beside it: it changes what the whole machine sees
# (CPU hotplug, cpusets), loads every CPU on purpose (1024 connections, qemu),
# or asserts on timing that a neighbour would disturb. Those run first, one at
# a time; then the rest, longest first where a header says
#     # integration: long
# An alone test whose header also has
#     # integration: quiet
# reads how the server's held CPUs were shared: IT_BESIDE_ALONE is stopped
# (SIGSTOP to its session) while it runs, since nice 19 does not keep the
# builds off a server held to one CPU (verdicts: the server had 21-40% of its
# CPU beside the sanitizer build in 6 runs, 84% without).
#
# make check hands this run two jobs of its own:
#   IT_BESIDE_ALONE  a command (the sanitizer builds) run beside the alone
#                    tests in its own session, its autogroup at nice 19: it
#                    takes only the CPU the alone test leaves (servers run in
#                    their own sessions, so a plain nice would not do; a
#                    build asserts nothing on time).
#   IT_BEFORE_POOL   a command (the unit tests) run once that is done, by
#                    itself (test_micro's short samples count nothing beside
#                    a loaded pool), before the rest start.
# Either failing stops the run there, as a failed build or unit test stopped
# make check before the integration tests.
#
# Skips (docs/testing.md, "Skips"): a test exits 77 to skip. IT_STRICT=1
# (make check sets it, after make deps) allows only the environment's skips
# (lib.sh's skip_env: not root, one CPU, no hotplug switch...): any other
# skip, a tool the deps install being missing, is counted as a failure.
# Skips are counted and named apart from the passes, and a passing test
# whose part was skipped for the environment (skip_env_part) says so.
# IT_HIDE="gnuplot ..." runs the tests with a PATH in which those commands
# are missing: a broken install made on purpose, which IT_STRICT must turn
# red (IT_HIDE=gnuplot make check).
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
jobs=${IT_JOBS:-3}
q=$(mktemp -d /tmp/dbscale-itq-XXXXXX) || exit 1
beside=
hide=
# the beside session as a whole: procps' kill (dash's own takes no "--",
# so it cannot name a process group)
group() { /bin/kill -s "$1" -- -"$beside" 2>/dev/null; }
trap '[ -z "$beside" ] || group TERM || kill -TERM "$beside" 2>/dev/null
[ -z "$beside" ] || group CONT
rm -rf "$q" ${hide:+"$hide"}' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
: >"$q/alone"
: >"$q/long"
: >"$q/rest"
for t in "$here"/integration/*.sh; do
    [ -e "$t" ] || continue
    name=$(basename "$t" .sh)
    [ "$name" = lib ] && continue # sourced by the tests, not one itself
    if [ -n "${ONLY:-}" ] && [ "$ONLY" != "$name" ]; then continue; fi
    if grep -q '^# integration: alone' "$t"; then
        echo "$t" >>"$q/alone"
    elif grep -q '^# integration: long' "$t"; then
        echo "$t" >>"$q/long"
    else
        echo "$t" >>"$q/rest"
    fi
done
cat "$q/long" "$q/rest" >"$q/pool"
# The throwaway servers' data directories are copied from a template the
# first start of each engine makes (DBSCALE_SERVER_CACHE, server_template.c):
# initdb and mariadb-install-db run once per run, not at every one of the
# suite's starts (0.9 s and 2 s each here). The cache goes with the run.
if [ -z "${DBSCALE_SERVER_CACHE:-}" ]; then
    DBSCALE_SERVER_CACHE=$q/server-cache
    export DBSCALE_SERVER_CACHE
fi
echo 1 >"$q/next"
mkdir "$q/parts"
if [ -n "${IT_HIDE:-}" ]; then
    # every command of PATH (the first of each name) as a link in one
    # directory, those named in IT_HIDE left out; readable to the servers'
    # users, whose commands (su postgres -c ...) run on this PATH too
    hide=$(mktemp -d /tmp/dbscale-itpath-XXXXXX) || exit 1
    chmod 755 "$hide"
    old_ifs=$IFS
    IFS=:
    for d in $PATH; do
        [ -d "$d" ] && cp -sn "$d"/* "$hide/" 2>/dev/null
    done
    IFS=$old_ifs
    for h in $IT_HIDE; do rm -f "$hide/$h"; done
    PATH=$hide
    export PATH
    echo "integration: IT_HIDE: $IT_HIDE left out of PATH"
fi

# one test: its result line (and a failure's log) printed whole, under a
# lock so two tests' reports do not interleave; the outcome kept for the sum
run_one() {
    t=$1
    name=$(basename "$t" .sh)
    start=$(date +%s)
    log=$(mktemp /tmp/dbscale-it-XXXXXX.log)
    IT_PARTS=$q/parts/$name sh "$t" "$bin" </dev/null >"$log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    why=$(tail -n 1 "$log")
    if [ $rc -eq 77 ] && [ "${IT_STRICT:-0}" = 1 ]; then
        case $why in
        "environment: "*) ;;
        *)
            echo "FAIL: skipped under IT_STRICT=1 for something the deps provide: $why" >>"$log"
            rc=1
            ;;
        esac
    fi
    case $rc in
    0)
        msg="PASS $name (${secs}s)"
        [ -s "$q/parts/$name" ] && msg="$msg, parts skipped: $(paste -sd';' "$q/parts/$name")"
        ;;
    77) msg="SKIP $name: $why" ;;
    *) msg="FAIL $name (${secs}s, exit $rc)" ;;
    esac
    {
        echo "$msg"
        case $rc in 0 | 77) ;; *) sed 's/^/    /' "$log" | tail -n 40 ;; esac
    } >"$log.msg"
    flock "$q/print" cat "$log.msg"
    echo "$rc $name" >>"$q/outcomes"
    rm -f "$log" "$log.msg"
}

# a worker: takes the pool's next test until none is left
worker() {
    while :; do
        n=$(flock "$q/next" sh -c 'n=$(cat "$1"); echo $((n + 1)) >"$1"; echo "$n"' sh "$q/next")
        t=$(sed -n "${n}p" "$q/pool")
        [ -n "$t" ] || return 0
        run_one "$t"
    done
}

if [ -n "${IT_BESIDE_ALONE:-}" ]; then
    # a session of its own is an autogroup of its own (when the kernel has
    # them), whose nice 19 weighs against the tests' and the servers'
    setsid -w sh -c 'echo 19 >/proc/self/autogroup 2>/dev/null; nice -n 19 sh -c "$1"
        r=$?; date +%s >"$2"; exit $r' sh "$IT_BESIDE_ALONE" "$q/beside.end" >"$q/beside.log" 2>&1 </dev/null &
    beside=$!
fi
alone_t0=$(date +%s)
while read -r t; do
    quiet=
    if [ -n "$beside" ] && grep -q '^# integration: quiet' "$t"; then
        group STOP && quiet=1
    fi
    run_one "$t"
    [ -z "$quiet" ] || group CONT
done <"$q/alone"
alone_t1=$(date +%s)
if [ -n "$beside" ]; then
    wait "$beside"
    rc=$?
    beside=
    cat "$q/beside.log"
    # the pool waits for builds that outlast the alone tests
    echo "integration: the alone tests took $((alone_t1 - alone_t0)) s, the work beside them" \
        "$(($(cat "$q/beside.end" 2>/dev/null || date +%s) - alone_t0)) s"
    [ $rc -eq 0 ] || {
        echo "integration: IT_BESIDE_ALONE failed (exit $rc)"
        exit 1
    }
fi
if [ -n "${IT_BEFORE_POOL:-}" ]; then
    unit_t0=$(date +%s)
    sh -c "$IT_BEFORE_POOL" </dev/null || {
        echo "integration: IT_BEFORE_POOL failed (exit $?)"
        exit 1
    }
    echo "integration: IT_BEFORE_POOL took $(($(date +%s) - unit_t0)) s"
fi
pool_t0=$(date +%s)
i=0
pids=
while [ $i -lt "$jobs" ]; do
    worker &
    pids="$pids $!"
    i=$((i + 1))
done
# shellcheck disable=SC2086
wait $pids

pass=0 failn=0 skip=0 failed="" skipped="" parts=""
if [ -f "$q/outcomes" ]; then
    while read -r rc name; do
        case $rc in
        0)
            pass=$((pass + 1))
            [ -s "$q/parts/$name" ] && parts="$parts $name"
            ;;
        77) skip=$((skip + 1)) skipped="$skipped $name" ;;
        *) failn=$((failn + 1)) failed="$failed $name" ;;
        esac
    done <"$q/outcomes"
fi
echo "integration: the shared part took $(($(date +%s) - pool_t0)) s at $jobs at a time"
echo "integration: $pass passed, $failn failed, $skip skipped${failed:+ (failed:$failed)}${skipped:+ (skipped:$skipped)}"
[ -z "$parts" ] || echo "integration: passed with a part skipped for the environment:$parts"
[ $failn -eq 0 ]
