#!/bin/sh
# integration: alone
# --cpu-method=hotplug takes CPUs offline for the 1-CPU part of a sweep and
# puts every one back however the sweep ends: SIGINT, SIGTERM, and SIGKILL
# (then a guardian process that outlives the sweep restores them).
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
[ "$(id -u)" -eq 0 ] || skip_env "hotplug needs root"
[ -w /sys/devices/system/cpu/cpu1/online ] || skip_env "no hot-pluggable cpu1 here"
want=$(cat /sys/devices/system/cpu/online)
work=$(mktemp -d)
restore() { echo 1 >/sys/devices/system/cpu/cpu1/online 2>/dev/null; rm -rf "$work"; }
at_exit restore # start_server would replace a trap of our own
start_server pgsql
ok "$DBSCALE" prepare oltp_point_select $SERVER_OPTS --tables=1 --table-size=1000

for sig in INT TERM KILL; do
    "$DBSCALE" sweep oltp_point_select $SERVER_OPTS --server=external --cpu-method=hotplug \
        --cpus=1 --threads=1,2 --repeats=5 --time=1 --tables=1 --table-size=1000 \
        --out "$work/$sig" >"$work/log" 2>&1 &
    pid=$!
    i=0 off=
    while [ $i -lt 100 ]; do
        [ "$(cat /sys/devices/system/cpu/online)" = 0 ] && { off=1; break; }
        grep -q "not allowed\|not safe" "$work/log" && break
        sleep 0.1
        i=$((i + 1))
    done
    if [ -z "$off" ]; then
        kill -KILL $pid 2>/dev/null
        grep -q "not allowed\|not safe" "$work/log" && skip_env "$(grep -m1 'not allowed\|not safe' "$work/log")"
        fail "cpu1 never went offline: $(cat "$work/log")"
    fi
    sleep 1.2
    kill -$sig $pid
    wait $pid 2>/dev/null
    i=0
    while [ $i -lt 50 ] && [ "$(cat /sys/devices/system/cpu/online)" != "$want" ]; do
        sleep 0.1
        i=$((i + 1))
    done
    expect_eq "online CPUs after SIG$sig" "$(cat /sys/devices/system/cpu/online)" "$want"
    if [ $sig != KILL ]; then
        rows=$(tail -n +2 "$work/$sig/results.csv" 2>/dev/null | wc -l)
        [ "$rows" -ge 1 ] || fail "SIG$sig: no finished level kept: $(cat "$work/log")"
    fi
    echo "SIG$sig: CPUs back ($want)"
done
