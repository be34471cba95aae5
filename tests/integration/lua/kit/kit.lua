#!/usr/bin/env sysbench
-- kit.lua - the kit's entry point (kit_common.lua says what the kit is):
-- run it as `sysbench ./kit.lua ... prepare|run|check|cleanup`, or the
-- same with dbscale.

require("kit_common")
require("kit_run")
require("kit_check")

function thread_init()
   drv, con = kit_connect()
end

function thread_done()
   con:disconnect()
end

function event()
   local t = sysbench.rand.uniform(1, 10)
   if t <= 4 then
      new_order()
   elseif t <= 8 then
      payment()
   else
      order_status()
   end
end

-- a deadlock or serialization failure restarts the event: the transaction
-- it was in is rolled back first
function sysbench.hooks.before_restart_event(err)
   con:query("ROLLBACK")
end

function sysbench.hooks.report_intermediate(stat)
   if sysbench.opt.report_csv == "yes" then
      sysbench.report_csv(stat)
   else
      sysbench.report_default(stat)
   end
end
