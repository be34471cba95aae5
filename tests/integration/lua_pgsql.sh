#!/bin/sh
# integration: long
# sysbench's bundled Lua scripts through dbscale on a real throwaway
# PostgreSQL (lua_scripts.lib): counts equal pg_stat_statements' and the
# built-in mixes'; bad scripts name their line.
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

. "$(dirname "$0")/lua_scripts.lib"
# --pgsql-conninfo wins over the separate fields in a script too, as its help
# promises and the built-in mixes do: a wrong --pgsql-port must not matter
CI="host=127.0.0.1 port=$SERVER_PORT user=$SERVER_USER dbname=$SERVER_DB"
ok "$DBSCALE" "$API" --db-driver=pgsql --pgsql-port=1 --pgsql-conninfo="$CI" prepare
ok "$DBSCALE" "$API" --db-driver=pgsql --pgsql-port=1 --pgsql-conninfo="$CI" cleanup
echo "lua_pgsql: ok"
