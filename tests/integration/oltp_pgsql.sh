#!/bin/sh
# integration: long
# Every workload on a real throwaway PostgreSQL: prepare/run/cleanup, and the
# report's read/write/other counts equal what pg_stat_statements saw.
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql --conf shared_preload_libraries=pg_stat_statements
CONN="$SERVER_OPTS"

server_counts() {
    pg_sql "SELECT
        coalesce(sum(calls) FILTER (WHERE query ~* '^select' AND query ~ 'sbtest'), 0),
        coalesce(sum(calls) FILTER (WHERE query ~* '^(update|delete|insert)' AND query ~ 'sbtest'), 0),
        coalesce(sum(calls) FILTER (WHERE upper(query) IN ('BEGIN', 'COMMIT', 'ROLLBACK')), 0)
        FROM pg_stat_statements" | tr '|' ' '
}

count_tables() {
    pg_sql "SELECT count(*) FROM pg_tables WHERE tablename LIKE 'sbtest%'"
}

. "$(dirname "$0")/oltp_workloads.lib"

# prepare's k column follows --rand-type as sysbench's does (sb_rand is
# sysbench.rand.default, "special"): 10,000 rows hold about 1,750 distinct k,
# not the 6,300 of uniform draws. Compared with sysbench's own prepare when
# sysbench is installed (within 10%), else with that expected count.
distinct_k() {
    pg_sql "SELECT count(DISTINCT k) FROM sbtest1"
}
ok "$DBSCALE" prepare oltp_read_write $CONN --tables=1 --table-size=10000
ours=$(distinct_k)
ok "$DBSCALE" cleanup oltp_read_write $CONN --tables=1
if have_tool sysbench sysbench; then
    sysbench oltp_read_write --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port="$SERVER_PORT" \
        --pgsql-user="$SERVER_USER" --pgsql-password="$(server_password)" --pgsql-db="$SERVER_DB" \
        --tables=1 --table-size=10000 prepare >/dev/null || fail "sysbench prepare failed"
    theirs=$(distinct_k)
    ok "$DBSCALE" cleanup oltp_read_write $CONN --tables=1
else
    echo "sysbench not installed: comparing with its expected count, 1750"
    theirs=1750
fi
[ $((ours * 10)) -ge $((theirs * 9)) ] && [ $((ours * 10)) -le $((theirs * 11)) ] ||
    fail "distinct k in 10,000 prepared rows: dbscale $ours, sysbench $theirs (want within 10%)"
echo "distinct k in 10,000 rows: dbscale $ours, sysbench $theirs"

# --pgsql-conninfo wins over the --pgsql-* options, as the help says; they
# (and sysbench's defaults, user sbtest among them) fill in only what the
# conninfo leaves out. PGUSER is unset so the default user is the one tried.
P="--db-driver=pgsql --tables=1 --table-size=100"
ok "$DBSCALE" prepare oltp_point_select $CONN --tables=1 --table-size=100
env -u PGUSER "$DBSCALE" run oltp_point_select $P --events=1 --time=0 \
    --pgsql-conninfo="host=127.0.0.1 port=$SERVER_PORT dbname=$SERVER_DB" >/dev/null 2>&1 ||
    fail "a conninfo without user= did not take the default user sbtest"
env -u PGUSER "$DBSCALE" run oltp_point_select $P --events=1 --time=0 --pgsql-port=1 \
    --pgsql-host=192.0.2.1 --pgsql-conninfo="postgresql://$SERVER_USER@127.0.0.1:$SERVER_PORT/$SERVER_DB" \
    >/dev/null 2>&1 || fail "--pgsql-port/--pgsql-host overrode the conninfo's host and port"
ok "$DBSCALE" cleanup oltp_point_select $CONN --tables=1
echo "--pgsql-conninfo: wins over --pgsql-*, defaults fill the rest"

# A --server-conf value with a comma in it is one config line (repeated
# options are a list, never split on ','): PostgreSQL refused to start when
# shared_preload_libraries='a,b' became two lines.
res=$(mktemp -d)
"$DBSCALE" sweep oltp_point_select --db-driver=pgsql --cpus=1 --threads=1 --time=1 --repeats=1 \
    --table-size=100 --out="$res/r" \
    "--server-conf=shared_preload_libraries='pg_stat_statements,auto_explain'" \
    --server-conf=auto_explain.log_min_duration=-1 >"$res/out" 2>&1 ||
    fail "sweep with a comma in --server-conf failed: $(cat "$res/out")"
rm -rf "$res"
echo "--server-conf: a value with a comma stays one line"
