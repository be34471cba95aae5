#!/bin/sh
# integration: alone
# Every per-level figure covers the same window: with a 3 s warmup before a
# 1 s window, the server's CPU in results.csv must be what it used in that
# second. Held to 1 CPU it cannot have used more than 1 CPU-second of it
# (a tick of slack), where warmup plus window would give it up to four.
# idle_pct is a share of the same window: 0..100. Then server CPU, client
# CPU and idle of a level are held between what the test reads (/proc, and
# the sweep's rusage) around the whole sweep and that less what lies
# outside the window.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql
out=$work/r
"$DBSCALE" sweep oltp_point_select $SERVER_OPTS --server=external --prepare=on --cpus=1 \
    --threads=2 --repeats=1 --warmup-time=3 --time=1 --tables=1 --table-size=1000 \
    --report=off --out "$out" >"$work/log" 2>&1 || fail "sweep failed: $(cat "$work/log")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { t = $col["time_s"]; s = $col["server_cpu_s"]; idle = $col["idle_pct"]
      printf "window %.3f s, server CPU %.3f s, idle %.1f%%\n", t, s, idle
      if (s <= 0) { print "no server CPU measured"; bad = 1 }
      if (s > t * 1 + 0.05) { print "server CPU exceeds the window on 1 CPU"; bad = 1 }
      if (idle < 0 || idle > 100) { print "idle outside 0..100"; bad = 1 } }
    END { exit bad }' "$out/results.csv" || fail "server CPU is not the window's: $(cat "$out/results.csv")"
echo "server CPU and idle cover the measured window"

# 2. The level's CPU figures against what this test reads around the whole
# sweep (tables already there, no warmup, one 3 s level): the server's CPU
# and the machine's idle from /proc, dbscale's own CPU from its rusage
# (/usr/bin/time): the window
# lies inside that bracket, so each figure is at most the bracket's, and at
# least the bracket's less what the time outside the window could hold
# (every CPU busy for all of it: ncpu x (wall - time_s)). Arithmetic on two
# readings, not a speed: a loaded machine moves both sides alike. Ticks are
# 1/HZ a process: a tick per process read of slack.
need_file /usr/bin/time time
HZ=$(getconf CLK_TCK)
ncpu=$(nproc)
# server_ticks: the server's CPU so far: the postmaster's own and its reaped
# children's (the level's backends, once they ended), its live children's
server_ticks() {
    t=$(sed 's/.*) //' "/proc/$SERVER_PID/stat" | awk '{ print $12 + $13 + $14 + $15 }')
    for c in $(ps -o pid= --ppid "$SERVER_PID"); do
        t=$((t + $(sed 's/.*) //' "/proc/$c/stat" 2>/dev/null | awk '{ print $12 + $13 }')))
    done
    echo "$t"
}
# the machine's idle (idle + iowait, as dbscale counts it) in ticks
idle_ticks() { awk '/^cpu / { print $5 + $6 }' /proc/stat; }
# until the sweep's backends are gone (reaped: their CPU in the postmaster's)
backends_gone() {
    i=0
    while [ "$(pg_sql "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid()
                AND backend_type = 'client backend'")" != 0 ]; do
        i=$((i + 1))
        [ $i -lt 100 ] || fail "the sweep's backends did not end"
        sleep 0.1
    done
}
out=$work/r2
backends_gone
s0=$(server_ticks) i0=$(idle_ticks) w0=$(date +%s.%N)
/usr/bin/time -f '%U %S' -o "$work/client" "$DBSCALE" sweep oltp_point_select $SERVER_OPTS \
    --server=external --cpus=all --threads=2 --repeats=1 --warmup-time=0 --time=3 --tables=1 \
    --table-size=1000 --report=off --out "$out" >"$work/log2" 2>&1 || fail "sweep 2 failed: $(cat "$work/log2")"
w1=$(date +%s.%N)
backends_gone
s1=$(server_ticks) i1=$(idle_ticks)
nproc_srv=$(($(ps -o pid= --ppid "$SERVER_PID" | wc -l) + 1))
awk -F, -v hz="$HZ" -v ncpu="$ncpu" -v wall="$(echo "$w1 - $w0" | bc)" -v ds=$((s1 - s0)) \
    -v di=$((i1 - i0)) -v np="$nproc_srv" -v cl="$(cat "$work/client")" '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { t = $col["time_s"]; out = ncpu * (wall - t); split(cl, c, " ")
      check("server CPU (s)", $col["server_cpu_s"], ds / hz, out, (np + 4) / hz)
      check("client CPU (s)", $col["client_cpu_s"], c[1] + c[2], out, 0.02)
      check("idle CPU-seconds", $col["idle_pct"] / 100 * ncpu * t, di / hz, out, ncpu * 2 / hz + ncpu * t * 0.01) }
    function check(what, got, br, outside, slack) {
        printf "%s: the window %.3f, /proc around the sweep %.3f (wall %.2f s, window %.2f s)\n", what, got, br, wall, t
        if (got > br + slack || got < br - outside - slack) {
            printf "%s: %.3f outside [%.3f, %.3f]\n", what, got, br - outside - slack, br + slack; bad = 1 } }
    END { exit bad }' "$out/results.csv" || fail "the level's CPU figures disagree with /proc"
