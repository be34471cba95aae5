#!/bin/sh
# A scripted run's connections share event loops and take turns inside
# their events (lua/interleave.lua): on one loop, connection 0 waits for a
# lock connection 1 releases in its own event, and both ran on one thread.
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql
S=$(dirname "$0")/lua/interleave.lua
ok "$DBSCALE" "$S" $SERVER_OPTS prepare
out=$(mktemp)
timeout 60 "$DBSCALE" "$S" $SERVER_OPTS --threads=2 --client-loops=1 --time=1 \
    --output=json run >"$out" 2>&1 || fail "interleave run failed (or hung): $(cat "$out")"
rm -f "$out"
expect_eq "connection 0 got the lock connection 1 released" \
    "$(pg_sql "SELECT got_lock FROM lua_turns WHERE tid = 0")" 1
expect_eq "connections that finished" "$(pg_sql "SELECT count(*) FROM lua_turns WHERE events > 0")" 2
expect_eq "OS threads the two connections ran on" \
    "$(pg_sql "SELECT count(DISTINCT thr) FROM lua_turns")" 1
ok "$DBSCALE" "$S" $SERVER_OPTS cleanup

# an ignorable error inside a transaction: rolled back, the event restarted on
# the loop, the error counted by its code
dup=$(mktemp --suffix=.lua)
at_exit 'rm -f "$dup"'
cat >"$dup" <<'LUA'
function thread_init()
   con = sysbench.sql.driver():connect()
   con:query("CREATE TEMP TABLE d (i INT PRIMARY KEY)")
   con:query("INSERT INTO d VALUES (1)")
end
function event()
   con:query("BEGIN")
   if not tried then tried = true; con:query("INSERT INTO d VALUES (1)") end
   con:query("SELECT 1")
   con:query("COMMIT")
end
LUA
out=$("$DBSCALE" "$dup" $SERVER_OPTS --events=3 --time=0 --output=json run 2>&1) ||
    fail "duplicate-key run failed: $out"
case $out in *'"errors": 1,'*'"error_codes": {"23505": 1}'*) ;;
*) fail "want one error, counted as 23505: $out" ;; esac
case $out in *'"transactions": 3,'*) ;; *) fail "want 3 transactions: $out" ;; esac
# the aborted transaction was rolled back (else the restart's BEGIN fails):
# CREATE in thread_init, 4 BEGIN, 3 COMMIT and the ROLLBACK
case $out in *'"others": 9,'*) ;; *) fail "want 9 other statements: $out" ;; esac
# statements inside a script's own coroutine, which yields between them:
# the connection's fiber waits for each reply, the script's coroutine sees
# only its own yields (a yielding statement would have yielded it instead)
cor=$(mktemp --suffix=.lua)
at_exit 'rm -f "$cor"'
cat >"$cor" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect() end
function event()
   local co = coroutine.wrap(function()
      local v = con:query("SELECT 41 + 1"):fetch_row()[1]
      coroutine.yield(v)
      con:query("SELECT 2")
      return "done"
   end)
   local v = co()
   if v ~= "42" then error("the coroutine yielded " .. tostring(v)) end
   if co() ~= "done" then error("the coroutine did not finish") end
end
LUA
out=$(timeout 60 "$DBSCALE" "$cor" $SERVER_OPTS --threads=2 --client-loops=1 --events=20 --time=0 \
    --output=json run 2>&1) || fail "statements in a script's coroutine: $out"
case $out in *'"transactions": 20,'*'"reads": 40,'*) ;; *) fail "want 20 transactions, 40 reads: $out" ;; esac
# a script that closes one of its two connections while the other waits in
# the loop's epoll: the loop stops watching the other one only when the
# script moves to another socket, never by a socket number that closed
two=$(mktemp --suffix=.lua)
at_exit 'rm -f "$two"'
cat >"$two" <<'LUA'
function thread_init()
   a = sysbench.sql.driver():connect()
   b = sysbench.sql.driver():connect()
end
function event()
   a:query("SELECT 1")
   if b then b:disconnect(); b = nil end
   a:query("SELECT 3")
end
LUA
out=$(timeout 60 "$DBSCALE" "$two" $SERVER_OPTS --threads=2 --client-loops=1 --events=20 --time=0 \
    --output=json run 2>&1) || fail "a script that closes one of its connections: $out"
case $out in *'"transactions": 20,'*'"reads": 40,'*) ;; *) fail "want 20 transactions, 40 reads: $out" ;; esac
echo "lua_loop: two connections took turns on one loop thread; a restart counted by code;" \
    "statements inside a script's coroutine; a connection closed beside a watched one"
