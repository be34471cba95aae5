-- hooks.lua - sysbench's report hooks: report_intermediate gets each
-- period's counts, report_cumulative the run's totals (sysbench 1.0.20's
-- stat fields), and the bundled reporters print sysbench's layouts. Used by
-- lua_scripts.lib, which checks the lines printed here.
function thread_init()
   con = sysbench.sql.driver():connect()
end

function event()
   con:query("SELECT 1")
end

local function check_common(s)
   for _, k in ipairs({"time_interval", "time_total", "threads_running", "events", "reads",
                       "writes", "other", "errors", "reconnects", "latency_pct"}) do
      assert(type(s[k]) == "number", k)
   end
end

function sysbench.hooks.report_intermediate(s)
   check_common(s)
   assert(type(s.queue_length) == "number" and type(s.concurrency) == "number")
   assert(s.latency_min == nil)
   -- counts of the period: its events are about its rate times its length
   print(string.format("HOOK-I threads=%d events_pos=%s reads_eq_events=%s",
                       s.threads_running, tostring(s.events > 0),
                       tostring(s.reads == s.events)))
end

function sysbench.hooks.report_cumulative(s)
   check_common(s)
   assert(s.latency_min <= s.latency_avg and s.latency_avg <= s.latency_max)
   assert(s.latency_sum > 0 and s.queue_length == nil)
   print(string.format("HOOK-C threads=%d events=%d reads=%d writes=%d other=%d errors=%d",
                       s.threads_running, s.events, s.reads, s.writes, s.other, s.errors))
   sysbench.report_csv(s)
   sysbench.report_default(s)
   sysbench.report_json(s)
end
