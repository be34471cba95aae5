-- kit_common.lua - the shared half of a small TPC-C-like kit, written for
-- dbscale's tests the way third-party sysbench kits are written: its own
-- ffi declarations in sysbench's types (sb_counter_type), libc's usleep
-- through the ffi, its own options and commands (a parallel prepare, a
-- parallel check), bulk inserts, result sets read by nrows and fetch_row.
-- It runs under sysbench 1.0.20 unchanged; lua_kit.sh runs it under both.

ffi = require("ffi")

ffi.cdef[[
void sb_counter_inc(int, sb_counter_type);
typedef uint32_t useconds_t;
int usleep(useconds_t useconds);
]]

if sysbench.cmdline.command == nil then
   error("Command is required. Supported commands: prepare, run, check, cleanup, help")
end

ITEMS = 200
DISTRICTS = 4
CUSTOMERS = 30
TABLES = {"order_line", "new_order", "orders", "history", "customer", "stock",
          "district", "item", "warehouse"}

sysbench.cmdline.options = {
   scale = {"Warehouses", 2},
   use_fk = {"Foreign keys: 1 on, 0 off", 1},
   trx_level = {"Isolation level: RC, RR or SER", "RR"},
   rollback_pct = {"Percent of new orders that name a missing item and roll back", 1},
   report_csv = {"Period lines in CSV (yes, no)", "no"},
}

local levels = {RC = "READ COMMITTED", RR = "REPEATABLE READ", SER = "SERIALIZABLE"}

function kit_connect()
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   local lvl = levels[sysbench.opt.trx_level]
   if not lvl then
      error("--trx_level must be RC, RR or SER, not " .. sysbench.opt.trx_level)
   end
   if drv:name() == "mysql" then
      con:query("SET SESSION TRANSACTION ISOLATION LEVEL " .. lvl)
   else
      con:query("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL " .. lvl)
   end
   return drv, con
end

local function fk(sql)
   return sysbench.opt.use_fk == 1 and (", " .. sql) or ""
end

local function create_tables(con)
   con:query("CREATE TABLE warehouse (w_id INT PRIMARY KEY, w_name VARCHAR(10), " ..
             "w_ytd DECIMAL(12,2))")
   con:query("CREATE TABLE item (i_id INT PRIMARY KEY, i_name VARCHAR(24), " ..
             "i_price DECIMAL(5,2))")
   con:query("CREATE TABLE district (d_w_id INT, d_id INT, d_ytd DECIMAL(12,2), " ..
             "d_next_o_id INT, PRIMARY KEY (d_w_id, d_id)" ..
             fk("FOREIGN KEY (d_w_id) REFERENCES warehouse (w_id)") .. ")")
   con:query("CREATE TABLE customer (c_w_id INT, c_d_id INT, c_id INT, c_last VARCHAR(16), " ..
             "c_balance DECIMAL(12,2), c_ytd_payment DECIMAL(12,2), " ..
             "PRIMARY KEY (c_w_id, c_d_id, c_id)" ..
             fk("FOREIGN KEY (c_w_id, c_d_id) REFERENCES district (d_w_id, d_id)") .. ")")
   con:query("CREATE TABLE stock (s_w_id INT, s_i_id INT, s_quantity INT, " ..
             "PRIMARY KEY (s_w_id, s_i_id)" ..
             fk("FOREIGN KEY (s_w_id) REFERENCES warehouse (w_id)") ..
             fk("FOREIGN KEY (s_i_id) REFERENCES item (i_id)") .. ")")
   con:query("CREATE TABLE history (h_w_id INT, h_d_id INT, h_c_id INT, " ..
             "h_amount DECIMAL(6,2), h_date TIMESTAMP NULL" ..
             fk("FOREIGN KEY (h_w_id, h_d_id, h_c_id) REFERENCES customer " ..
                "(c_w_id, c_d_id, c_id)") .. ")")
   con:query("CREATE TABLE orders (o_w_id INT, o_d_id INT, o_id INT, o_c_id INT, " ..
             "o_ol_cnt INT, o_entry_d TIMESTAMP NULL, PRIMARY KEY (o_w_id, o_d_id, o_id)" ..
             fk("FOREIGN KEY (o_w_id, o_d_id, o_c_id) REFERENCES customer " ..
                "(c_w_id, c_d_id, c_id)") .. ")")
   con:query("CREATE TABLE new_order (no_w_id INT, no_d_id INT, no_o_id INT, " ..
             "PRIMARY KEY (no_w_id, no_d_id, no_o_id)" ..
             fk("FOREIGN KEY (no_w_id, no_d_id, no_o_id) REFERENCES orders " ..
                "(o_w_id, o_d_id, o_id)") .. ")")
   con:query("CREATE TABLE order_line (ol_w_id INT, ol_d_id INT, ol_o_id INT, " ..
             "ol_number INT, ol_i_id INT, ol_quantity INT, ol_amount DECIMAL(8,2), " ..
             "PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)" ..
             fk("FOREIGN KEY (ol_w_id, ol_d_id, ol_o_id) REFERENCES orders " ..
                "(o_w_id, o_d_id, o_id)") .. ")")
   con:bulk_insert_init("INSERT INTO item (i_id, i_name, i_price) VALUES")
   for i = 1, ITEMS do
      con:bulk_insert_next(string.format("(%d, '%s', %.2f)", i,
         sysbench.rand.string("item-@@@@@"), 1 + sysbench.rand.uniform_double() * 99))
   end
   con:bulk_insert_done()
end

-- the number of rows a query's one value says, polled every 10 ms for up
-- to 30 s: how such kits wait for another thread's part of a prepare
local function wait_for(con, sql, want, what)
   for _ = 1, 3000 do
      local rs = con:query(sql)
      if rs.nrows == 1 and tonumber(rs:fetch_row()[1]) == want then return end
      ffi.C.usleep(10000)
   end
   error("gave up waiting for " .. what)
end

local function load_warehouse(con, w)
   print(string.format("loading warehouse %d", w))
   con:query(string.format("INSERT INTO warehouse VALUES (%d, '%s', 0)", w,
                           sysbench.rand.string("wh-@@@@")))
   con:bulk_insert_init("INSERT INTO district (d_w_id, d_id, d_ytd, d_next_o_id) VALUES")
   for d = 1, DISTRICTS do
      con:bulk_insert_next(string.format("(%d, %d, 0, 1)", w, d))
   end
   con:bulk_insert_done()
   con:bulk_insert_init("INSERT INTO customer VALUES")
   for d = 1, DISTRICTS do
      for c = 1, CUSTOMERS do
         con:bulk_insert_next(string.format("(%d, %d, %d, '%s', 0, 0)", w, d, c,
                                            sysbench.rand.string("name-@@@@")))
      end
   end
   con:bulk_insert_done()
   con:bulk_insert_init("INSERT INTO stock (s_w_id, s_i_id, s_quantity) VALUES")
   for i = 1, ITEMS do
      con:bulk_insert_next(string.format("(%d, %d, %d)", w, i, sysbench.rand.uniform(10, 100)))
   end
   con:bulk_insert_done()
end

-- Parallel: thread 0 makes the tables and the items, every thread then
-- loads its share of the warehouses (tid + 1, tid + 1 + threads, ...).
function cmd_prepare()
   local drv, con = kit_connect()
   if sysbench.tid == 0 then
      print("creating tables")
      create_tables(con)
   end
   local here = drv:name() == "mysql" and "database()" or "current_schema()"
   wait_for(con, string.format("SELECT count(*) FROM information_schema.tables " ..
                               "WHERE table_schema = %s AND table_name IN ('%s')", here,
                               table.concat(TABLES, "', '")), #TABLES, "the tables")
   wait_for(con, "SELECT count(*) FROM item", ITEMS, "the items")
   for w = sysbench.tid + 1, sysbench.opt.scale, sysbench.opt.threads do
      load_warehouse(con, w)
   end
   con:disconnect()
end

-- Parallel: each thread checks its warehouses.
function cmd_check()
   local drv, con = kit_connect()
   for w = sysbench.tid + 1, sysbench.opt.scale, sysbench.opt.threads do
      check_warehouse(con, w)
   end
   con:disconnect()
end

sysbench.cmdline.commands = {
   prepare = {cmd_prepare, sysbench.cmdline.PARALLEL_COMMAND},
   check = {cmd_check, sysbench.cmdline.PARALLEL_COMMAND},
}

function cleanup()
   local drv = sysbench.sql.driver()
   local con = drv:connect()
   for _, t in ipairs(TABLES) do
      print("dropping " .. t)
      con:query("DROP TABLE IF EXISTS " .. t)
   end
end
