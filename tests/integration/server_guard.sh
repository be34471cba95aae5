#!/bin/sh
# integration: alone
# SIGKILL of a sweep with a managed server mid-level leaves nothing behind:
# within 10 s no server process, no temporary directory and no cpuset cgroup
# of that sweep remains (a guardian process that outlives dbscale removes
# them). The same while the server is still being made, and SIGTERM
# then ends the sweep within a few seconds.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
chmod 755 "$work"
mkdir -m 755 "$work/tmp"
trap 'kill -9 $sweep 2>/dev/null; for d in "$work"/tmp/*/; do [ -e "$d/state" ] && "$DBSCALE" server stop --dir "$d" >/dev/null 2>&1; done; sleep 0.5; rmdir /sys/fs/cgroup/*/dbscale-$sweep 2>/dev/null; rm -rf "$work"' EXIT
method=affinity
[ "$(id -u)" = 0 ] && [ -d /sys/fs/cgroup/cpuset ] && method=cpuset
TMPDIR=$work/tmp "$DBSCALE" sweep oltp_point_select --db-driver=pgsql --server=managed \
    --cpu-method=$method --cpus=1 --threads=1 --repeats=1 --time=30 --tables=1 --table-size=100 \
    --out "$work/r" >"$work/out" 2>&1 &
sweep=$!
for i in $(seq 300); do
    grep -q "levels (" "$work/out" 2>/dev/null && break
    kill -0 $sweep 2>/dev/null || fail "the sweep ended early: $(cat "$work/out")"
    sleep 0.1
done
grep -q "levels (" "$work/out" || fail "the sweep did not reach its first level: $(cat "$work/out")"
srvdir=$(ls -d "$work"/tmp/dbscale-pgsql-* 2>/dev/null | head -1)
[ -n "$srvdir" ] || fail "no managed server directory under $work/tmp"
pid=$(sed -n 's/^pid=//p' "$srvdir/state")
[ -n "$pid" ] || fail "no server pid in $srvdir/state"
# mid-level: the level's point selects seen at the managed server (asked
# through its own state and password file), not a second's sleep
level_runs() {
    PGPASSFILE=$srvdir/pgpass psql -X -w -q -At -h 127.0.0.1 -p "$(sed -n 's/^port=//p' "$srvdir/state")" \
        -U "$(sed -n 's/^user=//p' "$srvdir/state")" -d "$(sed -n 's/^db=//p' "$srvdir/state")" \
        -c "SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid()
            AND query ~* '^select c from sbtest'" 2>/dev/null | grep -qx '[1-9][0-9]*'
}
for i in $(seq 300); do
    level_runs && break
    kill -0 $sweep 2>/dev/null || fail "the sweep ended early: $(cat "$work/out")"
    sleep 0.1
done
level_runs || fail "the level's statements never seen at the managed server: $(cat "$work/out")"
kill -9 $sweep
wait $sweep 2>/dev/null
left=
for i in $(seq 100); do
    left=
    [ -e "$srvdir" ] && left="$left dir"
    [ -r "/proc/$pid/stat" ] && [ "$(cut -d' ' -f3 "/proc/$pid/stat")" != Z ] && left="$left server"
    for cg in /sys/fs/cgroup/dbscale-$sweep /sys/fs/cgroup/*/dbscale-$sweep; do
        [ -d "$cg" ] && left="$left cgroup"
    done
    [ -z "$left" ] && break
    sleep 0.1
done
if [ -n "$left" ]; then
    kill -9 -- -"$pid" "$pid" 2>/dev/null # the EXIT trap removes the rest
    fail "10 s after SIGKILL of the sweep ($method), left behind:$left"
fi
echo "nothing left after SIGKILL ($method)"

# While the managed server is still being made (initdb, mariadb-install-db,
# its first start): SIGKILL leaves nothing (not its directory, nor the
# superuser's password in initdb.pw, nor initdb), and SIGTERM ends the
# sweep within a few seconds, the same way.
procs_of() { ps -eo args | grep -F "$1" | grep -vq grep; } # a process naming $1
creation() { # ENGINE SIGNAL
    d=$work/c-$1-$2
    mkdir -m 755 "$d"
    # the engine's own tools, not a template's copy (run-integration.sh)
    TMPDIR=$d DBSCALE_SERVER_CACHE= "$DBSCALE" sweep oltp_point_select --db-driver=$1 --threads=1 --repeats=1 --time=1 \
        --out "$d/r" >"$d/out" 2>&1 &
    sweep=$!
    srv=
    for i in $(seq 400); do
        srv=$(ls -d "$d"/dbscale-$1-* 2>/dev/null | head -1)
        [ -n "$srv" ] && break
        sleep 0.02
    done
    [ -n "$srv" ] || fail "$1: no server directory under $d: $(cat "$d/out")"
    [ -e "$srv/state" ] && fail "$1: the server was up before the signal: too slow to test"
    kill -$2 $sweep
    i=0
    while kill -0 $sweep 2>/dev/null; do
        i=$((i + 1))
        [ $i -lt 50 ] || fail "$1: the sweep still ran 5 s after SIG$2: $(cat "$d/out")"
        sleep 0.1
    done
    wait $sweep 2>/dev/null
    rc=$?
    [ "$2" = TERM ] && expect_eq "$1: exit after SIGTERM while the server was being made" $rc 143
    for i in $(seq 200); do
        [ -e "$srv" ] || procs_of "$srv" || break
        sleep 0.1
    done
    [ -e "$srv" ] && fail "$1: 20 s after SIG$2 during its creation the server's directory is left: $(ls -la "$srv")"
    procs_of "$srv" && fail "$1: a process of the half-made server is left: $(ps -eo pid,args | grep -F "$srv")"
    echo "$1: nothing left after SIG$2 while the server was being made"
}
creation pgsql KILL
creation pgsql TERM
if have_engine mysql; then
    creation mysql KILL
fi
