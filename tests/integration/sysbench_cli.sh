#!/bin/sh
# sysbench_cli.sh - sysbench 1.0.20 command lines parse unchanged against a
# real PostgreSQL: underscore names, deprecated aliases (with sysbench's
# warning on stderr), --config-file, a size suffix (10K rows = 10240, as
# sysbench's size rule), --pgsql-* options implying the engine with no
# --db-driver, a port list, --db-debug's statement lines, and the refusals
# (exit 2 naming what and why): conflicting engines, a refused option.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql
# no --db-driver anywhere: the pgsql options say which engine
P="--pgsql-host=127.0.0.1 --pgsql-port=$SERVER_PORT --pgsql-user=$SERVER_USER --pgsql-db=$SERVER_DB"

ok "$DBSCALE" oltp_point_select $P --tables=1 --table_size=1K prepare
expect_eq "rows after --table_size=1K" "$(pg_sql 'SELECT count(*) FROM sbtest1')" 1024

# sysbench's config file: name=value lines, '_' or '-', deprecated names too
printf '# sysbench options\nnum_threads=2\nmax-time=1\nskip_trx=on\n' >"$work/sb.cfg"
"$DBSCALE" oltp_point_select $P --config-file="$work/sb.cfg" --pgsql-port=$SERVER_PORT,$SERVER_PORT \
    --db-debug run >"$work/out" 2>"$work/err" || fail "run failed: $(cat "$work/err")"
grep -q "^WARNING: --num-threads is deprecated, use --threads instead$" "$work/err" ||
    fail "no sysbench deprecation warning: $(head -5 "$work/err")"
grep -q "^WARNING: --max-time is deprecated, use --time instead$" "$work/err" ||
    fail "no --max-time warning: $(head -5 "$work/err")"
grep -q "Number of threads: 2" "$work/out" || fail "threads from the config not used: $(cat "$work/out")"
grep -q "^DEBUG: connection 2: SELECT c FROM sbtest1 WHERE id=.* -> ok$" "$work/err" ||
    fail "no --db-debug statement lines: $(grep DEBUG "$work/err" | head -12)"
grep -q "BEGIN" "$work/err" && fail "--skip_trx=on from the config file not used (BEGIN sent)"

# sysbench's deprecated --test=NAME still names the workload, with its warning
"$DBSCALE" --test=oltp_point_select $P --time=1 run >"$work/out" 2>"$work/err" ||
    fail "--test run failed: $(cat "$work/err")"
grep -q "^WARNING: the --test option is deprecated" "$work/err" || fail "no --test warning"
grep -q "transactions:" "$work/out" || fail "--test run reported nothing: $(cat "$work/out")"

# a bad config line is named file:line, exit 2
printf 'threads=2\nthreads 3\n' >"$work/bad.cfg"
"$DBSCALE" oltp_point_select $P --config-file="$work/bad.cfg" run >/dev/null 2>"$work/err"
expect_eq "bad config line: exit" $? 2
grep -q "bad.cfg:2" "$work/err" || fail "bad line not named: $(cat "$work/err")"

# engines that conflict, and an option dbscale refuses: exit 2 with the names
"$DBSCALE" oltp_point_select $P --mysql-host=127.0.0.1 run >/dev/null 2>"$work/err"
expect_eq "mysql and pgsql options: exit" $? 2
grep -q -- "--mysql-host" "$work/err" && grep -q -- "--pgsql-" "$work/err" ||
    fail "conflict does not name both: $(cat "$work/err")"
"$DBSCALE" oltp_point_select $P --thread-stack-size=64K run >/dev/null 2>"$work/err"
expect_eq "--thread-stack-size: exit" $? 2
grep -q "not supported" "$work/err" || fail "refusal gives no reason: $(cat "$work/err")"

# a script and no command: the script's own check speaks, as in sysbench
# (oltp_common.lua's "Command is required", exit 1); a script without one
# is asked for the command (exit 2; sysbench would exit 0 doing nothing)
if have_file /usr/share/sysbench/oltp_read_only.lua sysbench; then
    "$DBSCALE" /usr/share/sysbench/oltp_read_only.lua $P >/dev/null 2>"$work/err"
    expect_eq "bundled script with no command: exit" $? 1
    grep -q "oltp_common.lua:[0-9]*: Command is required" "$work/err" ||
        fail "no command: not the script's own message: $(cat "$work/err")"
fi
printf 'function event() end\n' >"$work/bare.lua"
"$DBSCALE" "$work/bare.lua" $P >/dev/null 2>"$work/err"
expect_eq "bare script with no command: exit" $? 2
grep -q "which command" "$work/err" || fail "bare script, no command: $(cat "$work/err")"

ok "$DBSCALE" oltp_point_select $P cleanup
echo "sysbench_cli: underscores, aliases, --config-file, 1K, implied engine, port list, --db-debug, refusals"
