#!/bin/sh
# Passwords never leak: given on the command line, it is blanked in
# /proc/PID/cmdline while dbscale runs, and it appears in no output, report,
# results.csv or meta.json; a wrong one fails without echoing it.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
trap 'rm -rf "$work"; stop_server' EXIT
start_server pgsql
pw=$(server_password)
unset PGPASSFILE
C="$SERVER_OPTS --pgsql-password=$pw --tables=1 --table-size=100"
ok "$DBSCALE" prepare oltp_point_select $C
"$DBSCALE" run oltp_point_select $C --time=2 --report-interval=0.5 >"$work/run" 2>&1 &
run=$!
sleep 1
grep -q "$pw" /proc/$run/cmdline && fail "the password is visible in /proc/$run/cmdline"
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
