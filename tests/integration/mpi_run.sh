#!/bin/sh
# integration: long
# dbscale-mpi run over 3 MPI ranks on this machine, against a real throwaway
# PostgreSQL and MariaDB: --threads=7 opens 3/2/2 connections per rank (each
# rank names its connections dbscale-rank-N; counted at the server while the
# run is on), and the one report rank 0 prints, reduced over all ranks,
# counts exactly the statements the server itself saw. The other ranks wait
# for rank 0 without polling (a prepare, ranks 1 and 2 under GNU time).
. "$(dirname "$0")/lib.sh" "$1"
need_tool mpirun openmpi-bin
MPI_BIN=$(dirname "$DBSCALE")/dbscale-mpi
[ -x "$MPI_BIN" ] || fail "$MPI_BIN missing: make builds it when mpicc (libopenmpi-dev) is installed"
# timeout: a hang fails the test instead of holding the suite
MPIRUN="timeout 120 mpirun --allow-run-as-root --oversubscribe -n 3"

json_num() {
    sed -n "s/.*\"$1\": \([0-9.]*\).*/\1/p" "$2" | head -n 1
}

# per_rank: "N0 N1 N2", the connections each rank holds at the server now
# (rank_counts, defined per engine, prints "NAME COUNT" lines)
per_rank() {
    rank_counts | awk '{n[$1]=$2} END {printf "%d %d %d", n["dbscale-rank-0"], n["dbscale-rank-1"], n["dbscale-rank-2"]}'
}

check_engine() {
    common="$SERVER_OPTS --tables=1 --table-size=1000"
    ok "$DBSCALE" prepare oltp_read_only $common

    # the split, seen at the server while a level runs
    log=$(mktemp)
    $MPIRUN "$MPI_BIN" run oltp_read_only $common --threads=7 --time=4 >"$log" 2>&1 &
    job=$!
    seen="" i=0
    while [ $i -lt 40 ]; do
        seen=$(per_rank)
        [ "$seen" = "3 2 2" ] && break
        sleep 0.25
        i=$((i + 1))
    done
    wait $job || fail "$SERVER_ENGINE: mpirun run failed: $(cat "$log")"
    expect_eq "$SERVER_ENGINE connections per rank (at the server)" "$seen" "3 2 2"
    grep -q "transactions:" "$log" || fail "no report from rank 0: $(cat "$log")"
    expect_eq "$SERVER_ENGINE: reports printed (rank 0 only)" "$(grep -c 'SQL statistics' "$log")" 1
    rm -f "$log"

    # exact counts: 301 transactions over 3 ranks (101/100/100)
    out=$(mktemp)
    before=$(server_counts)
    $MPIRUN "$MPI_BIN" run oltp_read_only $common --threads=7 --events=301 --time=0 \
        --output=json >"$out" 2>&1 || fail "$SERVER_ENGINE: mpirun --events run failed: $(cat "$out")"
    after=$(server_counts)
    set -- $before $after
    d_r=$(($4 - $1)) d_w=$(($5 - $2)) d_o=$(($6 - $3))
    t=$(json_num transactions "$out") r=$(json_num reads "$out")
    w=$(json_num writes "$out") o=$(json_num others "$out")
    expect_eq "$SERVER_ENGINE transactions (all ranks)" "$t" 301
    expect_eq "$SERVER_ENGINE reads (report vs server)" "$r" "$d_r"
    expect_eq "$SERVER_ENGINE writes (report vs server)" "$w" "$d_w"
    expect_eq "$SERVER_ENGINE others (report vs server)" "$o" "$d_o"
    echo "$SERVER_ENGINE: 3 ranks, connections $seen, $t transactions, r/w/o $r/$w/$o, server saw $d_r/$d_w/$d_o"
    rm -f "$out"
    ok "$DBSCALE" cleanup oltp_read_only $common
}

start_server pgsql --conf shared_preload_libraries=pg_stat_statements
server_counts() {
    pg_sql "SELECT
        coalesce(sum(calls) FILTER (WHERE query ~* '^select' AND query ~ 'sbtest'), 0),
        coalesce(sum(calls) FILTER (WHERE query ~* '^(update|delete|insert)' AND query ~ 'sbtest'), 0),
        coalesce(sum(calls) FILTER (WHERE upper(query) IN ('BEGIN', 'COMMIT', 'ROLLBACK')), 0)
        FROM pg_stat_statements" | tr '|' ' '
}
rank_counts() {
    pg_sql "SELECT application_name, count(*) FROM pg_stat_activity
            WHERE application_name LIKE 'dbscale-rank-%' GROUP BY 1" | tr '|' ' '
}
check_engine

# The other ranks wait for rank 0 without polling. During a prepare rank 0
# loads the tables and the others wait for its outcome; Open MPI's blocking
# broadcast polls, with sched_yield when ranks outnumber CPUs, so each of
# them took a CPU from the server: measured 1.3 CPU-s each over a 3.8 s
# prepare, against 0.1-0.2 (start-up included) waiting as ranks_mpi.h does.
# Ranks 1 and 2 run under GNU time (an MPMD launch); the bound is a share
# of the prepare's own wall time, which a slower machine only lengthens.
need_file /usr/bin/time time
cpu=$(mktemp)
at_exit 'rm -f "$cpu"'
big="$SERVER_OPTS --tables=1 --table-size=200000"
t0=$(date +%s.%N)
timeout 120 mpirun --allow-run-as-root --oversubscribe -n 1 "$MPI_BIN" prepare oltp_read_only $big : \
    -n 2 /usr/bin/time -a -o "$cpu" -f '%U %S' "$MPI_BIN" prepare oltp_read_only $big >/dev/null 2>&1 ||
    fail "mpirun prepare failed"
wall=$(echo "$t0 $(date +%s.%N)" | awk '{print $2 - $1}')
expect_eq "waiting ranks timed" "$(wc -l <"$cpu")" 2
polled=$(awk -v w="$wall" '$1 + $2 > 0.3 + w / 10 { printf "%s+%s CPU-s over %s s; ", $1, $2, w }' "$cpu")
[ -z "$polled" ] || fail "a waiting rank polled: $polled"
echo "prepare over 3 ranks: ${wall}s, the waiting ranks' CPU (user sys): $(paste -sd';' "$cpu")"
ok "$DBSCALE" cleanup oltp_read_only $big
stop_server

need_engine mysql
start_server mysql --conf performance_schema=ON
server_counts() {
    my_sql "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select','Com_update','Com_delete',
            'Com_insert','Com_begin','Com_commit','Com_rollback')" |
        awk '{v[$1]=$2} END {print v["Com_select"], v["Com_update"]+v["Com_delete"]+v["Com_insert"],
             v["Com_begin"]+v["Com_commit"]+v["Com_rollback"]}'
}
# performance_schema is for the server's root, who logs in by unix_socket
rank_counts() {
    mariadb --no-defaults --protocol=socket -S "$SERVER_SOCKET" -u root -N -B -e "SELECT ATTR_VALUE, count(*) FROM performance_schema.session_connect_attrs
            WHERE ATTR_NAME = 'program_name' AND ATTR_VALUE LIKE 'dbscale-rank-%' GROUP BY 1"
}
check_engine
