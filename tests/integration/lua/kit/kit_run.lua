-- kit_run.lua - the kit's transactions (kit_common.lua says what the kit
-- is). Each one is BEGIN ... COMMIT on the connection thread_init made; a
-- new order that names a missing item rolls back and counts an error
-- through sb_counter_inc, as such kits do.

require("kit_common")

local function num(v) return tonumber(v) end

function new_order()
   local w = sysbench.rand.uniform(1, sysbench.opt.scale)
   local d = sysbench.rand.uniform(1, DISTRICTS)
   local c = sysbench.rand.uniform(1, CUSTOMERS)
   local lines = sysbench.rand.uniform(2, 6)
   local bad = sysbench.rand.uniform(1, 100) <= sysbench.opt.rollback_pct
   con:query("BEGIN")
   local next_id = num(con:query_row(string.format(
      "SELECT d_next_o_id FROM district WHERE d_w_id = %d AND d_id = %d FOR UPDATE", w, d)))
   con:query(string.format("UPDATE district SET d_next_o_id = %d WHERE d_w_id = %d AND d_id = %d",
                           next_id + 1, w, d))
   con:query(string.format("INSERT INTO orders VALUES (%d, %d, %d, %d, %d, NOW())",
                           w, d, next_id, c, lines))
   con:query(string.format("INSERT INTO new_order VALUES (%d, %d, %d)", w, d, next_id))
   for n = 1, lines do
      local item = (bad and n == lines) and ITEMS + 1 or sysbench.rand.uniform(1, ITEMS)
      local qty = sysbench.rand.uniform(1, 10)
      local rs = con:query(string.format("SELECT i_price FROM item WHERE i_id = %d", item))
      if rs.nrows == 0 then
         ffi.C.sb_counter_inc(sysbench.tid, ffi.C.SB_CNT_ERROR)
         con:query("ROLLBACK")
         return
      end
      local price = num(rs:fetch_row()[1])
      local have = num(con:query_row(string.format(
         "SELECT s_quantity FROM stock WHERE s_w_id = %d AND s_i_id = %d FOR UPDATE", w, item)))
      have = have > qty and have - qty or have - qty + 91
      con:query(string.format("UPDATE stock SET s_quantity = %d WHERE s_w_id = %d AND s_i_id = %d",
                              have, w, item))
      con:query(string.format("INSERT INTO order_line VALUES (%d, %d, %d, %d, %d, %d, %.2f)",
                              w, d, next_id, n, item, qty, qty * price))
   end
   con:query("COMMIT")
end

function payment()
   local w = sysbench.rand.uniform(1, sysbench.opt.scale)
   local d = sysbench.rand.uniform(1, DISTRICTS)
   local c = sysbench.rand.uniform(1, CUSTOMERS)
   local amount = sysbench.rand.uniform(1, 5000)
   con:query("BEGIN")
   con:query(string.format("UPDATE warehouse SET w_ytd = w_ytd + %d WHERE w_id = %d", amount, w))
   con:query(string.format("UPDATE district SET d_ytd = d_ytd + %d WHERE d_w_id = %d AND d_id = %d",
                           amount, w, d))
   local balance, paid = con:query_row(string.format(
      "SELECT c_balance, c_ytd_payment FROM customer WHERE c_w_id = %d AND c_d_id = %d " ..
      "AND c_id = %d FOR UPDATE", w, d, c))
   con:query(string.format("UPDATE customer SET c_balance = %.2f, c_ytd_payment = %.2f " ..
                           "WHERE c_w_id = %d AND c_d_id = %d AND c_id = %d",
                           num(balance) - amount, num(paid) + amount, w, d, c))
   con:query(string.format("INSERT INTO history VALUES (%d, %d, %d, %d, NOW())", w, d, c, amount))
   con:query("COMMIT")
end

function order_status()
   local w = sysbench.rand.uniform(1, sysbench.opt.scale)
   local d = sysbench.rand.uniform(1, DISTRICTS)
   local c = sysbench.rand.uniform(1, CUSTOMERS)
   con:query("BEGIN")
   local rs = con:query(string.format(
      "SELECT o_id, o_ol_cnt FROM orders WHERE o_w_id = %d AND o_d_id = %d AND o_c_id = %d " ..
      "ORDER BY o_id DESC", w, d, c))
   for _ = 1, rs.nrows do
      local row = rs:fetch_row()
      assert(num(row[2]) >= 2, "an order without its lines")
   end
   con:query("COMMIT")
end
