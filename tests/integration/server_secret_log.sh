#!/bin/sh
# The sbtest password never reaches a server log, even with every statement
# logged (PostgreSQL log_statement=all, log_min_duration_statement=0;
# MariaDB general_log and a zero-threshold slow log): nothing under the
# server's directory but its 0600 password file holds it. The log and state
# files are 0600 and the directory 0700.
. "$(dirname "$0")/lib.sh" "$1"

# check_dir: the password only in the credentials file; modes tight.
check_dir() {
    pw=$(server_password)
    [ -n "$pw" ] || fail "$SERVER_ENGINE: no password"
    db_sql "SELECT 1" >/dev/null || fail "$SERVER_ENGINE: sbtest cannot log in"
    leaks=$(grep -rl --exclude=pgpass --exclude=client.cnf -- "$pw" "$SERVER_DIR")
    [ -z "$leaks" ] || fail "$SERVER_ENGINE: the password is in $leaks"
    expect_eq "$SERVER_ENGINE log mode" "$(stat -c %a "$SERVER_DIR/log")" 600
    expect_eq "$SERVER_ENGINE state mode" "$(stat -c %a "$SERVER_DIR/state")" 600
    expect_eq "$SERVER_ENGINE dir mode" "$(stat -c %a "$SERVER_DIR")" 700
}

ran=0
if have_engine pgsql; then
    start_server pgsql --conf log_statement=all --conf log_min_duration_statement=0 \
        --conf log_min_error_statement=debug5
    pg_sql "SELECT 1" >/dev/null
    grep -q "SELECT 1" "$SERVER_DIR/log" || fail "pgsql: statements are not logged, the test proves nothing"
    check_dir
    stop_server
    ran=1
fi
if have_engine mysql; then
    start_server mysql --conf general_log=1 --conf slow_query_log=1 --conf long_query_time=0 \
        --conf log_slow_admin_statements=1
    my_sql "SELECT 12345" >/dev/null
    grep -rqa "SELECT 12345" "$SERVER_DIR/data" || fail "mysql: statements are not logged, the test proves nothing"
    check_dir
    stop_server
    ran=1
fi
[ $ran = 1 ] || skip "neither PostgreSQL nor MariaDB installed"
echo "no password in any server log"
