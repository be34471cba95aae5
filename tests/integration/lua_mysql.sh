#!/bin/sh
# sysbench's bundled Lua scripts through dbscale on a real throwaway
# MariaDB (lua_scripts.lib): counts equal the Com_* counters and the
# built-in mixes'; bad scripts name their line.
. "$(dirname "$0")/lib.sh" "$1"
start_server mysql
CONN="$SERVER_OPTS"

server_counts() {
    my_sql "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select','Com_update','Com_delete',
            'Com_insert','Com_begin','Com_commit','Com_rollback')" |
        awk '{v[$1]=$2} END {print v["Com_select"], v["Com_update"]+v["Com_delete"]+v["Com_insert"],
             v["Com_begin"]+v["Com_commit"]+v["Com_rollback"]}'
}

. "$(dirname "$0")/lua_scripts.lib"
echo "lua_mysql: ok"
