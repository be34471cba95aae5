-- interleave.lua - two scripted connections on one event loop must take
-- turns inside their events: connection 0 waits (inside a pcall) for an
-- advisory lock that connection 1 holds and releases only in its own
-- event(). If a database call blocked its loop, connection 0 would wait
-- for ever; each connection also records the OS thread it ran on.
local ffi = require("ffi")
ffi.cdef[[unsigned long pthread_self(void);]]

function prepare()
   local con = sysbench.sql.driver():connect()
   con:query("DROP TABLE IF EXISTS lua_turns")
   con:query("CREATE TABLE lua_turns (tid INT, events INT, got_lock INT, thr TEXT)")
end

function cleanup()
   sysbench.sql.driver():connect():query("DROP TABLE IF EXISTS lua_turns")
end

function thread_init()
   con = sysbench.sql.driver():connect()
   events, got = 0, 0
   if sysbench.tid == 1 then con:query("SELECT pg_advisory_lock(42)") end
end

function event()
   events = events + 1
   thr = tostring(tonumber(ffi.C.pthread_self()))
   if sysbench.tid == 0 and got == 0 then
      local ok, v = pcall(function() return con:query_row("SELECT pg_advisory_lock(42)") end)
      assert(ok, v)
      got = 1
      -- a failing statement inside pcall: the error comes back, the event goes on
      local bad = pcall(con.query, con, "SELECT * FROM no_such_table_here")
      assert(not bad)
      con:query("SELECT pg_advisory_unlock(42)")
   elseif sysbench.tid == 1 and events == 1 then
      con:query("SELECT pg_advisory_unlock(42)")
   else
      con:query("SELECT 1")
   end
end

function thread_done()
   con:query(string.format("INSERT INTO lua_turns VALUES (%d, %d, %d, '%s')",
                           sysbench.tid, events, got, thr))
end
