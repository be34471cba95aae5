-- count.lua - every connection counts its own events and hands the count to
-- the server in thread_done, so a test can see that each one did work.
function prepare()
   local con = sysbench.sql.driver():connect()
   con:query("DROP TABLE IF EXISTS lua_counts")
   con:query("CREATE TABLE lua_counts (tid INT, events INT)")
end

function cleanup()
   sysbench.sql.driver():connect():query("DROP TABLE IF EXISTS lua_counts")
end

function thread_init()
   con = sysbench.sql.driver():connect()
   stmt = con:prepare("SELECT ? + 1")
   p = stmt:bind_create(sysbench.sql.type.INT)
   stmt:bind_param(p)
   events = 0
end

function event()
   p:set(events)
   local rs = stmt:execute()
   assert(tonumber(rs:fetch_row()[1]) == events + 1)
   events = events + 1
end

function thread_done()
   con:query(string.format("INSERT INTO lua_counts VALUES (%d, %d)", sysbench.tid, events))
end
