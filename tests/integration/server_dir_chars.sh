#!/bin/sh
# A --dir with characters the engines' config files treat specially: a
# PostgreSQL server in a directory with a backslash, a single quote and a
# space starts and answers over its socket and TCP; what an engine cannot
# take (a comma or double quote for PostgreSQL's socket list, a backslash or
# quote in MariaDB's option files, a newline for both) is refused with exit 2
# and a message naming the character, creating nothing.
. "$(dirname "$0")/lib.sh" "$1"
work=$(mktemp -d)
chmod 755 "$work" # the engine user walks through it
trap 'for d in "$work"/*/; do [ -e "$d/state" ] && "$DBSCALE" server stop --dir "$d" >/dev/null 2>&1; done; rm -rf "$work"' EXIT
nl='
'
# refused ENGINE DIR WHAT: exit 2 naming WHAT, and $work (DIR's parent)
# left as it was
refused() {
    before=$(tree_state "$work")
    out=$("$DBSCALE" server start "$1" --dir "$2" 2>&1)
    rc=$?
    [ $rc = 0 ] && "$DBSCALE" server stop --dir "$2" >/dev/null 2>&1
    expect_eq "$1 --dir with $3: exit" $rc 2
    echo "$out" | grep -q "$3" || fail "$1 --dir with $3: unclear message: $out"
    [ -e "$2" ] && fail "$1 --dir with $3: $2 was created"
    [ "$(tree_state "$work")" = "$before" ] || fail "$1 --dir with $3: $work changed"
    return 0
}
ran=0
if have_engine pgsql; then
    d="$work/pg a\\b'c"
    out=$("$DBSCALE" server start pgsql --dir "$d" 2>&1) || fail "pgsql in '$d': $out"
    port=$(sed -n 's/^port=//p' "$d/state")
    r=$(PGPASSFILE="$d/pgpass" psql -X -w -At -h "$d/sock" -p "$port" -U sbtest -d sbtest -c 'SELECT 41+1') ||
        fail "pgsql in '$d': no answer on the socket"
    expect_eq "pgsql socket in '$d'" "$r" 42
    "$DBSCALE" server stop --dir "$d" || fail "pgsql in '$d': stop failed"
    [ -e "$d" ] && fail "pgsql in '$d': left behind"
    refused pgsql "$work/pg,comma" "','"
    refused pgsql "$work/pg\"dq" "'\"'"
    refused pgsql "$work/pg${nl}nl" "newline"
    ran=1
fi
if have_engine mysql; then
    refused mysql "$work/my\\bs" "'\\\\'"
    refused mysql "$work/my'q" "'''"
    refused mysql "$work/my${nl}nl" "newline"
    ran=1
fi
[ $ran = 1 ] || skip "neither PostgreSQL nor MariaDB installed"
echo "special characters in --dir handled"
