# lib.sh - helpers for integration tests; source it with
#     . "$(dirname "$0")/lib.sh" "$1"
# Each test gets the dbscale binary as $1 and exits 0 (pass), 77 (skip) or
# else (fail). A test starts its own throwaway server with start_server; a trap
# stops it and removes its directory however the test ends.
#
# After start_server ENGINE these are set (and exported):
#   SERVER_ENGINE pgsql|mysql    SERVER_DIR     everything the server owns
#   SERVER_PORT   127.0.0.1 port SERVER_PID     postmaster / mariadbd
#   SERVER_SOCKET socket path    SERVER_SOCKET_DIR
#   SERVER_USER / SERVER_DB      sbtest / sbtest
#   SERVER_OPTS   dbscale connection options (--db-driver=... --pgsql-host=...;
#                 mysql: with --mysql-defaults-file, pgsql: PGPASSFILE below)
#   PGPASSFILE    (pgsql) the password file libpq and psql read
#   MYSQL_CNF     (mysql) the [client] option file with the password

# run-integration.sh runs every *.sh here, this one too: as a program it is no test.
case $0 in */lib.sh | lib.sh) exit 0 ;; esac

DBSCALE=${1:-${DBSCALE:-}}
export DBSCALE
[ -x "$DBSCALE" ] || {
    echo "usage: $0 path/to/dbscale" >&2
    exit 2
}

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# The skip policy (docs/testing.md, "Skips"): a test skips only for what
# scripts/deps.sh cannot give this machine: skip_env REASON (not root, one
# CPU, no CPU with a hotplug switch, no cpuset controller...). A tool, a
# server or a build product the suite itself provides is asked for with
# need_tool / need_file / need_engine (or have_* for one part of a test):
# missing, it skips on a machine without the deps, but in a strict run
# (make check sets IT_STRICT=1, after make deps) it fails, so a broken
# install step turns the check red. Any other skip (`skip REASON`) fails
# in a strict run too.
IT_ROOT=$(cd "$(dirname "$0")/../.." && pwd)

skip_env() {
    echo "environment: $*"
    exit 77
}

skip() {
    [ "${IT_STRICT:-0}" = 1 ] && fail "a skip under make check (IT_STRICT=1): $*"
    echo "$*"
    exit 77
}

# skip_env_part REASON: a part of the test is skipped for the environment;
# the rest runs. The runner shows it beside the test's PASS.
skip_env_part() {
    echo "part skipped: environment: $*"
    [ -z "${IT_PARTS:-}" ] || echo "$*" >>"$IT_PARTS"
}

# it_deps_lists PACKAGE: scripts/deps.sh installs PACKAGE.
it_deps_lists() {
    sed -n '/^PKGS="/,/"$/p' "$IT_ROOT/scripts/deps.sh" | tr ' "' '\n\n' | grep -qx -- "$1"
}

# it_missing WHAT PACKAGE: what to do when WHAT (from PACKAGE) is missing:
# fail in a strict run, else skip. A PACKAGE the deps do not list is the
# test's mistake, and fails anywhere.
it_missing() {
    it_deps_lists "$2" || fail "$1 is missing and the test names $2, which scripts/deps.sh does not install"
    [ "${IT_STRICT:-0}" = 1 ] && fail "broken install: $1 missing, though scripts/deps.sh installs $2"
    echo "$1 missing (make deps installs $2)"
    exit 77
}

# need_tool CMD PACKAGE / need_file PATH PACKAGE: the test needs them.
need_tool() {
    command -v "$1" >/dev/null 2>&1 || it_missing "$1" "$2"
}
need_file() {
    [ -e "$1" ] || it_missing "$1" "$2"
}

# have_tool CMD PACKAGE / have_file PATH PACKAGE / have_engine ENGINE: one
# part of the test needs them: true when there; missing, a failure in a
# strict run, else the part is skipped (said, and shown by the runner) and
# false is returned.
have_tool() {
    command -v "$1" >/dev/null 2>&1 || it_part_missing "$1" "$2"
}
have_file() {
    [ -e "$1" ] || it_part_missing "$1" "$2"
}
it_part_missing() {
    it_deps_lists "$2" || fail "$1 is missing and the test names $2, which scripts/deps.sh does not install"
    [ "${IT_STRICT:-0}" = 1 ] && fail "broken install: $1 missing, though scripts/deps.sh installs $2"
    echo "part skipped: $1 missing (make deps installs $2)"
    [ -z "${IT_PARTS:-}" ] || echo "$1 missing" >>"$IT_PARTS"
    return 1
}

# ok CMD...: run CMD, fail with its output if it fails.
ok() {
    _out=$("$@" 2>&1) || fail "'$*' failed: $_out"
}

# expect_eq WHAT GOT WANT
expect_eq() {
    [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# tree_state DIR...: every entry under the DIRs, one line each: path, type,
# mode, size, inode, modification time (ns) and a link's target. Equal
# states mean nothing was created, removed, renamed, replaced or written
# (a write moves the mtime, an atomic replace the inode, a rename and back
# the directory's mtime): stronger than hashing the contents, and one find.
# FIFOs are listed, never read.
tree_state() {
    find "$@" -printf '%p\t%y\t%m\t%s\t%i\t%T@\t%l\n' 2>/dev/null
}

# refuses RC WORD CMD...: CMD is refused: it exits RC, its output holds
# WORD (case-insensitive; empty: not checked), and every directory of
# IT_WATCH (one a line; set by the test) is left exactly as it was.
# REFUSED_OUT holds the output, for more checks.
IT_WATCH=
it_watched() {
    [ -n "$IT_WATCH" ] || return 0
    _ifs=$IFS
    IFS='
'
    set -f
    # shellcheck disable=SC2086
    set -- $IT_WATCH
    set +f
    IFS=$_ifs
    tree_state "$@"
}
refuses() {
    _want=$1 _word=$2
    shift 2
    _before=$(it_watched)
    _out=$("$@" 2>&1)
    _rc=$?
    REFUSED_OUT=$_out
    _after=$(it_watched)
    [ "$_rc" -eq "$_want" ] || fail "'$*': exit $_rc, want $_want: $_out"
    [ -z "$_word" ] || printf '%s\n' "$_out" | grep -qi -- "$_word" ||
        fail "'$*': the message lacks '$_word': $_out"
    [ "$_before" = "$_after" ] || fail "'$*' was refused (exit $_rc) but changed what it was given:
$(printf '%s\n' "$_before" >"$IT_ROOT/.refuses.a.$$"; printf '%s\n' "$_after" | diff "$IT_ROOT/.refuses.a.$$" -; rm -f "$IT_ROOT/.refuses.a.$$")"
}

# json_get FILE KEY: a top-level value of a JSON file (strings bare, as
# jq -r prints them); fails when the file is not JSON. python3 is in the
# deps; jq is not.
json_get() {
    python3 -c 'import json, sys
v = json.load(open(sys.argv[1]))[sys.argv[2]]
print(v if isinstance(v, str) else json.dumps(v))' "$1" "$2"
}

# need_engine pgsql|mysql: the engine's server and client are installed
# (missing: as need_tool). have_engine: the same for one part of a test.
need_engine() {
    it_engine "$1" need
}
have_engine() {
    it_engine "$1" have
}
it_engine() {
    case $1 in
    pgsql)
        if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 && [ -z "${DBSCALE_PGBIN:-}" ]; then
            [ "$2" = need ] && it_missing "PostgreSQL's server" postgresql
            it_part_missing "PostgreSQL's server" postgresql || return 1
        fi
        "${2}_tool" psql postgresql-client ;;
    mysql)
        if ! [ -x /usr/sbin/mariadbd ] && ! [ -x /usr/sbin/mysqld ]; then
            [ "$2" = need ] && it_missing "MariaDB's server" mariadb-server
            it_part_missing "MariaDB's server" mariadb-server || return 1
        fi
        "${2}_tool" mariadb mariadb-client ;;
    *) fail "need_engine: unknown engine '$1'" ;;
    esac
}

# server_state KEY: a value from the server's state file.
server_state() {
    sed -n "s/^$1=//p" "$SERVER_DIR/state"
}

# server_password: the generated password (for tests only; dbscale never prints it).
server_password() {
    if [ "$SERVER_ENGINE" = pgsql ]; then
        sed -n '1s/.*://p' "$SERVER_DIR/pgpass"
    else
        sed -n 's/^password=//p' "$SERVER_DIR/client.cnf"
    fi
}

# at_exit 'COMMANDS': run when the test exits, before its server is stopped.
# Use it, not `trap ... EXIT`: start_server owns the EXIT trap, so a test's
# own trap set before it would be replaced (its files left behind), and one
# set after it would drop the server's stop.
IT_AT_EXIT=
at_exit() {
    IT_AT_EXIT="$IT_AT_EXIT
$1"
    trap it_exit EXIT
}
it_exit() {
    eval "$IT_AT_EXIT" || : # a failing cleanup must not skip the server's stop
    stop_server
}

# start_server ENGINE [more `dbscale server start` options, e.g. --cpus=0 --conf k=v]
start_server() {
    [ -z "${SERVER_DIR:-}" ] || fail "start_server: a server is already running in $SERVER_DIR"
    need_engine "$1"
    SERVER_ENGINE=$1
    shift
    SERVER_DIR=$(mktemp -d "${TMPDIR:-/tmp}/dbscale-it-XXXXXX") || fail "mktemp failed"
    trap it_exit EXIT
    # a signal runs the EXIT trap only through an exit of our own
    trap 'exit 129' HUP
    trap 'exit 130' INT
    trap 'exit 141' PIPE
    trap 'exit 143' TERM
    SERVER_START_OUT=$("$DBSCALE" server start "$SERVER_ENGINE" --dir "$SERVER_DIR" "$@" 2>&1) || {
        _rc=$?
        rmdir "$SERVER_DIR" 2>/dev/null
        SERVER_DIR=
        fail "dbscale server start $SERVER_ENGINE failed (exit $_rc): $SERVER_START_OUT"
    }
    echo "$SERVER_START_OUT"
    SERVER_PORT=$(server_state port)
    SERVER_PID=$(server_state pid)
    SERVER_SOCKET=$(server_state socket)
    SERVER_SOCKET_DIR=$(server_state socket_dir)
    SERVER_USER=$(server_state user)
    SERVER_DB=$(server_state db)
    e=$SERVER_ENGINE
    SERVER_OPTS="--db-driver=$e --$e-host=127.0.0.1 --$e-port=$SERVER_PORT --$e-user=$SERVER_USER --$e-db=$SERVER_DB"
    if [ "$e" = pgsql ]; then
        PGPASSFILE=$SERVER_DIR/pgpass
        export PGPASSFILE
    else
        MYSQL_CNF=$SERVER_DIR/client.cnf
        SERVER_OPTS="$SERVER_OPTS --mysql-defaults-file=$MYSQL_CNF"
        export MYSQL_CNF
    fi
    export SERVER_ENGINE SERVER_DIR SERVER_PORT SERVER_PID SERVER_SOCKET SERVER_SOCKET_DIR \
        SERVER_USER SERVER_DB SERVER_OPTS
}

# stop_server: stop it and remove its directory (also run by the EXIT trap,
# which stays: at_exit's commands still run at the end).
stop_server() {
    [ -n "${SERVER_DIR:-}" ] || return 0
    if [ -e "$SERVER_DIR/state" ]; then
        "$DBSCALE" server stop --dir "$SERVER_DIR" ||
            echo "warning: dbscale server stop --dir $SERVER_DIR failed" >&2
    fi
    # Only a directory we made, and only if stop left it behind.
    [ -d "$SERVER_DIR" ] && rm -rf "$SERVER_DIR"
    SERVER_DIR=
    return 0
}

# pg_sql "SQL": run SQL as sbtest over TCP, print bare values (one row per line,
# columns separated by '|'). pg_sql_socket: the same over the unix socket.
pg_sql() {
    psql -X -w -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$SERVER_PORT" -U "$SERVER_USER" \
        -d "$SERVER_DB" -c "$1"
}

pg_sql_socket() {
    psql -X -w -q -At -v ON_ERROR_STOP=1 -h "$SERVER_SOCKET_DIR" -p "$SERVER_PORT" \
        -U "$SERVER_USER" -d "$SERVER_DB" -c "$1"
}

# my_sql "SQL": run SQL as sbtest over TCP, print bare values (tab-separated).
# my_sql_socket: the same over the unix socket. Only the server's own option
# file is read (never /etc/mysql).
my_sql() {
    mariadb --defaults-file="$SERVER_DIR/client.cnf" --protocol=tcp -h 127.0.0.1 \
        -P "$SERVER_PORT" -D "$SERVER_DB" -N -B -e "$1"
}

my_sql_socket() {
    mariadb --defaults-file="$SERVER_DIR/client.cnf" --protocol=socket -S "$SERVER_SOCKET" \
        -D "$SERVER_DB" -N -B -e "$1"
}

# db_sql "SQL": pg_sql or my_sql, whichever engine is running.
db_sql() {
    if [ "$SERVER_ENGINE" = pgsql ]; then pg_sql "$1"; else my_sql "$1"; fi
}

# server_statements: how many statements the server has run, a counter that
# moves at once (pgsql: pg_stat_statements' calls, so start the server with
# --conf shared_preload_libraries=pg_stat_statements; mysql: Questions).
server_statements() {
    if [ "$SERVER_ENGINE" = pgsql ]; then
        pg_sql "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements"
    else
        my_sql "SHOW GLOBAL STATUS LIKE 'Questions'" | cut -f2
    fi
}

# wait_statements BASE N PID WHAT: poll until the server has run N
# statements more than BASE (a level under way: the way to wait for one,
# not a sleep); fails when PID ends first or after 60 s.
wait_statements() {
    _i=0
    while [ "$(server_statements)" -lt $(($1 + $2)) ]; do
        kill -0 "$3" 2>/dev/null || fail "$4: ended before the server ran $2 statements"
        _i=$((_i + 1))
        [ $_i -lt 600 ] || fail "$4: the server ran fewer than $2 statements in 60 s"
        sleep 0.1
    done
}

# server_all_pids: the server's processes (postmaster and its children, or
# mariadbd), zombies left out. One ps, not a process per /proc entry: on a
# machine running thousands of processes (another suite's 1024 backends) a
# shell loop over /proc took seconds, too slow to sample a level with.
server_all_pids() {
    echo "$SERVER_PID"
    ps -o pid=,stat= --ppid "$SERVER_PID" 2>/dev/null | awk '$2 !~ /^Z/ { print $1 }'
    return 0
}

# check_listen_loopback_only: every listening TCP/UDP socket of the server's
# processes is on 127.0.0.1:$SERVER_PORT.
check_listen_loopback_only() {
    need_tool ss iproute2
    _pids=$(server_all_pids)
    _n=0
    _ss=$(ss -Hlntup) || fail "ss failed"
    for p in $_pids; do
        _lines=$(echo "$_ss" | grep "pid=$p,") || continue
        _bad=$(echo "$_lines" | awk -v want="127.0.0.1:$SERVER_PORT" '$5 != want')
        [ -z "$_bad" ] || fail "server pid $p listens beyond 127.0.0.1:$SERVER_PORT: $_bad"
        _n=$((_n + $(echo "$_lines" | wc -l)))
    done
    [ "$_n" -ge 1 ] || fail "no listening socket found for the server (pids $_pids)"
}

# server_task_masks: the distinct Cpus_allowed_list values of every thread
# of every server process, one per line.
server_task_masks() {
    for p in $(server_all_pids); do
        for t in /proc/$p/task/*; do sed -n 's/^Cpus_allowed_list:\s*//p' "$t/status" 2>/dev/null; done
    done | sort -u
}

# check_server_cpus LIST MIN WHAT: every process of the server and every
# thread of each reads Cpus_allowed_list LIST in /proc, and there are at
# least MIN such tasks (WHAT names them when there are fewer).
check_server_cpus() {
    _n=0
    for p in $(server_all_pids); do
        for st in /proc/$p/status /proc/$p/task/*/status; do
            [ -r "$st" ] || continue
            c=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$st")
            expect_eq "Cpus_allowed_list of $st" "$c" "$1"
            _n=$((_n + 1))
        done
    done
    [ $_n -ge "$2" ] || fail "expected $3, found $_n tasks"
    echo "checked $_n tasks held to CPU $1"
}
