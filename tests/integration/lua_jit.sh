#!/bin/sh
# An event's Lua code runs as LuaJIT traces between its statements, as
# sysbench's does: the trace recorder never gives up on it. It used to, on
# every connection: thread_run's pcall put a frame below where the trace
# after each statement's yield starts, LuaJIT cannot record a return through
# it ("NYI: return to lower frame"), and each resumed event ran in the
# interpreter. The script counts the recorder's aborts through jit.attach;
# its event has the shape of oltp_common.lua's (a helper, a rand draw,
# param:set, stmt:execute) and no loop of its own, so there is nothing the
# recorder should give up on.
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
cat >"$work/traced.lua" <<'LUA'
local jutil = require("jit.util")
function thread_init()
   con = sysbench.sql.driver():connect()
   stmt = con:prepare("SELECT CAST(? AS integer) + 1")
   param = stmt:bind_create(sysbench.sql.type.INT)
   stmt:bind_param(param)
   aborts = {}
   jit.attach(function(what, tr, func, pc, code, info)
      if what ~= "abort" then return end
      local fi = jutil.funcinfo(func, pc)
      aborts[#aborts + 1] = string.format("%s:%s(%s)", tostring(fi.source),
                                          tostring(fi.currentline), tostring(code))
   end, "trace")
end
local function one()
   param:set(sysbench.rand.uniform(1, 1000))
   stmt:execute()
end
function event() one() end
function thread_done()
   -- one write per line: the two loops print at once
   io.write(string.format("ABORTS tid=%d n=%d %s\n", sysbench.tid, #aborts,
                          table.concat(aborts, ",")))
   con:disconnect()
end
LUA
"$DBSCALE" "$work/traced.lua" $SERVER_OPTS --threads=2 --events=4000 --time=0 run \
    >"$work/out" 2>&1 || fail "run failed: $(cat "$work/out")"
expect_eq "connections that reported" "$(grep -c '^ABORTS tid=' "$work/out")" 2
grep '^ABORTS tid=' "$work/out" | grep -v ' n=0 ' &&
    fail "the trace recorder gave up on the event (above: source:line(error code))"
echo "lua_jit: $(grep '^ABORTS' "$work/out" | tr '\n' ' ')"
