#!/bin/sh
# bench/timing.sh - the timings the integration tests only bound. A test
# asserts what cannot depend on the machine's speed (a window at least
# --time long, a paced run no faster than its rate, a stall at least the
# second that defines one); how far past those the figures land is measured
# here, on a quiet machine (make bench), never asserted:
#   window_past_time_ms      a built-in level's window past --time=2
#   lua_window_past_time_ms  a script's, with a thread_done sleeping 1.5 s
#   lua_events_window_s      a script's --events=200 window, same thread_done
#   ramp_s                   the ramp after a 1 s cold first event, 4 conns
#   warm_tps_after_ramp      what the 0.8 s window after that ramp counted
#   rate_ratio_builtin       tps / --rate=40, 4 connections, --time=TIME
#   rate_ratio_lua           tps / --rate=20, a script, --time=TIME
#   rate_ratio_lua_empty     tps / --rate=100, an event without a query
#   stall_minus_freeze_ms    a 1.5 s freeze's reported stall less the freeze
#   server_start_s, server_stop_s   a throwaway PostgreSQL's (template warm)
# Each as the median and range of REPEATS runs. $1: the dbscale binary.
#   REPEATS=5 TIME=5 sh bench/timing.sh build/dbscale
set -u
DBSCALE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
REPEATS=${REPEATS:-5}
TIME=${TIME:-5}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/server.sh"
work=$(mktemp -d /tmp/dbscale-bench-timing-XXXXXX)
chmod 755 "$work"
trap 'thaw; bench_server_stop; rm -rf "$work"' EXIT
DBSCALE_SERVER_CACHE=$work/cache
export DBSCALE_SERVER_CACHE

num() { sed -n "s/.*\"$1\": \([0-9.e+-]*\).*/\1/p" "$2" | head -n 1; }
now() { date +%s.%N; }
# put NAME VALUE: one measurement
put() { echo "$2" >>"$work/fig.$1"; }
# the server's processes, stopped and resumed (a freeze of known length)
spids() { echo "$spid"; pgrep -P "$spid"; }
freeze() { for p in $(spids); do kill -STOP "$p" 2>/dev/null; done; }
thaw() { [ -n "${spid:-}" ] && for p in $(spids); do kill -CONT "$p" 2>/dev/null; done; return 0; }

bench_server pgsql || exit 1
spid=$(sed -n 's/^pid=//p' "$DIR/state")
C="$conn --tables=1 --table-size=1000"
"$DBSCALE" prepare oltp_point_select $C >/dev/null || exit 1
cat >"$work/slowdone.lua" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
function thread_done() os.execute("sleep 1.5"); con:disconnect() end
LUA
cat >"$work/cold.lua" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect(); cold = true end
function event()
   if cold then cold = false; con:query("SELECT pg_sleep(1)") else con:query("SELECT 1") end
end
LUA
printf 'function thread_init() con = sysbench.sql.driver():connect() end\nfunction event() con:query("SELECT 1") end\n' \
    >"$work/one.lua"
printf 'function event() end\n' >"$work/empty.lua"

i=0
while [ $i -lt "$REPEATS" ]; do
    i=$((i + 1))
    j=$work/j
    "$DBSCALE" run oltp_point_select $C --threads=4 --time=2 --output=json >"$j" &&
        put window_past_time_ms "$(echo "($(num time_s "$j") - 2) * 1000" | bc)"
    "$DBSCALE" "$work/slowdone.lua" $conn --threads=2 --time=2 --output=json run >"$j" 2>/dev/null &&
        put lua_window_past_time_ms "$(echo "($(num time_s "$j") - 2) * 1000" | bc)"
    "$DBSCALE" "$work/slowdone.lua" $conn --threads=2 --events=200 --time=0 --output=json run >"$j" 2>/dev/null &&
        put lua_events_window_s "$(num time_s "$j")"
    if "$DBSCALE" "$work/cold.lua" $conn --threads=4 --time=0.8 --output=json run >"$j" 2>/dev/null; then
        put ramp_s "$(num ramp_s "$j")"
        put warm_tps_after_ramp "$(num tps "$j")"
    fi
    "$DBSCALE" run oltp_point_select $C --threads=4 --time="$TIME" --rate=40 --output=json >"$j" &&
        put rate_ratio_builtin "$(echo "$(num tps "$j") / 40" | bc -l)"
    "$DBSCALE" "$work/one.lua" $conn --threads=2 --time="$TIME" --rate=20 --output=json run >"$j" 2>/dev/null &&
        put rate_ratio_lua "$(echo "$(num tps "$j") / 20" | bc -l)"
    "$DBSCALE" "$work/empty.lua" $conn --threads=1 --time="$TIME" --rate=100 --output=json run >"$j" 2>/dev/null &&
        put rate_ratio_lua_empty "$(echo "$(num tps "$j") / 100" | bc -l)"
    # a 1.5 s freeze inside a 4 s level, timed here around the signals
    "$DBSCALE" run oltp_point_select $C --threads=4 --time=4 --output=json >"$j" &
    r=$!
    sleep 1
    t0=$(now)
    freeze
    sleep 1.5
    thaw
    t1=$(now)
    if wait $r; then
        st=$(sed -n 's/.*"disturbed_why": "stall \([0-9.]*\)s.*/\1/p' "$j")
        [ -n "$st" ] && put stall_minus_freeze_ms "$(echo "($st - ($t1 - $t0)) * 1000" | bc)"
    fi
    # a throwaway server's start (from the warm template) and stop
    d=$work/srv$i
    t0=$(now)
    if "$DBSCALE" server start pgsql --dir "$d" >/dev/null 2>&1; then
        t1=$(now)
        "$DBSCALE" server stop --dir "$d" >/dev/null 2>&1
        t2=$(now)
        put server_start_s "$(echo "$t1 - $t0" | bc)"
        put server_stop_s "$(echo "$t2 - $t1" | bc)"
    fi
done

printf '%-26s %12s %26s %s\n' figure median "min .. max" runs
for f in window_past_time_ms lua_window_past_time_ms lua_events_window_s ramp_s warm_tps_after_ramp \
    rate_ratio_builtin rate_ratio_lua rate_ratio_lua_empty stall_minus_freeze_ms server_start_s \
    server_stop_s; do
    [ -s "$work/fig.$f" ] || { printf '%-26s %12s\n' "$f" "(no run)"; continue; }
    sort -g "$work/fig.$f" | awk -v f="$f" '{ v[NR] = $1 }
        END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "%-26s %12.3f %12.3f .. %-11.3f %d\n", f, m, v[1], v[NR], NR }'
done
