-- lost.lua - the session under a prepared statement is killed from a second
-- connection (as a server restart ends every session): the next execute
-- finds the connection lost, dbscale reconnects, prepares the statement
-- again and restarts the event, which then reads its row. Used by
-- lua_scripts.lib.
local pg = sysbench.opt.db_driver == "pgsql"

function prepare()
   local con = sysbench.sql.driver():connect()
   con:query("DROP TABLE IF EXISTS lua_lost")
   con:query("CREATE TABLE lua_lost (id INT PRIMARY KEY, v VARCHAR(10))")
   con:query("INSERT INTO lua_lost VALUES (1, 'one')")
end

function cleanup()
   sysbench.sql.driver():connect():query("DROP TABLE IF EXISTS lua_lost")
end

function thread_init()
   con = sysbench.sql.driver():connect()
   killer = sysbench.sql.driver():connect()
   stmt = con:prepare("SELECT v FROM lua_lost WHERE id = ?")
   p = stmt:bind_create(sysbench.sql.type.INT)
   stmt:bind_param(p)
   killed, restarts = false, 0
end

function sysbench.hooks.before_restart_event(e)
   restarts = restarts + 1
end

function event()
   if not killed then
      killed = true
      local id = con:query_row(pg and "SELECT pg_backend_pid()" or "SELECT CONNECTION_ID()")
      killer:query((pg and "SELECT pg_terminate_backend(%s)" or "KILL %s"):format(id))
      -- gone from the server before the next statement tries it
      local left = pg and "SELECT count(*) FROM pg_stat_activity WHERE pid = " .. id
         or "SELECT count(*) FROM information_schema.processlist WHERE id = " .. id
      for _ = 1, 500 do
         if tonumber(killer:query_row(left)) == 0 then break end
         killer:query(pg and "SELECT pg_sleep(0.01)" or "SELECT SLEEP(0.01)")
      end
   end
   p:set(1)
   local rs = stmt:execute()
   assert(rs:fetch_row()[1] == "one")
end

function thread_done()
   print(string.format("LOST restarts=%d", restarts))
end
