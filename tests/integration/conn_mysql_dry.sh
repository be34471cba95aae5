#!/bin/sh
# --mysql-dry-run, as sysbench's: every MySQL call is taken as done at once
# and nothing connects (here: to a port where nothing listens), so a run
# measures the client alone; prepare and cleanup pass without a server. A
# Lua script, whose statements return rows, and pgsql refuse it (exit 2).
. "$(dirname "$0")/lib.sh" "$1"
API=$(cd "$(dirname "$0")" && pwd)/lua/api.lua
NO="--db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=1 --mysql-dry-run=on"
ok "$DBSCALE" prepare oltp_read_write $NO --tables=2 --table-size=100
out=$("$DBSCALE" run oltp_read_write $NO --tables=2 --table-size=100 --events=500 --time=0 \
    --threads=2 2>&1) || fail "dry run failed: $out"
echo "$out" | grep -Eq 'transactions: +500 ' || fail "dry run: not 500 transactions: $out"
echo "$out" | grep -Eq 'read: +7000$' || fail "dry run: not 14 reads a transaction: $out"
ok "$DBSCALE" cleanup oltp_read_write $NO --tables=2
# without it the same command line fails: nothing listens there
"$DBSCALE" run oltp_read_write --db-driver=mysql --mysql-host=127.0.0.1 --mysql-port=1 \
    --events=5 --time=0 >/dev/null 2>&1 && fail "run without --mysql-dry-run connected to port 1"
"$DBSCALE" "$API" $NO prepare >/dev/null 2>&1
expect_eq "Lua script with --mysql-dry-run: exit" $? 2
"$DBSCALE" run oltp_read_write --db-driver=pgsql --mysql-dry-run=on --events=5 >/dev/null 2>&1
expect_eq "pgsql with --mysql-dry-run: exit" $? 2
echo "conn_mysql_dry: ok"
