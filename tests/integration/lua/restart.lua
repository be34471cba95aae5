-- restart.lua - a prepared select per event while the server is stopped and
-- started again under the script: every connection finds itself lost,
-- dbscale reconnects (retrying until the server is back), prepares the
-- statement again and restarts the event, and work goes on afterwards.
-- Used by lua_restart.sh.
function thread_init()
   con = sysbench.sql.driver():connect()
   stmt = con:prepare("SELECT 1 + ?")
   p = stmt:bind_create(sysbench.sql.type.INT)
   stmt:bind_param(p)
   restarts, after = 0, 0
end

function sysbench.hooks.before_restart_event(e)
   restarts = restarts + 1
end

function event()
   p:set(sysbench.tid)
   local rs = stmt:execute()
   assert(tonumber(rs:fetch_row()[1]) == sysbench.tid + 1)
   if restarts > 0 then after = after + 1 end
end

function thread_done()
   print(string.format("RESTART tid=%d restarts=%d after=%d", sysbench.tid, restarts, after))
end
