#!/bin/sh
# The MariaDB backend reads a text statement's reply only once the socket
# says it is there: Connector/C's one-call query (mysql_real_query) sends and
# then tries a read at once, which fails with EAGAIN for nearly every OLTP
# statement and costs a system call each. Counted with strace: failed
# receives stay a small fraction of the statements (a reply that arrives in
# pieces may still find its second piece missing).
. "$(dirname "$0")/lib.sh" "$1"
need_tool strace strace
need_engine mysql
start_server mysql
CONN="$SERVER_OPTS --mysql-defaults-file=$MYSQL_CNF --tables=1 --table-size=100"
ok "$DBSCALE" prepare oltp_read_only $CONN
out=$(strace -f -qq -e trace=recvfrom -c -o "$SERVER_DIR/strace" \
    "$DBSCALE" run oltp_read_only $CONN --db-ps-mode=disable --threads=2 --events=200 --time=0 2>&1) ||
    fail "run under strace failed: $out"
queries=$(echo "$out" | sed -n 's/^ *queries: *\([0-9]*\).*/\1/p')
[ "${queries:-0}" -ge 3200 ] || fail "expected at least 3200 statements, got '$queries': $out"
failed=$(awk '$NF == "recvfrom" { print (NF == 6 ? $5 : 0) }' "$SERVER_DIR/strace")
[ -n "$failed" ] || fail "no recvfrom line in strace's summary: $(cat "$SERVER_DIR/strace")"
[ "$failed" -le $((queries / 10)) ] ||
    fail "$failed failed receives for $queries text statements (want at most $((queries / 10)))"
echo "ok: $failed failed receives for $queries statements"
