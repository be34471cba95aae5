#!/bin/sh
# prewarm on a real throwaway MariaDB: sysbench 1.0.20's statements
# (ANALYZE TABLE, the PRIMARY KEY scan, the k scan) for every table, by
# --threads connections side by side, counted by the server.
. "$(dirname "$0")/lib.sh" "$1"
start_server mysql
CONN="$SERVER_OPTS --mysql-defaults-file=$MYSQL_CNF"
counts() {
    my_sql "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_analyze', 'Com_select')" |
        awk '{v[$1]=$2} END {print v["Com_analyze"], v["Com_select"]}'
}
ok "$DBSCALE" prepare oltp_read_only $CONN --tables=3 --table-size=500
before=$(counts)
out=$("$DBSCALE" prewarm oltp_read_only $CONN --tables=3 --table-size=500 --threads=2 2>&1) ||
    fail "prewarm failed: $out"
after=$(counts)
echo "$out" | grep -qx "Initializing worker threads..." || fail "no sysbench header line: $out"
for t in 1 2 3; do
    echo "$out" | grep -qx "Prewarming table sbtest$t" || fail "no 'Prewarming table sbtest$t': $out"
done
# 3 ANALYZE TABLE, 6 SELECTs (my_sql's own SHOW is no Com_select)
set -- $before $after
expect_eq "ANALYZE TABLE statements" "$(($3 - $1))" 3
expect_eq "SELECT statements" "$(($4 - $2))" 6
"$DBSCALE" prewarm oltp_read_only $CONN --tables=4 >/dev/null 2>&1
expect_eq "prewarm of a missing table: exit" "$?" 1
ok "$DBSCALE" cleanup oltp_read_only $CONN --tables=3
echo "prewarm_mysql: ok"
