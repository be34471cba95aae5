-- ignore.lua - every other event fails once inside a transaction (a table
-- that does not exist: 42P01 / 1146); --db-ignore-errors decides whether
-- that restarts the event or ends the run. Used by lua_scripts.lib.
function thread_init()
   con = sysbench.sql.driver():connect()
   n = 0
end

function event()
   n = n + 1
   con:query("BEGIN")
   if n % 2 == 1 then
      con:query("SELECT * FROM lua_no_such_table")
   end
   con:query("SELECT 1")
   con:query("COMMIT")
end
