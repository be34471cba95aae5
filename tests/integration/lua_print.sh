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

# A command's lines reach a file while it runs, as sysbench's progress lines
# do, not at exit: the script's prepare waits (at most 20 s) for a file the
# test makes only once the first line is in the output file.
cat >"$work/slow_prepare.lua" <<'LUA'
function prepare()
   print("loading table 1")
   for _ = 1, 200 do
      local f = io.open(os.getenv("GO"))
      if f then f:close() break end
      os.execute("sleep 0.1")
   end
   print("loaded")
end
function event() end
LUA
GO=$work/go "$DBSCALE" "$work/slow_prepare.lua" $SERVER_OPTS prepare >"$work/prep" 2>&1 &
pid=$!
i=0
until grep -q '^loading table 1$' "$work/prep"; do
    i=$((i + 1))
    [ $i -le 100 ] || { kill $pid; fail "prepare's first line not in the file after 10 s: stdout is buffered"; }
    sleep 0.1
done
touch "$work/go"
wait $pid || fail "slow_prepare.lua prepare failed: $(cat "$work/prep")"
grep -q '^loaded$' "$work/prep" || fail "prepare's last line missing: $(cat "$work/prep")"
echo "lua_print: a prepare's lines reach the file as they are printed"
