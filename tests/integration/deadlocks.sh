#!/bin/sh
# integration: long
# Deadlock-heavy load on both engines: oltp_read_write on one small table
# with 32 threads. Every deadlock / serialization failure / lock wait is
# rolled back and retried (counted by code, the run succeeds), and afterwards
# the table is consistent: every delete/insert pair committed whole, so the
# row count and the id set are what prepare made.
. "$(dirname "$0")/lib.sh" "$1"
for engine in pgsql mysql; do
    start_server $engine --conf max_connections=100
    C="$SERVER_OPTS --tables=1 --table-size=50"
    [ $engine = mysql ] && C="$C --mysql-defaults-file=$MYSQL_CNF"
    ok "$DBSCALE" prepare oltp_read_write $C
    # (--ramp-timeout=0: on 50 rows PostgreSQL takes one 32-deep queue's
    # latency, seconds, before every connection has a first transaction)
    out=$("$DBSCALE" run oltp_read_write $C --threads=32 --time=4 --ramp-timeout=0 --output=json) ||
        fail "$engine: run failed: $out"
    errs=$(echo "$out" | sed -n 's/.*"errors": \([0-9]*\).*/\1/p')
    codes=$(echo "$out" | sed -n 's/.*"error_codes": {\([^}]*\)}.*/\1/p')
    echo "$codes" | grep -Eq '^"[0-9A-Z]+": [0-9]+' || fail "$engine: error_codes is no {code: count} object: $out"
    others=$(echo "$out" | sed -n 's/.*"others": \([0-9]*\).*/\1/p')
    txns=$(echo "$out" | sed -n 's/.*"transactions": \([0-9]*\).*/\1/p')
    [ "${errs:-0}" -ge 1 ] || fail "$engine: 32 threads on 50 rows caused no retried error: $out"
    # each retry is preceded by a ROLLBACK, counted as "other" beside BEGIN+COMMIT
    [ "$others" -ge $((2 * txns + 1)) ] || fail "$engine: no ROLLBACK counted ($others others, $txns txns)"
    rows=$(db_sql "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM sbtest1" | tr '\t|' '  ')
    expect_eq "$engine: rows, distinct ids, min, max after the run" "$rows" "50 50 1 50"
    echo "$engine: $txns transactions, $errs retried errors ($codes), table consistent"
    if [ $engine = pgsql ]; then
        # lock_not_available (lock_timeout) is not in sysbench's retry list
        out=$(PGOPTIONS='-c lock_timeout=1ms' "$DBSCALE" run oltp_read_write $C --threads=32 --time=3 2>&1) &&
            fail "pgsql: lock_timeout errors (55P03) were retried by default: $out"
        echo "$out" | grep -q 55P03 || fail "pgsql: the run did not stop on 55P03: $out"
    fi
    ok "$DBSCALE" cleanup oltp_read_write $C
    # The default retry list is sysbench's: a duplicate key is retried on
    # PostgreSQL (its pgsql driver ignores 23505) but stops a MySQL run
    # (1062 is not in --mysql-ignore-errors' default 1213,1020,1205) unless
    # asked for. A second oltp_insert --auto-inc=off process draws the ids
    # the first one inserted, so its first inserts collide.
    I="$C --auto-inc=off --threads=1 --events=5 --time=0 --output=json"
    ok "$DBSCALE" prepare oltp_insert $C --auto-inc=off
    ok "$DBSCALE" run oltp_insert $I
    if [ $engine = pgsql ]; then
        out=$("$DBSCALE" run oltp_insert $I 2>&1) || fail "pgsql: a duplicate key stopped the run: $out"
        echo "$out" | grep -q '"error_codes": {[^}]*"23505": [1-9]' || fail "pgsql: no 23505 retried: $out"
    else
        out=$("$DBSCALE" run oltp_insert $I 2>&1) && fail "mysql: 1062 was retried by default: $out"
        echo "$out" | grep -q 1062 || fail "mysql: the stop does not name 1062: $out"
        out=$("$DBSCALE" run oltp_insert $I --mysql-ignore-errors=1062 2>&1) ||
            fail "mysql: --mysql-ignore-errors=1062 did not retry it: $out"
    fi
    echo "$engine: duplicate keys and lock timeouts handled as sysbench's defaults say"
    stop_server
done
