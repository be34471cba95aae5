#!/bin/sh
# print from many connections at once keeps its lines whole: each print is
# one write. Lua's own print writes every argument and the newline apart, so
# two loops printing at once ran their lines into each other (seen as
# "...after=132443RESTART tid=2..." in lua_restart's output, which counts
# lines).
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
cat >"$work/printer.lua" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect() end
local n = 0
function event()
   n = n + 1
   print("LINE", sysbench.tid, n, "x")
   if n % 50 == 0 then con:query("SELECT 1") end
   return n >= 3000
end
function thread_done() con:disconnect() end
LUA
"$DBSCALE" "$work/printer.lua" $SERVER_OPTS --threads=4 --client-loops=4 --time=20 run \
    >"$work/out" 2>&1 || fail "run failed: $(tail -5 "$work/out")"
lines=$(grep -c '^LINE	[0-3]	[0-9]*	x$' "$work/out")
bad=$(grep 'LINE' "$work/out" | grep -vc '^LINE	[0-3]	[0-9]*	x$')
[ "$bad" = 0 ] || fail "$bad printed lines broken up, e.g. $(grep LINE "$work/out" | grep -v '^LINE	[0-3]	[0-9]*	x$' | head -n 2)"
expect_eq "whole printed lines (4 connections x 3000)" "$lines" 12000
echo "lua_print: $lines lines from 4 loops, none broken"
