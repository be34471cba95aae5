#!/bin/sh
# Deadlock-heavy load on both engines: oltp_read_write on one small table
# with 32 threads. Every deadlock / serialization failure / lock wait is
# rolled back and retried (counted by code, the run succeeds), and afterwards
# the table is consistent: every delete/insert pair committed whole, so the
# row count and the id set are what prepare made.
. "$(dirname "$0")/lib.sh" "$1"
for engine in pgsql mysql; do
    start_server $engine --conf max_connections=60
    C="$SERVER_OPTS --tables=1 --table-size=50"
    [ $engine = mysql ] && C="$C --mysql-defaults-file=$MYSQL_CNF"
    ok "$DBSCALE" prepare oltp_read_write $C
    out=$("$DBSCALE" run oltp_read_write $C --threads=32 --time=4 --output=json) ||
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
    stop_server
done
