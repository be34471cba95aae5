#!/bin/sh
# DBSCALE_SERVER_CACHE, both engines: the first start runs the engine's own
# tool (initdb, mariadb-install-db) and keeps a template of its data; the
# next starts copy it and work as fresh servers do (sbtest logs in with its
# own new password, which no template holds); other extra settings make
# another MariaDB template (install-db reads them); a cache directory
# others may write is refused, naming the variable, with nothing made.
. "$(dirname "$0")/lib.sh" "$1"
cache=$(mktemp -d)
at_exit 'rm -rf "$cache"'
DBSCALE_SERVER_CACHE=$cache/c
export DBSCALE_SERVER_CACHE

from_template() { grep -q "copy of the template" "$SERVER_DIR/log"; }

ran=0
for e in pgsql mysql; do
    have_engine $e || continue
    ran=1
    start_server $e >/dev/null
    from_template && fail "$e: the first start found a template in an empty cache"
    pw1=$(server_password)
    stop_server
    n=$(ls "$DBSCALE_SERVER_CACHE" | grep -c "^$e-")
    expect_eq "$e: templates kept" "$n" 1
    start_server $e >/dev/null
    from_template || fail "$e: the second start ran the tool again: $(tail -3 "$SERVER_DIR/log")"
    expect_eq "$e: sbtest on the copy" "$(db_sql 'SELECT 1')" 1
    db_sql "CREATE TABLE t (id int PRIMARY KEY)" >/dev/null || fail "$e: no DDL on the copy"
    pw2=$(server_password)
    [ "$pw1" != "$pw2" ] || fail "$e: two servers with one password"
    grep -rqa -e "$pw1" -e "$pw2" "$DBSCALE_SERVER_CACHE" && fail "$e: an sbtest password in the cache"
    stop_server
done
[ $ran = 1 ] || skip "neither PostgreSQL nor MariaDB installed"

# PostgreSQL's superuser password sits beside its template, private
for f in "$DBSCALE_SERVER_CACHE"/pgsql-*/superpw; do
    [ -e "$f" ] || continue
    expect_eq "superpw mode" "$(stat -c %a "$f")" 600
    ls "$(dirname "$f")/data" | grep -q superpw && fail "superpw inside the template's data"
done
expect_eq "cache mode" "$(stat -c %a "$DBSCALE_SERVER_CACHE")" 700

if have_engine mysql; then
    start_server mysql --conf max_connections=33 >/dev/null
    from_template && fail "mysql: other extra settings took the template made without them"
    expect_eq "mysql: the extra setting" "$(my_sql 'SELECT @@max_connections')" 33
    stop_server
    expect_eq "mysql: templates kept" "$(ls "$DBSCALE_SERVER_CACHE" | grep -c '^mysql-')" 2
fi

# a cache others may write is refused before anything is made
chmod 777 "$DBSCALE_SERVER_CACHE"
e=pgsql
[ -n "$(ls /usr/lib/postgresql/*/bin/postgres 2>/dev/null)" ] || e=mysql
srv=$(mktemp -u "${TMPDIR:-/tmp}/dbscale-tpl-XXXXXX")
out=$("$DBSCALE" server start $e --dir "$srv" 2>&1)
rc=$?
[ $rc -ne 0 ] || fail "a world-writable cache was used"
echo "$out" | grep -q DBSCALE_SERVER_CACHE || fail "the refusal does not name the variable: $out"
[ -e "$srv" ] && fail "the refused start left $srv"
echo "templates taken and refused as they should be"
