#!/bin/sh
# make install DESTDIR=...: the binary, the configs, a man page and a bash
# completion that name every verb and every option the parsers take (they
# are generated from the same tables), a man page that renders without a
# warning, and an installed dbscale that finds its configs by bare name.
. "$(dirname "$0")/lib.sh" "$1"
need_tool make build-essential
root=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "$(dirname "$DBSCALE")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# MPICC= : dbscale alone (an ASan build dir's dbscale-mpi would need the ASan link flags)
out=$(make -C "$root" --no-print-directory B="$B" MPICC= DESTDIR="$tmp/d" PREFIX=/usr/local install 2>&1) ||
    fail "make install failed: $out"
p=$tmp/d/usr/local
for f in bin/dbscale share/dbscale/configs/pgsql-cpu-count.ini share/dbscale/schemas/pgsql.sql \
    share/man/man1/dbscale.1 share/bash-completion/completions/dbscale; do
    [ -f "$p/$f" ] || fail "make install did not install $f"
done
[ -x "$p/bin/dbscale" ] || fail "installed dbscale is not executable"
man=$p/share/man/man1/dbscale.1
comp=$p/share/bash-completion/completions/dbscale

# renders without warnings (groff -ww: all of them)
if have_tool groff groff-base; then
    w=$(groff -ww -man -Tutf8 "$man" 2>&1 >/dev/null)
    [ -z "$w" ] || fail "groff warns about dbscale.1: $w"
    rendered=$(groff -man -Tutf8 "$man" 2>/dev/null | sed 's/.\x08//g')
elif command -v man >/dev/null; then
    w=$(MANWIDTH=80 man --warnings -l "$man" 2>&1 >/dev/null)
    [ -z "$w" ] || fail "man warns about dbscale.1: $w"
    rendered=$(MANWIDTH=80 man -l "$man" 2>/dev/null | sed 's/.\x08//g')
else
    rendered=$(sed 's/\\-/-/g' "$man")
fi

# every verb and every option with its default, in both (the texts the
# greps read are files, each written once by the same echo that piped it to
# every grep before: one process per check instead of two, ~300 options)
dump=$("$DBSCALE" --dump-options) || fail "--dump-options failed"
[ "$(echo "$dump" | wc -l)" -gt 100 ] || fail "--dump-options lists too little: $dump"
flat=$(echo "$rendered" | tr -s ' \n' '  ')
echo "$rendered" >"$tmp/rendered"
echo "$flat" >"$tmp/flat"
echo "$dump" >"$tmp/dump"
echo "$dump" | while IFS='	' read -r verb opt def; do
    grep -q -- "^ *$verb " "$tmp/rendered" || fail "man page has no section for $verb"
    grep -q -- "$opt=" "$tmp/rendered" || fail "man page lacks $opt ($verb)"
    if [ -n "$def" ]; then
        grep -qF -- "[$def]" "$tmp/flat" || fail "man page lacks $opt's default [$def]"
    fi
    grep -q -- "$verb) words=\".* $opt[= \"]" "$comp" || fail "completion lacks $opt for $verb"
done || exit 1
# and what each verb's --help lists is what the dump says, both ways
for verb in $(echo "$dump" | cut -f1 | uniq); do
    h=$("$DBSCALE" "$verb" --help | sed -n 's/^  \(--[a-z0-9_-]*\)=.*/\1/p')
    echo "$h" >"$tmp/help"
    echo "$h" | while read -r opt; do
        grep -q "^$verb	$opt	" "$tmp/dump" || fail "$verb --help lists $opt, the man page does not"
    done || exit 1
    echo "$dump" | sed -n "s/^$verb	\([^	]*\)	.*/\1/p" | while read -r opt; do
        grep -qx -- "$opt" "$tmp/help" || fail "the man page lists $opt for $verb, --help does not"
    done || exit 1
done

# the completion works in bash: options after a verb, choices after '='
if command -v bash >/dev/null; then
    got=$(bash -c '. "$1"; COMP_WORDS=(dbscale run oltp_read_only --table-s); COMP_CWORD=3
        _dbscale; echo "${COMPREPLY[*]}"' _ "$comp") || fail "completion script fails in bash"
    expect_eq "completion of --table-s" "$got" "--table-size="
    got=$(bash -c '. "$1"; COMP_WORDS=(dbscale run --db-driver = p); COMP_CWORD=4
        _dbscale; echo "${COMPREPLY[*]}"' _ "$comp")
    expect_eq "completion of --db-driver=p" "$got" "pgsql postgresql"
    got=$(bash -c '. "$1"; COMP_WORDS=(dbscale oltp_read_only --threads=2 pre); COMP_CWORD=3
        _dbscale; echo "${COMPREPLY[*]}"' _ "$comp")
    expect_eq "completion of sysbench's command word" "$got" "prepare prewarm"
fi

# the installed binary finds the installed configs by bare name from anywhere
cd "$tmp"
err=$("$p/bin/dbscale" sweep --config pgsql-cpu-count.ini --no-such-option 2>&1)
echo "$err" | grep -q "no-such-option" || fail "installed dbscale misses its configs: $err"
echo "install: ok"
