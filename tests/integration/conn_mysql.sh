#!/bin/sh
# MariaDB connection conventions, as the mariadb client follows them (checked
# beside it here): the command line first, then option files
# (--mysql-defaults-file, ~/.my.cnf [client]), then MYSQL_HOST,
# MYSQL_TCP_PORT, MYSQL_UNIX_PORT and MYSQL_PWD, then sysbench's defaults
# (localhost, 3306, sbtest, sbtest). A Lua script connects the same way.
. "$(dirname "$0")/lib.sh" "$1"
start_server mysql
API=$(cd "$(dirname "$0")" && pwd)/lua/api.lua
unset MYSQL_HOST MYSQL_TCP_PORT MYSQL_UNIX_PORT MYSQL_PWD
export HOME="$SERVER_DIR/home"
mkdir -p "$HOME"
PW=$(server_password)
SMALL="--db-driver=mysql --tables=1 --table-size=10"
D=$SERVER_DIR

cnf() { # cnf FILE key=value...: a [client] option file
    f=$1
    shift
    { echo "[client]"; for kv in "$@"; do echo "$kv"; done; } >"$f"
    chmod 600 "$f"
}

connects() { # connects WHAT CMD...: prepare through CMD, the rows are there, cleanup
    what=$1
    shift
    out=$("$@" prepare 2>&1) || fail "$what: prepare failed: $out"
    expect_eq "$what: rows" "$(my_sql 'SELECT count(*) FROM sbtest1')" 10
    out=$("$@" cleanup 2>&1) || fail "$what: cleanup failed: $out"
}

# the mariadb client's own order, which dbscale follows
cnf "$D/tcp.cnf" user=sbtest password="$PW" host=127.0.0.1 port="$SERVER_PORT"
cnf "$D/badport.cnf" user=sbtest password="$PW" host=127.0.0.1 port=1
expect_eq "mariadb: option file over MYSQL_TCP_PORT" \
    "$(MYSQL_TCP_PORT=1 mariadb --defaults-file="$D/tcp.cnf" -N -B -e 'SELECT 1')" 1

connects "--mysql-defaults-file host/port" "$DBSCALE" oltp_point_select $SMALL \
    --mysql-defaults-file="$D/tcp.cnf"
cp "$D/tcp.cnf" "$HOME/.my.cnf"
connects "~/.my.cnf [client]" "$DBSCALE" oltp_point_select $SMALL
connects "option file over MYSQL_TCP_PORT" env MYSQL_TCP_PORT=1 "$DBSCALE" oltp_point_select $SMALL
connects "option file over MYSQL_HOST" env MYSQL_HOST=no-such-host.invalid \
    "$DBSCALE" oltp_point_select $SMALL
rm "$HOME/.my.cnf"
connects "--mysql-port over the option file" "$DBSCALE" oltp_point_select $SMALL \
    --mysql-defaults-file="$D/badport.cnf" --mysql-port="$SERVER_PORT"
# no option file at all: the variables, and sysbench's user sbtest
connects "MYSQL_HOST + MYSQL_TCP_PORT + MYSQL_PWD" env MYSQL_HOST=127.0.0.1 \
    MYSQL_TCP_PORT="$SERVER_PORT" MYSQL_PWD="$PW" "$DBSCALE" oltp_point_select $SMALL
# (with a file of its own: Debian's /etc/mysql/mariadb.cnf names a socket,
# which would beat the variable, for the mariadb client too)
cnf "$D/pw.cnf" user=sbtest password="$PW"
expect_eq "mariadb: MYSQL_UNIX_PORT" "$(MYSQL_UNIX_PORT="$SERVER_SOCKET" \
    mariadb --defaults-file="$D/pw.cnf" -N -B -e 'SELECT 1')" 1
connects "MYSQL_UNIX_PORT" env MYSQL_UNIX_PORT="$SERVER_SOCKET" "$DBSCALE" oltp_point_select \
    $SMALL --mysql-defaults-file="$D/pw.cnf"
# a Lua script's connection follows the same conventions
cp "$D/tcp.cnf" "$HOME/.my.cnf"
out=$("$DBSCALE" "$API" --db-driver=mysql prepare 2>&1) || fail "Lua with ~/.my.cnf: prepare: $out"
out=$("$DBSCALE" "$API" --db-driver=mysql cleanup 2>&1) || fail "Lua with ~/.my.cnf: cleanup: $out"
rm "$HOME/.my.cnf"
# this server has no TLS: PREFERRED goes on in clear text, REQUIRED must not
[ "$(my_sql 'SELECT @@have_ssl')" = YES ] && fail "test setup: the server has TLS"
connects "--mysql-ssl=PREFERRED without server TLS" "$DBSCALE" oltp_point_select $SMALL \
    --mysql-defaults-file="$D/tcp.cnf" --mysql-ssl=PREFERRED
out=$("$DBSCALE" prepare oltp_point_select $SMALL --mysql-defaults-file="$D/tcp.cnf" \
    --mysql-ssl=REQUIRED 2>&1) && fail "--mysql-ssl=REQUIRED connected in clear text"
case $out in *TLS*) ;; *) fail "--mysql-ssl=REQUIRED: the message does not say TLS: $out" ;; esac
# a managed sweep's throwaway server replaces where to connect, not how:
# REQUIRED still holds (that server has no TLS), never dropped in silence
out=$("$DBSCALE" sweep oltp_point_select --db-driver=mysql --threads=1 --time=1 --tables=1 \
    --table-size=10 --mysql-ssl=REQUIRED --out "$D/sweep" 2>&1) && fail "managed sweep dropped --mysql-ssl=REQUIRED"
case $out in *TLS*) ;; *) fail "managed sweep with --mysql-ssl=REQUIRED: $out" ;; esac
echo "conn_mysql: ok"
