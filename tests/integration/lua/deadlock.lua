-- deadlock.lua - connections 0 and 1 update two rows in opposite orders in
-- their first event, each waiting (on the server, so a loop is never
-- blocked) until both hold their first row (a mark each writes through a
-- second connection): one of them is the server's
-- deadlock victim, an ignorable error (40P01 / 1213) that restarts its
-- event after before_restart_event. Used by lua_scripts.lib.
local pg = sysbench.opt.db_driver == "pgsql"

function prepare()
   local con = sysbench.sql.driver():connect()
   con:query("DROP TABLE IF EXISTS lua_dl")
   con:query("CREATE TABLE lua_dl (id INT PRIMARY KEY, v INT)")
   con:query("INSERT INTO lua_dl VALUES (1, 0), (2, 0)")
   con:query("DROP TABLE IF EXISTS lua_dl_ready")
   con:query("CREATE TABLE lua_dl_ready (tid INT)")
end

function cleanup()
   local con = sysbench.sql.driver():connect()
   con:query("DROP TABLE IF EXISTS lua_dl")
   con:query("DROP TABLE IF EXISTS lua_dl_ready")
end

function thread_init()
   con = sysbench.sql.driver():connect()
   mark = sysbench.sql.driver():connect() -- autocommit: its rows show at once
   first = sysbench.tid < 2
   restarts = 0
end

function sysbench.hooks.before_restart_event(e)
   assert(e.sql_state == "40P01" or e.sql_errno == 1213, tostring(e.sql_state))
   restarts = restarts + 1
end

-- until both connections of the pair are inside their first event (each
-- has written its mark)
local function wait_pair()
   for _ = 1, 1000 do
      if tonumber(mark:query_row("SELECT count(*) FROM lua_dl_ready")) >= 2 then return end
      mark:query(pg and "SELECT pg_sleep(0.01)" or "SELECT SLEEP(0.01)")
   end
end

function event()
   if not first then
      -- --events is shared: a plain connection must not take the events
      -- the pair needs before both have begun (one of them would find no
      -- partner and wait 10 s alone: no deadlock)
      if not paired then wait_pair(); paired = true end
      con:query_row("SELECT 1")
      return
   end
   first = false -- the restarted event takes the plain path
   local a, b = 1, 2
   if sysbench.tid == 1 then a, b = 2, 1 end
   con:query("BEGIN")
   con:query("UPDATE lua_dl SET v = v + 1 WHERE id = " .. a)
   mark:query("INSERT INTO lua_dl_ready VALUES (" .. sysbench.tid .. ")")
   wait_pair()
   con:query("UPDATE lua_dl SET v = v + 1 WHERE id = " .. b)
   con:query("COMMIT")
end

function thread_done()
   print(string.format("DEADLOCK tid=%d restarts=%d", sysbench.tid, restarts))
end
