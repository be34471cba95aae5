-- api.lua - the project's own script calling sysbench's Lua API as its
-- scripts do; every check is an assert, so a wrong answer fails the run with
-- this file's line. Used by lua_scripts.lib on both engines.
local ffi = require("ffi")
-- sb_counter_type is sysbench's own declaration, made before a script runs
-- (declaring it again fails under sysbench too); the function is the
-- script's to declare
ffi.cdef[[
void sb_counter_inc(int thread_id, sb_counter_type type);
]]

sysbench.cmdline.options = {
   rows = {"rows the bulk insert writes", 250},
   label = {"a string option", "abc"},
   flag = {"a boolean option", false},
}

local function pg() return sysbench.opt.db_driver == "pgsql" end

local function mark()
   local con = sysbench.sql.driver():connect()
   con:query(string.format("INSERT INTO lua_marks VALUES (%d)", sysbench.tid))
   con:disconnect()
end

sysbench.cmdline.commands = {
   mark = {mark, sysbench.cmdline.PARALLEL_COMMAND},
}

function prepare()
   local con = sysbench.sql.driver():connect()
   con:query("DROP TABLE IF EXISTS lua_api")
   con:query("DROP TABLE IF EXISTS lua_marks")
   con:query("CREATE TABLE lua_api (id INT PRIMARY KEY, v VARCHAR(200))")
   con:query("CREATE TABLE lua_marks (tid INT)")
   con:bulk_insert_init("INSERT INTO lua_api (id, v) VALUES")
   for i = 1, sysbench.opt.rows do
      con:bulk_insert_next(string.format("(%d, '%s')", i,
                                         sysbench.rand.string("###-@@@")))
   end
   con:bulk_insert_done()
   assert(tonumber(con:query_row("SELECT count(*) FROM lua_api")) == sysbench.opt.rows)
   -- an integer parameter is sent as string.format('%d', v) prints it
   local st = con:prepare("SELECT ?")
   local q = st:bind_create(sysbench.sql.type.INT)
   st:bind_param(q)
   for _, c in ipairs({{-7.9, "-7"}, {7.9, "7"}, {0, "0"}, {-2^40, "-1099511627776"},
                       {"12", "12"}}) do
      q:set(c[1])
      local got = st:execute():fetch_row()[1]
      assert(got == c[2], "INT parameter " .. tostring(c[1]) .. " sent as " .. tostring(got))
   end
   st:close()
   -- rows of a prepared statement, fetched one after another
   st = con:prepare("SELECT id, v FROM lua_api WHERE id <= ? ORDER BY id")
   q = st:bind_create(sysbench.sql.type.INT)
   st:bind_param(q)
   q:set(3)
   local rs = st:execute()
   assert(rs.nrows == 3 and rs.nfields == 2)
   for i = 1, 3 do
      local row = rs:fetch_row()
      assert(tonumber(row[1]) == i and #row[2] == 7, "row " .. i)
   end
   assert(rs:fetch_row() == nil)
   st:close()
   print("prepare: bulk insert of " .. sysbench.opt.rows .. " rows ok")
end

function cleanup()
   local con = sysbench.sql.driver():connect()
   con:query("DROP TABLE IF EXISTS lua_api")
   con:query("DROP TABLE IF EXISTS lua_marks")
end

function thread_init()
   drv = sysbench.sql.driver()
   assert(drv:name() == sysbench.opt.db_driver, drv:name())
   con = drv:connect()
   stmt = con:prepare("SELECT v FROM lua_api WHERE id = ?")
   p = stmt:bind_create(sysbench.sql.type.INT)
   stmt:bind_param(p)
   ins = con:prepare("INSERT INTO lua_api (id, v) VALUES (?, ?)")
   pi = ins:bind_create(sysbench.sql.type.INT)
   ps = ins:bind_create(sysbench.sql.type.VARCHAR, 5)
   ins:bind_param(pi, ps)
   restarts = 0
   dup_done = false
end

function sysbench.hooks.sql_error_ignorable(e)
   return e.sql_state == "23505" or e.sql_errno == 1062
end

function sysbench.hooks.before_restart_event(e)
   restarts = restarts + 1
end

function event()
   assert(sysbench.version == "1.0.20")
   assert(sysbench.cmdline.command == "run")
   assert(sysbench.cmdline.script_path:match("api%.lua$"))
   assert(sysbench.opt.label == "abc" and sysbench.opt.flag == false)
   assert(sysbench.opt.threads == 1 and sysbench.opt.rows == 250)
   assert(sysbench.sql.type.VARCHAR == 12 and sysbench.sql.error.FATAL == 2)
   -- NULLs and a wide row
   local rs = con:query(pg() and "SELECT NULL, 'a', repeat('x', 100000)"
                           or "SELECT NULL, 'a', REPEAT('x', 100000)")
   assert(rs.nrows == 1 and rs.nfields == 3)
   local row = rs:fetch_row()
   assert(row[1] == nil and row[2] == "a" and #row[3] == 100000)
   assert(rs:fetch_row() == nil)
   rs:free()
   -- one result set per connection, as sysbench's (con->rs): the next
   -- statement's rows replace the last one's in the same object
   local a = con:query("SELECT 1")
   local b = con:query("SELECT 2")
   assert(rawequal(a, b) and a:fetch_row()[1] == "2")
   -- a prepared statement with a parameter
   p:set(7)
   local r2 = stmt:execute()
   assert(r2.nrows == 1)
   assert(#r2:fetch_row()[1] == 7)
   -- six parameters of each kind, one NULL (the prelude passes the first
   -- four one way and the rest in a loop)
   local six = con:prepare("SELECT ?, ?, ?, ?, ?, ?")
   local sp = {}
   for i = 1, 6 do
      sp[i] = six:bind_create(i % 2 == 1 and sysbench.sql.type.INT or sysbench.sql.type.VARCHAR, 8)
   end
   six:bind_param(unpack(sp))
   sp[1]:set(1); sp[2]:set("b"); sp[3]:set(333); sp[4]:set(nil); sp[5]:set(-5); sp[6]:set("ffffff")
   local row6 = six:execute():fetch_row()
   assert(row6[1] == "1" and row6[2] == "b" and row6[3] == "333" and row6[4] == nil
          and row6[5] == "-5" and row6[6] == "ffffff", "six parameters came back wrong")
   six:close()
   -- the random numbers
   for i = 1, 100 do
      local a = sysbench.rand.default(5, 9)
      assert(a >= 5 and a <= 9)
      local u = sysbench.rand.uniform(1, 3)
      assert(u >= 1 and u <= 3)
      local g = sysbench.rand.gaussian(1, 10) + sysbench.rand.special(1, 10)
         + sysbench.rand.pareto(1, 10) + sysbench.rand.zipfian(1, 10)
      assert(g >= 4 and g <= 40)
      local d = sysbench.rand.uniform_double()
      assert(d >= 0 and d < 1)
      local s = sysbench.rand.varstring(3, 6)
      assert(#s >= 3 and #s <= 6)
   end
   assert(sysbench.rand.string("##@@"):match("^%d%d%a%a$"))
   assert(sysbench.rand.unique() ~= sysbench.rand.unique())
   assert(sysbench.rand.uniform_uint64() ~= nil)
   -- an ignorable error restarts the event once (duplicate key, via the
   -- hook); inside a transaction, so on PostgreSQL the restarted event only
   -- works if the aborted transaction was rolled back
   if not dup_done then
      dup_done = true
      con:query("BEGIN")
      pi:set(1)
      ps:set_rand_str("@@@@@@@@")
      ins:execute()
      error("the duplicate insert did not fail")
   end
   assert(restarts == 1)
   -- reconnect keeps the prepared statements
   con:reconnect()
   p:set(3)
   assert(stmt:execute().nrows == 1)
   -- counters by ffi: one extra read per event
   ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_READ)
end

function thread_done()
   stmt:close()
   ins:close()
   con:disconnect()
end
