#!/bin/sh
# sysbench_cli_mysql.sh - the MariaDB side of sysbench_cli.sh: --mysql-*
# options alone choose MySQL (no --db-driver), a --mysql-port list pairs
# with the host as sysbench's driver (every connection on host:port i % n),
# --db-debug names each connection's target, and --db-driver=pgsql beside a
# --mysql-* option is refused naming both (exit 2).
. "$(dirname "$0")/lib.sh" "$1"
need_engine mysql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server mysql
M="--mysql-host=127.0.0.1 --mysql-user=$SERVER_USER --mysql-db=$SERVER_DB --mysql-defaults-file=$MYSQL_CNF"

ok "$DBSCALE" prepare oltp_point_select $M --mysql-port=$SERVER_PORT --tables=1 --table-size=100
"$DBSCALE" run oltp_point_select $M --mysql-port=$SERVER_PORT,$SERVER_PORT --threads=2 --time=1 \
    --db-debug >"$work/out" 2>"$work/err" || fail "run failed: $(tail -5 "$work/err")"
expect_eq "connections on the listed ports" \
    "$(grep -c "^DEBUG: connection [12]: connected to 127.0.0.1 port $SERVER_PORT$" "$work/err")" 2
grep -q "transactions:" "$work/out" || fail "no report: $(cat "$work/out")"

"$DBSCALE" run oltp_point_select $M --mysql-port=$SERVER_PORT --db-driver=pgsql --time=1 \
    >/dev/null 2>"$work/err"
expect_eq "--db-driver=pgsql with --mysql-*: exit" $? 2
grep -q -- "--db-driver=pgsql conflicts with --mysql-" "$work/err" || fail "not named: $(cat "$work/err")"
ok "$DBSCALE" cleanup oltp_point_select $M --mysql-port=$SERVER_PORT
echo "sysbench_cli_mysql: --mysql-* alone mean MySQL, a port list pairs, a conflict is refused"
