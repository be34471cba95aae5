#!/bin/sh
# An event's Lua code runs as one LuaJIT trace that loops, statements and
# all, as sysbench's does: the trace recorder never gives up on it, and no
# trace ends at a statement. It used to give up on every connection
# (thread_run's pcall put a frame below where the trace after each
# statement's yield started: "NYI: return to lower frame"); then every
# trace ended at the statement's C function ("stitch"), so the event ran
# as straight pieces entered cold after every reply, with none of a loop's
# guards hoisted. The script watches the recorder through jit.attach; its
# event has the shape of oltp_common.lua's (a helper, a rand draw,
# param:set, stmt:execute) and no loop of its own.
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
   aborts, links = {}, {}
   jit.attach(function(what, tr, func, pc, code, info)
      if done then return end
      if what == "stop" then
         local l = jutil.traceinfo(tr).linktype
         links[l] = (links[l] or 0) + 1
      end
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
   -- the events' traces only: thread_done's own loop below may be recorded
   -- (a hot counter it shares by hash) and aborted (pairs is not compiled)
   done = true
   -- one write per line: the two loops print at once
   local ls = {}
   for l, n in pairs(links) do ls[#ls + 1] = l .. "=" .. n end
   table.sort(ls)
   io.write(string.format("ABORTS tid=%d n=%d %s\nLINKS tid=%d %s\n", sysbench.tid, #aborts,
                          table.concat(aborts, ","), sysbench.tid, table.concat(ls, " ")))
   con:disconnect()
end
LUA
"$DBSCALE" "$work/traced.lua" $SERVER_OPTS --threads=2 --events=4000 --time=0 run \
    >"$work/out" 2>&1 || fail "run failed: $(cat "$work/out")"
expect_eq "connections that reported" "$(grep -c '^ABORTS tid=' "$work/out")" 2
grep '^ABORTS tid=' "$work/out" | grep -v ' n=0 ' &&
    fail "the trace recorder gave up on the event (above: source:line(error code))"
# every connection's event loop is a trace that loops; none ends at a statement
expect_eq "connections with a looping trace" "$(grep -c '^LINKS tid=.* loop=' "$work/out")" 2
grep '^LINKS' "$work/out" | grep 'stitch=' &&
    fail "a trace ended at a statement's call (above: how the traces ended)"
echo "lua_jit: $(grep '^LINKS' "$work/out" | tr '\n' ' ')"
echo "lua_jit: $(grep '^ABORTS' "$work/out" | tr '\n' ' ')"
