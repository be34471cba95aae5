-- kit_check.lua - the kit's consistency checks, one warehouse at a time
-- (kit_common.lua's check command): each prints PASSED or FAILED.

require("kit_common")

local function count(con, sql)
   local rs = con:query(sql)
   local n = 0
   for _ = 1, rs.nrows do n = n + tonumber(rs:fetch_row()[1]) end
   return n
end

local function report(n, w, ok)
   print(string.format("Check %d, warehouse %d: %s", n, w, ok and "PASSED" or "FAILED"))
end

function check_warehouse(con, w)
   -- 1: the warehouse's payments are its districts' payments
   report(1, w, count(con, string.format(
      "SELECT count(*) FROM warehouse WHERE w_id = %d AND w_ytd <> " ..
      "(SELECT sum(d_ytd) FROM district WHERE d_w_id = %d)", w, w)) == 0)
   -- 2: each district's next order id follows its last order
   report(2, w, count(con, string.format(
      "SELECT count(*) FROM district WHERE d_w_id = %d AND d_next_o_id - 1 <> " ..
      "(SELECT coalesce(max(o_id), 0) FROM orders WHERE o_w_id = d_w_id AND o_d_id = d_id)",
      w)) == 0)
   -- 3: every order has the lines it says
   report(3, w, count(con, string.format(
      "SELECT count(*) FROM orders WHERE o_w_id = %d AND o_ol_cnt <> (SELECT count(*) " ..
      "FROM order_line WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id)", w)) == 0)
   -- 4: the history's amounts are the customers' payments
   report(4, w, count(con, string.format(
      "SELECT count(*) FROM customer WHERE c_w_id = %d AND c_ytd_payment <> " ..
      "(SELECT coalesce(sum(h_amount), 0) FROM history WHERE h_w_id = c_w_id " ..
      "AND h_d_id = c_d_id AND h_c_id = c_id)", w)) == 0)
end
