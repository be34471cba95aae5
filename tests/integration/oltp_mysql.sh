#!/bin/sh
# integration: long
# Every workload on a real throwaway MariaDB: prepare/run/cleanup, and the
# report's read/write/other counts equal the server's Com_* counters.
. "$(dirname "$0")/lib.sh" "$1"
start_server mysql
CONN="$SERVER_OPTS --mysql-defaults-file=$MYSQL_CNF"

server_counts() {
    my_sql "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select','Com_update','Com_delete',
            'Com_insert','Com_begin','Com_commit','Com_rollback')" |
        awk '{v[$1]=$2} END {print v["Com_select"], v["Com_update"]+v["Com_delete"]+v["Com_insert"],
             v["Com_begin"]+v["Com_commit"]+v["Com_rollback"]}'
}

count_tables() {
    my_sql "SELECT count(*) FROM information_schema.tables WHERE table_schema='sbtest'"
}

. "$(dirname "$0")/oltp_workloads.lib"
