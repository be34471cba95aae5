#!/bin/sh
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
