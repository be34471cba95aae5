#!/bin/sh
# Passwords never leak: given on the command line, it is blanked in
# /proc/PID/cmdline while dbscale runs, and it appears in no output, report,
# results.csv or meta.json; a wrong one fails without echoing it.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql
pw=$(server_password)
unset PGPASSFILE
C="$SERVER_OPTS --pgsql-password=$pw --tables=1 --table-size=100"
ok "$DBSCALE" prepare oltp_point_select $C

# cmdline_while_running PID OUT FILE: once the run in PID has printed its
# first report line to OUT (it is past its start, where the password is
# blanked, and still running), its /proc cmdline into FILE; it must be the
# run's (it names the verb), not an empty read of an ended process
cmdline_while_running() {
    _i=0
    until grep -q '^\[ ' "$2"; do
        _i=$((_i + 1))
        [ $_i -lt 300 ] && kill -0 "$1" 2>/dev/null || fail "no report line while running: $(cat "$2")"
        sleep 0.05
    done
    tr '\0' ' ' <"/proc/$1/cmdline" >"$3"
    kill -0 "$1" 2>/dev/null || fail "the run ended before its cmdline was read: $(cat "$2")"
    grep -q "run oltp_point_select" "$3" || fail "/proc/$1/cmdline is not the run's: '$(cat "$3")'"
}
"$DBSCALE" run oltp_point_select $C --time=2 --report-interval=0.2 >"$work/run" 2>&1 &
run=$!
cmdline_while_running $run "$work/run" "$work/cmdline"
grep -q -- "--pgsql-password=" "$work/cmdline" || fail "the option itself is gone: $(cat "$work/cmdline")"
grep -q "$pw" "$work/cmdline" && fail "the password is visible in /proc/$run/cmdline"
wait $run || fail "run failed: $(cat "$work/run")"
"$DBSCALE" sweep oltp_point_select $C --server=external --threads=1 --repeats=1 --time=0.3 \
    --out "$work/r" >"$work/sweep" 2>&1 || fail "sweep failed: $(cat "$work/sweep")"
"$DBSCALE" run oltp_point_select $SERVER_OPTS --pgsql-password=wrong-$pw --time=1 >"$work/bad" 2>&1 &&
    fail "a wrong password was accepted"
grep -q "password authentication failed" "$work/bad" || fail "no clear auth error: $(cat "$work/bad")"
for f in "$work/run" "$work/sweep" "$work/bad" "$work/r/results.csv" "$work/r/meta.json"; do
    grep -q "$pw" "$f" && fail "the password leaked into $f"
done
echo "no password in cmdline, output, results or metadata"

# --pgsql-conninfo in each of its forms: keyword password=, URI userinfo and
# URI ?password=. The password must be gone from /proc/PID/cmdline while
# dbscale runs, from stdout and stderr, and from every results file.
base="127.0.0.1:$SERVER_PORT/$SERVER_DB"
n=0
for ci in "host=127.0.0.1 port=$SERVER_PORT user=$SERVER_USER dbname=$SERVER_DB password=$pw" \
    "postgresql://$SERVER_USER:$pw@$base" "postgresql://$SERVER_USER@$base?password=$pw"; do
    n=$((n + 1))
    "$DBSCALE" run oltp_point_select --db-driver=pgsql --pgsql-conninfo "$ci" --tables=1 \
        --table-size=100 --time=2 --report-interval=0.2 >"$work/ci$n.out" 2>"$work/ci$n.err" &
    run=$!
    cmdline_while_running $run "$work/ci$n.out" "$work/ci$n.cmdline"
    grep -q -- "--pgsql-conninfo" "$work/ci$n.cmdline" || fail "conninfo form $n: option gone"
    wait $run || fail "run with conninfo form $n failed: $(cat "$work/ci$n.err")"
    grep -q "$pw" "$work/ci$n.cmdline" && fail "conninfo form $n: password visible in /proc/PID/cmdline"
    "$DBSCALE" sweep oltp_point_select --db-driver=pgsql "--pgsql-conninfo=$ci" --tables=1 \
        --table-size=100 --server=external --threads=1 --repeats=1 --time=0.3 \
        --out "$work/ci$n" >"$work/ci$n.sout" 2>"$work/ci$n.serr" ||
        fail "sweep with conninfo form $n failed: $(cat "$work/ci$n.serr")"
    grep -q "pgsql-conninfo" "$work/ci$n/meta.json" || fail "conninfo form $n: meta.json lost the option"
    for f in "$work/ci$n.out" "$work/ci$n.err" "$work/ci$n.sout" "$work/ci$n.serr" "$work/ci$n"/*; do
        grep -q "$pw" "$f" && fail "conninfo form $n: the password leaked into $f"
    done
done
echo "no conninfo password in cmdline, output, results or metadata"
