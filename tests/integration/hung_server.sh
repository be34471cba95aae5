#!/bin/sh
# integration: long
# A hung server (SIGSTOPped) cannot hold `run` past its --time, nor past a
# SIGINT: the replies missing at the deadline are given up, counted as
# unfinished and the level is flagged disturbed (a stall). A transaction far
# longer than --time is cut off the same way, (pgsql) a reconnect to a hung
# server cannot hold a SIGINT, and a sweep ends too. Both engines.
. "$(dirname "$0")/lib.sh" "$1"
work=$(mktemp -d)

# the server's processes: postgres forks a backend per connection
server_pids() {
    echo "$SERVER_PID"
    ps -o pid= --ppid "$SERVER_PID" 2>/dev/null
}
freeze() { for p in $(server_pids); do kill -STOP "$p" 2>/dev/null; done; }
thaw() { for p in $(server_pids); do kill -CONT "$p" 2>/dev/null; done; }
cleanup() {
    [ -n "${SERVER_PID:-}" ] && thaw
    rm -rf "$work"
    stop_server
}

# conns PID: PID's TCP connections to the server, "RECVQ LOCALPORT" each
conns() {
    ss -Htnp "( dport = :$SERVER_PORT )" 2>/dev/null |
        awk -v p="pid=$1," 'index($0, p) && $1 == "ESTAB" { n = split($4, a, ":"); print $2, a[n] }'
}

# waits_on_server PID N: each of PID's N connections waits for the (frozen)
# server: every thread of PID sleeps and none of the connections has a reply
# left to read (a reply sent just before the freeze is read first, and its
# connection then sends its next statement into the frozen server)
waits_on_server() {
    for st in /proc/"$1"/task/*/stat; do
        [ "$(sed 's/.*) //' "$st" | cut -d' ' -f1)" = S ] || return 1
    done
    c=$(conns "$1")
    [ "$(echo "$c" | grep -c .)" = "$2" ] && ! echo "$c" | grep -qv '^0 '
}

# until_true WHAT CMD...: poll CMD (30 s at most)
until_true() {
    _w=$1
    shift
    _i=0
    until "$@"; do
        _i=$((_i + 1))
        [ $_i -lt 300 ] || { thaw; fail "$ENGINE: $_w: not seen in 30 s"; }
        sleep 0.1
    done
}

# wait_max PID SECONDS: the process's exit code, or fail (after cleaning up)
wait_max() {
    i=0
    while kill -0 "$1" 2>/dev/null && [ $i -lt $(($2 * 10)) ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if kill -0 "$1" 2>/dev/null; then
        thaw
        kill -KILL "$1"
        fail "$ENGINE: dbscale still running ${2}s later: $(tail -5 "$work/out")"
    fi
    wait "$1"
}

one_engine() {
    ENGINE=$1
    if [ "$ENGINE" = pgsql ]; then
        start_server pgsql --conf shared_preload_libraries=pg_stat_statements
    else
        start_server mysql
    fi
    trap cleanup EXIT
    C="$SERVER_OPTS --tables=1 --table-size=1000"
    ok "$DBSCALE" prepare oltp_point_select $C

    # 1. stopped inside a 2 s level: the run ends on time, flagged (a stall);
    # frozen once the level runs (past the ramp's statement a connection)
    base=$(server_statements)
    "$DBSCALE" run oltp_point_select $C --threads=4 --time=2 >"$work/out" 2>&1 &
    pid=$!
    wait_statements "$base" 12 $pid "$ENGINE: the 2 s level"
    freeze
    wait_max $pid 8
    rc=$?
    thaw
    expect_eq "$ENGINE: exit of a run whose server hung" $rc 0
    grep -q "unfinished txns (given up): *4" "$work/out" ||
        fail "$ENGINE: no unfinished count: $(tail -12 "$work/out")"
    grep -q "level disturbed: .*stall" "$work/out" || fail "$ENGINE: not flagged: $(tail -12 "$work/out")"

    # 2. SIGINT while the server hangs, long before --time would end the level
    base=$(server_statements)
    "$DBSCALE" run oltp_point_select $C --threads=2 --time=60 >"$work/out" 2>&1 &
    pid=$!
    wait_statements "$base" 6 $pid "$ENGINE: the 60 s level"
    freeze
    until_true "both connections waiting on the frozen server" waits_on_server $pid 2
    kill -INT $pid
    wait_max $pid 4
    rc=$?
    thaw
    expect_eq "$ENGINE: exit after SIGINT with the server hung" $rc 130
    grep -q "unfinished txns (given up): *2" "$work/out" ||
        fail "$ENGINE: no unfinished count after SIGINT: $(tail -12 "$work/out")"

    # 3. a transaction much longer than --time is cut off at the deadline
    # (the window opens after the ramp: --ramp-timeout, as none ever ends)
    "$DBSCALE" run oltp_read_only $C --threads=2 --time=1 --ramp-timeout=1 --point-selects=1000000 \
        --simple-ranges=0 --sum-ranges=0 --order-ranges=0 --distinct-ranges=0 >"$work/out" 2>&1 &
    pid=$!
    wait_max $pid 6
    rc=$?
    expect_eq "$ENGINE: exit of a run with endless transactions" $rc 0
    grep -q "unfinished txns (given up): *2" "$work/out" ||
        fail "$ENGINE: endless transactions not given up: $(tail -12 "$work/out")"
    # 4. a sweep whose server hangs still ends, every level on time (the
    # disturbed column of results.csv is filled by the sweep's side; the
    # sweep's own path is the same for both engines: pgsql only, for time)
    if [ "$ENGINE" = pgsql ]; then
        # (the second level waits out its ramp on the hung server: 2 s here, 10 by default)
        "$DBSCALE" sweep oltp_point_select $C --server=external --cpus=all --threads=2,3 --ramp-timeout=2 \
            --repeats=1 --time=1.5 --out "$work/r" >"$work/out" 2>&1 &
        pid=$!
        until_true "the sweep's plan" grep -q "levels" "$work/out"
        base=$(server_statements)
        wait_statements "$base" 6 $pid "$ENGINE: the sweep's first level"
        freeze
        wait_max $pid 25
        rc=$?
        thaw
        expect_eq "$ENGINE: exit of a sweep whose server hung ($(tail -3 "$work/out"))" $rc 0
        rows=$(tail -n +2 "$work/r/results.csv" | wc -l)
        expect_eq "$ENGINE: levels of the hung sweep ($(tail -3 "$work/out"))" "$rows" 2
        # a stalled level says so on its progress line, not only in results.csv
        grep -q '^\[[12]/2\] .* tps  DISTURBED: ' "$work/out" ||
            fail "$ENGINE: the stalled level looks normal on the console: $(grep '^\[' "$work/out")"
        rm -rf "$work/r"
    fi

    # 5. pgsql, last (killing backends sends it into recovery): the
    # backends die while the postmaster hangs, so the connections are lost
    # and every reconnect waits on a server that accepts but never answers;
    # a SIGINT must still end the run soon
    if [ "$ENGINE" = pgsql ]; then
        base=$(server_statements)
        "$DBSCALE" run oltp_point_select $C --threads=2 --time=60 >"$work/out" 2>&1 &
        pid=$!
        wait_statements "$base" 6 $pid "$ENGINE: the reconnect level"
        old=$(conns $pid | awk '{ print $2 }')
        kill -STOP "$SERVER_PID"
        for b in $(ps -o pid=,args= --ppid "$SERVER_PID" | awk '/sbtest sbtest/ { print $1 }'); do
            kill -KILL "$b"
        done
        # the loss seen: two connections again, new ones (the reconnects,
        # waiting on the hung postmaster), none of the old
        reconnecting() {
            now=$(conns $pid | awk '{ print $2 }')
            [ "$(echo "$now" | grep -c .)" = 2 ] || return 1
            for o in $old; do echo "$now" | grep -qx "$o" && return 1; done
            return 0
        }
        until_true "two reconnects under way" reconnecting
        kill -INT $pid
        wait_max $pid 4
        rc=$?
        thaw
        expect_eq "$ENGINE: exit after SIGINT while reconnecting to a hung server" $rc 130
        # both connections lost (and named by their SQLSTATE), none regained
        grep -Eq '^    codes seen: +08006 x2$' "$work/out" ||
            fail "$ENGINE: not two lost connections (08006): $(tail -12 "$work/out")"
        grep -Eq '^    level disturbed: +2 lost' "$work/out" ||
            fail "$ENGINE: the level not disturbed by 2 lost: $(tail -12 "$work/out")"
        grep -Eq '^    reconnects: +0 ' "$work/out" ||
            fail "$ENGINE: a reconnect to a hung server succeeded: $(tail -12 "$work/out")"
    fi
    stop_server
    echo "hung_server $ENGINE: a stopped server, a SIGINT and an endless transaction all end on time"
}

ran=0
for e in pgsql mysql; do
    if have_engine $e; then
        one_engine $e
        ran=1
    fi
done
rm -rf "$work"
[ $ran = 1 ] || skip "neither PostgreSQL nor MariaDB installed"
