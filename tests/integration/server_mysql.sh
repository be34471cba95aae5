#!/bin/sh
# dbscale server with MariaDB: starts fresh, sbtest connects with its password
# over TCP and the socket (and not without it), listens on 127.0.0.1 only,
# honours --conf and --cpus, keeps its temporary files in its own directory,
# never prints the password, and leaves nothing behind after stop.
. "$(dirname "$0")/lib.sh" "$1"

"$DBSCALE" server start mysql --cpus=0-x >/dev/null 2>&1; expect_eq "bad --cpus exit" $? 2
"$DBSCALE" server start >/dev/null 2>&1; expect_eq "missing engine exit" $? 2

# a missing or directory --mysql-defaults-file is refused, not ignored (which
# made the user silently root)
for f in /nonexistent/client.cnf /tmp; do
    out=$("$DBSCALE" run oltp_point_select --db-driver=mysql --mysql-defaults-file=$f --time=1 2>&1)
    expect_eq "--mysql-defaults-file=$f exit" $? 2
    echo "$out" | grep -q -- "--mysql-defaults-file" || fail "--mysql-defaults-file=$f: unclear: $out"
done

"$DBSCALE" server start mysql --conf bind-address=0.0.0.0 >/dev/null 2>&1
expect_eq "--conf bind-address refused" $? 2

start_server mysql --conf max_connections=77 --conf innodb_flush_log_at_trx_commit=2
dir=$SERVER_DIR
pw=$(server_password)
[ ${#pw} -ge 16 ] || fail "password too short: ${#pw} characters"

expect_eq "tcp select" "$(my_sql 'SELECT 1')" 1
expect_eq "tcp user" "$(my_sql 'SELECT current_user()')" sbtest@127.0.0.1
expect_eq "tcp db" "$(my_sql 'SELECT database()')" sbtest
expect_eq "socket user" "$(my_sql_socket 'SELECT current_user()')" sbtest@localhost
expect_eq "--conf" "$(my_sql 'SELECT @@max_connections, @@innodb_flush_log_at_trx_commit')" \
    "$(printf '77\t2')"
expect_eq "bind address" "$(my_sql 'SELECT @@bind_address')" 127.0.0.1
expect_eq "binlog off" "$(my_sql 'SELECT @@log_bin')" 0
# its own tmpdir: a mariadbd starting beside it removes every #sql file in
# its tmpdir, and in a shared /tmp those were this server's temporary tables
expect_eq "tmpdir" "$(my_sql 'SELECT @@tmpdir')" "$dir/tmp"
my_sql 'CREATE TABLE t (id int PRIMARY KEY); INSERT INTO t VALUES (1); DROP TABLE t' ||
    fail "sbtest cannot create tables in sbtest"

# a password is required, and the wrong one is refused
mariadb --no-defaults --protocol=tcp -h 127.0.0.1 -P "$SERVER_PORT" -u sbtest -pwrong \
    -e 'SELECT 1' >/dev/null 2>&1 && fail "wrong password accepted over TCP"
mariadb --no-defaults --protocol=socket -S "$SERVER_SOCKET" -u sbtest -e 'SELECT 1' \
    >/dev/null 2>&1 && fail "no password accepted over the socket"
mariadb --no-defaults --protocol=tcp -h 127.0.0.1 -P "$SERVER_PORT" -u root -e 'SELECT 1' \
    >/dev/null 2>&1 && fail "root without a password accepted over TCP"

expect_eq "client.cnf mode" "$(stat -c %a "$MYSQL_CNF")" 600
echo "$SERVER_START_OUT" | grep -q "$pw" && fail "server start printed the password"
grep -q "$pw" "$dir/state" "$dir/log" "$dir/my.cnf" && fail "the password is in state, log or my.cnf"

check_listen_loopback_only

pids=$(server_all_pids)
# dbscale's own stop, not lib.sh's stop_server (which removes what is left
# and turns a failed stop into a warning): it must succeed and remove all
out=$("$DBSCALE" server stop --dir "$dir" 2>&1) || fail "server stop failed: $out"
[ -e "$dir" ] && fail "$dir still exists after stop: $(ls -A "$dir")"
SERVER_DIR=
for p in $pids; do
    if [ -r "/proc/$p/stat" ] && [ "$(cut -d' ' -f3 "/proc/$p/stat")" != Z ]; then
        fail "server process $p still running after stop"
    fi
done

# --cpus: the server process and every one of its threads is held to CPU 0
start_server mysql --cpus=0
my_sql 'SELECT count(*) FROM information_schema.tables' >/dev/null || fail "query on the --cpus=0 server"
check_server_cpus 0 2 "mariadbd and its threads"
stop_server
echo ok
