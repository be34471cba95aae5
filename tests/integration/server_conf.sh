#!/bin/sh
# --conf can tune a throwaway server but never move it off loopback: the
# engines' own indirections are refused with exit 2 and a message naming the
# line (PostgreSQL include, include_if_exists, include_dir; MariaDB loose-
# and loose_ prefixes, abbreviations such as bind-addr, !include, sections),
# and nothing is left behind.
. "$(dirname "$0")/lib.sh" "$1"
work=$(mktemp -d)
trap 'for d in "$work"/d*; do [ -e "$d/state" ] && "$DBSCALE" server stop --dir "$d" >/dev/null 2>&1; done; rm -rf "$work"' EXIT
printf "listen_addresses = '*'\n" >"$work/evil.conf"
printf "[mysqld]\nbind-address=0.0.0.0\n" >"$work/evil.cnf"
n=0

# refused ENGINE LINE: start must exit 2 naming LINE, creating nothing and
# leaving $work (the included files among it) as it was.
refused() {
    n=$((n + 1))
    before=$(tree_state "$work")
    out=$("$DBSCALE" server start "$1" --dir "$work/d$n" --conf "$2" 2>&1)
    rc=$?
    [ $rc = 0 ] && "$DBSCALE" server stop --dir "$work/d$n" >/dev/null 2>&1
    expect_eq "$1 --conf '$2' exit" $rc 2
    echo "$out" | grep -qF -- "$2" || fail "$1 --conf '$2': the message does not name the line: $out"
    [ -e "$work/d$n" ] && fail "$1 --conf '$2': $work/d$n was created"
    [ "$(tree_state "$work")" = "$before" ] || fail "$1 --conf '$2': $work changed"
    return 0
}

if have_engine pgsql; then
    refused pgsql "include='$work/evil.conf'"
    refused pgsql "include_if_exists='$work/evil.conf'"
    refused pgsql "include_dir='$work'"
    refused pgsql "INCLUDE '$work/evil.conf'"
fi
if have_engine mysql; then
    refused mysql "loose-bind-address=0.0.0.0"
    refused mysql "loose_bind_address=0.0.0.0"
    refused mysql "bind-addr=0.0.0.0"
    refused mysql "loose-bind=0.0.0.0"
    refused mysql "!include $work/evil.cnf"
    refused mysql "!includedir $work"
    refused mysql "skip-grant-tables"
fi
[ $n -gt 0 ] || skip "neither PostgreSQL nor MariaDB installed"
echo "$n --conf indirections refused"
