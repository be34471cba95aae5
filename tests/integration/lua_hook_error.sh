#!/bin/sh
# An error inside before_restart_event ends the run with its message, as in
# sysbench (whose thread_run calls the hook outside its pcall), even when
# the error is one sql_error_ignorable accepts: it must not restart the
# event, and the hook, over and over until the time is up.
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
cat >"$work/hook.lua" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect() end
local n = 0
function event()
   n = n + 1
   if n == 5 then con:query("SELECT 1/0") end
   con:query("SELECT 1")
end
function sysbench.hooks.sql_error_ignorable(e) return true end
function sysbench.hooks.before_restart_event(e)
   hooks = (hooks or 0) + 1
   con:query("SELECT * FROM no_such_table")
end
LUA
rc=0
"$DBSCALE" "$work/hook.lua" $SERVER_OPTS --threads=1 --time=3 run >"$work/out" 2>&1 || rc=$?
[ $rc = 0 ] && fail "the run went on after the hook failed: $(grep -E 'transactions|ignored' "$work/out")"
grep -q 'no_such_table' "$work/out" || fail "the hook's error is not named: $(cat "$work/out")"
echo "lua_hook_error: exit $rc, $(grep 'no_such_table' "$work/out" | head -n 1)"
