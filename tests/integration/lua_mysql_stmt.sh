#!/bin/sh
# On MariaDB a script's prepared statements are the server's prepared
# statements (as sysbench's mysql driver makes them): every event of
# lua/count.lua executes one, and Com_stmt_execute counts each of them;
# the values bound come back (count.lua asserts the row) on the loop shape.
. "$(dirname "$0")/lib.sh" "$1"
start_server mysql
S=$(dirname "$0")/lua/count.lua
ok "$DBSCALE" "$S" $SERVER_OPTS prepare
stmt_execs() {
    my_sql "SHOW GLOBAL STATUS LIKE 'Com_stmt_execute'" | awk '{print $2}'
}
before=$(stmt_execs)
out=$(mktemp)
"$DBSCALE" "$S" $SERVER_OPTS --threads=4 --events=200 --time=0 --output=json run >"$out" 2>&1 ||
    fail "run failed: $(cat "$out")"
txns=$(sed -n 's/.*"transactions": \([0-9]*\).*/\1/p' "$out")
rm -f "$out"
expect_eq "transactions" "$txns" 200
expect_eq "server-side prepared executions" "$(($(stmt_execs) - before))" 200
expect_eq "events the connections counted" "$(my_sql "SELECT sum(events) FROM lua_counts")" 200
ok "$DBSCALE" "$S" $SERVER_OPTS cleanup
echo "lua_mysql_stmt: 200 events, 200 server-side prepared executions"
