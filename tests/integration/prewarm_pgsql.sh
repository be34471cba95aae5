#!/bin/sh
# prewarm on a real throwaway PostgreSQL: every table read once, by --threads
# connections side by side, through the statements pg_stat_statements saw
# (pg_prewarm() when the extension is installed; without it, as here, an
# index scan of each table's primary key and of k, as sysbench's MySQL
# prewarm does).
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql --conf shared_preload_libraries=pg_stat_statements
ok "$DBSCALE" prepare oltp_read_only $SERVER_OPTS --tables=3 --table-size=500
out=$("$DBSCALE" prewarm oltp_read_only $SERVER_OPTS --tables=3 --table-size=500 --threads=2 2>&1) ||
    fail "prewarm failed: $out"
for t in 1 2 3; do
    echo "$out" | grep -qx "Prewarming table sbtest$t" || fail "no 'Prewarming table sbtest$t': $out"
    n=$(pg_sql "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements
                WHERE query ~ 'sbtest$t\\M' AND query ~* 'avg\\(id\\)' AND query ~* 'order by k'")
    expect_eq "prewarm statements on sbtest$t" "$n" 1
done
# sysbench's order, and two tables each for one thread
out=$("$DBSCALE" oltp_read_only $SERVER_OPTS --tables=3 --table-size=500 --threads=1 prewarm 2>&1) ||
    fail "prewarm in sysbench's order failed: $out"
n=$(pg_sql "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query ~* 'avg\\(id\\)'
            AND query ~ 'sbtest[123]\\M'")
expect_eq "prewarm statements after two prewarms" "$n" 6
# select_random_* refuse --tables > 1 in prepare, not in prewarm (as sysbench)
out=$("$DBSCALE" prewarm select_random_points $SERVER_OPTS --tables=2 --table-size=500 2>&1) ||
    fail "prewarm select_random_points --tables=2 failed: $out"
# a missing table is an error, exit 1
"$DBSCALE" prewarm oltp_read_only $SERVER_OPTS --tables=4 >/dev/null 2>&1
expect_eq "prewarm of a missing table: exit" "$?" 1
ok "$DBSCALE" cleanup oltp_read_only $SERVER_OPTS --tables=3
echo "prewarm_pgsql: ok"
