#!/bin/sh
# integration: long
# dbscale-mpi faults, against a real throwaway PostgreSQL: a rank that cannot
# connect fails the whole run before the level, naming its rank and host; one
# that leaves early does not leave the others waiting; a
# rank SIGKILLed mid-level ends the job non-zero within 30 s, with no rank
# process and no connection of theirs left behind, and one SIGSTOPped is
# given up by rank 0, named, and the job ended. The same for `sweep`: a
# rank that cannot connect fails it before the first level, naming its host;
# a rank SIGKILLed mid-level ends it non-zero within 30 s with the finished
# levels on disk, the managed server gone and no rank process left.
. "$(dirname "$0")/lib.sh" "$1"
need_tool mpirun openmpi-bin
MPI_BIN=$(dirname "$DBSCALE")/dbscale-mpi
[ -x "$MPI_BIN" ] || fail "$MPI_BIN missing: make builds it when mpicc (libopenmpi-dev) is installed"
MPIRUN="mpirun --allow-run-as-root --oversubscribe"

# pg_stat_statements: a statement counter that moves at once (xact_commit
# is flushed a second late), to tell a level under way
start_server pgsql --conf shared_preload_libraries=pg_stat_statements
common="--db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-user=$SERVER_USER --pgsql-db=$SERVER_DB --tables=1 --table-size=1000"
ok "$DBSCALE" prepare oltp_read_only $common --pgsql-port="$SERVER_PORT"

rank_conns() {
    pg_sql "SELECT count(*) FROM pg_stat_activity WHERE application_name LIKE 'dbscale-rank-%'"
}
# into_level N COUNTER_FN WHAT: the level is under way: its connections have
# run more than N statements since now (N = twice the connections: past the
# ramp's first transaction each and any straggler). The server's counter,
# not a sleep: a loaded machine takes its time.
into_level() {
    _c0=$($2)
    _i=0
    while [ $(($($2) - _c0)) -le "$1" ]; do
        _i=$((_i + 1))
        [ $_i -lt 300 ] || fail "$3: no transactions at the server 30 s into the level: $(cat "$log")"
        kill -0 $job 2>/dev/null || fail "$3: mpirun ended early: $(cat "$log")"
        sleep 0.1
    done
}

# 1. rank 2 is given a port nothing listens on (an MPMD launch: its own
# command line), as a client host that cannot reach the server would be
log=$(mktemp)
if timeout 60 $MPIRUN -n 2 "$MPI_BIN" run oltp_read_only $common --pgsql-port="$SERVER_PORT" --threads=7 --time=30 \
    : -n 1 "$MPI_BIN" run oltp_read_only $common --pgsql-port=1 --threads=7 --time=30 >"$log" 2>&1; then
    fail "a rank that cannot connect: the run succeeded: $(cat "$log")"
fi
grep -q "rank 2 on $(hostname)" "$log" || fail "no 'rank 2 on $(hostname)' in: $(cat "$log")"
grep -q "Threads started" "$log" && fail "the level started although rank 2 had no connection: $(cat "$log")"
echo "unreachable rank: $(grep 'rank 2 on' "$log" | head -n 1)"

# 2. rank 2 refuses its command line and leaves before any collective: the
# others must not wait for it for ever (timeout's 124 would say they did)
timeout 60 $MPIRUN -n 2 "$MPI_BIN" run oltp_read_only $common --pgsql-port="$SERVER_PORT" --threads=7 \
    --time=30 : -n 1 "$MPI_BIN" run oltp_read_only $common --pgsql-port="$SERVER_PORT" --threads=7 \
    --time=30 --no-such-option >"$log" 2>&1
rc=$?
[ $rc -ne 0 ] || fail "a rank with a bad command line: the run succeeded: $(cat "$log")"
[ $rc -ne 124 ] || fail "a rank left early and the others hung (killed by timeout after 60 s)"
grep -q "Threads started" "$log" && fail "the level started without rank 2: $(cat "$log")"
echo "rank that left early: job ended, exit $rc"

# 3. a split every rank refuses (2 connections over 3 ranks): the job fails
# and rank 0's reason reaches the user (an abort could kill it unprinted)
if timeout 60 $MPIRUN -n 3 "$MPI_BIN" run oltp_read_only $common --pgsql-port="$SERVER_PORT" \
    --threads=2 --time=5 >"$log" 2>&1; then
    fail "--threads=2 over 3 ranks succeeded: $(cat "$log")"
fi
grep -q -- "--threads=2 over 3 ranks" "$log" || fail "refused split, no reason given: $(cat "$log")"

# 3b. run --report-interval is refused with the reason (lines as they happen
# would need MPI traffic in the window); the sweep keeps them instead
timeout 60 $MPIRUN -n 2 "$MPI_BIN" run oltp_read_only $common --pgsql-port="$SERVER_PORT" \
    --threads=2 --time=5 --report-interval=1 >"$log" 2>&1 && fail "run --report-interval succeeded"
grep -q "intervals.csv" "$log" || fail "run --report-interval: no reason given: $(cat "$log")"

# hold_then_rank1 N WHAT [running]: once the ranks of $job hold N
# connections (the level has begun: its connections are opened for it) and,
# with "running", run statements on them (past the ramp; for a long level
# only: a short one may end while a loaded machine looks), $ranks are its
# rank processes and $victim rank 1's
hold_then_rank1() {
    i=0
    while [ "$(rank_conns)" != "$1" ]; do
        i=$((i + 1))
        [ $i -lt 100 ] || fail "$2: the ranks never held $1 connections: $(cat "$log")"
        kill -0 $job 2>/dev/null || fail "$2: mpirun ended early: $(cat "$log")"
        sleep 0.2
    done
    [ "${3:-}" != running ] || into_level $(($1 * 2)) server_statements "$2"
    ranks=$(ps -o pid= --ppid $job | tr -d ' ')
    victim=""
    for p in $ranks; do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$p
    done
    [ -n "$victim" ] || fail "$2: no rank 1 among mpirun's children ($ranks)"
}

# 4. SIGKILL rank 1 once every rank holds its connections
$MPIRUN -n 3 "$MPI_BIN" run oltp_read_only $common --pgsql-port="$SERVER_PORT" --threads=7 --time=60 \
    >"$log" 2>&1 &
job=$!
hold_then_rank1 7 "4" running
kill -KILL "$victim"
i=0
while kill -0 $job 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 60 ]; then
        kill -KILL $job $ranks 2>/dev/null
        fail "mpirun still running 30 s after rank 1 was killed"
    fi
    sleep 0.5
done
wait $job && fail "the job exited 0 after rank 1 was killed: $(cat "$log")"
# a zombie is dead: mpirun may leave a killed job's ranks to init to reap
alive() {
    st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
    case $st in Z*) return 1 ;; esac
    return 0
}
for p in $ranks; do
    alive "$p" && fail "rank process $p left running: $(ps -o pid,ppid,stat,args -p "$p")"
done
i=0
while [ "$(rank_conns)" != 0 ]; do
    i=$((i + 1))
    [ $i -lt 50 ] || fail "$(rank_conns) rank connections left at the server"
    sleep 0.2
done
grep -q "rank 1" "$log" || fail "mpirun did not name rank 1: $(cat "$log")"
echo "killed rank: job ended non-zero, no rank process or connection left"

# 4b. run: rank 1 stops answering (SIGSTOP) in the level: mpirun sees nothing
# die, so rank 0 gives up on it after DBSCALE_MPI_HANG_S, names it and ends
# the job (it waited for ever)
DBSCALE_MPI_HANG_S=2 $MPIRUN -n 3 "$MPI_BIN" run oltp_read_only $common --pgsql-port="$SERVER_PORT" \
    --threads=6 --time=2.5 >"$log" 2>&1 &
job=$!
hold_then_rank1 6 "4b"
kill -STOP "$victim"
i=0
while kill -0 $job 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 60 ]; then
        kill -CONT "$victim"
        kill -KILL $job $ranks 2>/dev/null
        fail "4b: mpirun still running 30 s after rank 1 stopped answering: $(cat "$log")"
    fi
    sleep 0.5
done
wait $job && fail "4b: the job exited 0 with rank 1 stopped: $(cat "$log")"
grep -q "rank 1 on $(hostname) sent no result" "$log" || fail "4b: rank 0 did not name the silent rank: $(cat "$log")"
for p in $ranks; do
    alive "$p" && { kill -CONT "$p"; fail "4b: rank process $p left: $(ps -o pid,ppid,stat,args -p "$p")"; }
done
echo "run, silent rank: $(grep -o 'rank 1 on [^ ]* sent no result[^;]*' "$log" | head -n 1)"

# 5. sweep: rank 2 cannot reach the server; no level may start
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
if timeout 60 $MPIRUN -n 2 "$MPI_BIN" sweep oltp_read_only $common --pgsql-port="$SERVER_PORT" \
    --server=external --cpus=all --threads=3 --repeats=1 --time=5 --out "$work/s5" \
    : -n 1 "$MPI_BIN" sweep oltp_read_only $common --pgsql-port=1 --server=external --cpus=all \
    --threads=3 --repeats=1 --time=5 --out "$work/s5" >"$log" 2>&1; then
    fail "sweep with a rank that cannot connect succeeded: $(cat "$log")"
fi
grep -q "rank 2 on $(hostname)" "$log" || fail "sweep: no 'rank 2 on $(hostname)' in: $(cat "$log")"
grep -q '^\[1/' "$log" && fail "sweep: a level ran although rank 2 had no connection: $(cat "$log")"
echo "sweep, unreachable rank: $(grep 'rank 2 on' "$log" | head -n 1)"

# level2 DIR WHAT: the managed server in DIR holds the second level's 6
# rank connections: the second level has begun (level 1 had 3). Not more:
# its 3 s may be over before a loaded machine sees its statements.
msrv_sql() {
    PGPASSFILE=$1/pgpass psql -X -w -q -At -h 127.0.0.1 -p "$(sed -n 's/^port=//p' "$1/state")" \
        -U "$(sed -n 's/^user=//p' "$1/state")" -d "$(sed -n 's/^db=//p' "$1/state")" -c "$2"
}
level2() {
    _i=0
    while [ "$(msrv_sql "$1" "SELECT count(*) FROM pg_stat_activity
                WHERE application_name LIKE 'dbscale-rank-%'")" != 6 ]; do
        _i=$((_i + 1))
        [ $_i -lt 300 ] || fail "$2: the second level's 6 connections never seen: $(cat "$log")"
        kill -0 $job 2>/dev/null || fail "$2: mpirun ended early: $(cat "$log")"
        sleep 0.1
    done
}

# 6. sweep with a managed server: SIGKILL rank 1 in the second level
TMPDIR=$work/tmp
mkdir -p "$TMPDIR"
chmod 0755 "$work" "$TMPDIR" # the server runs as postgres
export TMPDIR
$MPIRUN -n 3 "$MPI_BIN" sweep oltp_point_select --db-driver=pgsql --cpus=all --threads=3,6 \
    --repeats=1 --time=3 --warmup-time=0 --tables=1 --table-size=1000 --report=off \
    --out "$work/s6" >"$log" 2>&1 &
job=$!
i=0
until [ -s "$work/s6/results.csv" ] && [ "$(wc -l <"$work/s6/results.csv")" -gt 1 ]; do
    i=$((i + 1))
    [ $i -lt 300 ] || { kill $job; fail "sweep: the first level never finished: $(cat "$log")"; }
    kill -0 $job 2>/dev/null || fail "sweep ended early: $(cat "$log")"
    sleep 0.2
done
unset TMPDIR
srvdir=$(ls -d "$work"/tmp/dbscale-pgsql-* 2>/dev/null | head -n 1)
[ -n "$srvdir" ] || fail "sweep: no managed server directory under $work/tmp"
pm=$(sed -n 's/^pid=//p' "$srvdir/state")
[ -n "$pm" ] || fail "sweep: no pid in $srvdir/state: $(cat "$srvdir/state")"
# into the second level: its 6 connections held at the managed server, and
# transactions on them
level2 "$srvdir" "sweep"
ranks=$(ps -o pid= --ppid $job | tr -d ' ')
victim=""
for p in $ranks; do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$p
done
[ -n "$victim" ] || fail "sweep: no rank 1 among mpirun's children ($ranks)"
kill -KILL "$victim"
i=0
while kill -0 $job 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 60 ]; then
        kill -KILL $job $ranks 2>/dev/null
        fail "sweep: mpirun still running 30 s after rank 1 was killed"
    fi
    sleep 0.5
done
wait $job && fail "sweep: the job exited 0 after rank 1 was killed: $(cat "$log")"
for p in $ranks; do
    alive "$p" && fail "sweep: rank process $p left running: $(ps -o pid,ppid,stat,args -p "$p")"
done
i=0
while alive "$pm"; do
    i=$((i + 1))
    [ $i -lt 50 ] || fail "sweep: the managed server (pid $pm) outlived the job"
    sleep 0.2
done
R=$(head -1 "$work/s6/results.csv" | tr ',' '\n' | grep -nx rank | cut -d: -f1)
kept=$(awk -F, -v r="$R" 'NR > 1 && $r == ""' "$work/s6/results.csv" | wc -l)
expect_eq "sweep: finished levels kept after the kill" "$kept" 1
grep -q "rank 1" "$log" || fail "sweep: mpirun did not name rank 1: $(cat "$log")"
echo "sweep, killed rank: job ended non-zero, level 1 kept, server and ranks gone"

# 7. sweep: rank 1 stops answering (SIGSTOP) in the second level; mpirun
# sees nothing die, so rank 0 must give up on it (after DBSCALE_MPI_HANG_S),
# name it, keep level 1, stop its server and end the job
TMPDIR=$work/tmp7
mkdir -p "$TMPDIR"
chmod 0755 "$TMPDIR"
export TMPDIR
DBSCALE_MPI_HANG_S=3 $MPIRUN -n 3 "$MPI_BIN" sweep oltp_point_select --db-driver=pgsql --cpus=all \
    --threads=3,6 --repeats=1 --time=3 --warmup-time=0 --tables=1 --table-size=1000 \
    --report=off --out "$work/s7" >"$log" 2>&1 &
job=$!
i=0
until [ -s "$work/s7/results.csv" ] && [ "$(wc -l <"$work/s7/results.csv")" -gt 1 ]; do
    i=$((i + 1))
    [ $i -lt 300 ] || { kill $job; fail "sweep 7: the first level never finished: $(cat "$log")"; }
    kill -0 $job 2>/dev/null || fail "sweep 7 ended early: $(cat "$log")"
    sleep 0.2
done
unset TMPDIR
srvdir=$(ls -d "$work"/tmp7/dbscale-pgsql-* 2>/dev/null | head -n 1)
[ -n "$srvdir" ] || fail "sweep 7: no managed server directory under $work/tmp7"
pm=$(sed -n 's/^pid=//p' "$srvdir/state")
[ -n "$pm" ] || fail "sweep 7: no pid in $srvdir/state: $(cat "$srvdir/state")"
level2 "$srvdir" "sweep 7"
ranks=$(ps -o pid= --ppid $job | tr -d ' ')
victim=""
for p in $ranks; do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' && victim=$p
done
[ -n "$victim" ] || fail "sweep 7: no rank 1 among mpirun's children ($ranks)"
kill -STOP "$victim"
i=0
while kill -0 $job 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 60 ]; then
        kill -KILL $job $ranks 2>/dev/null
        fail "sweep 7: mpirun still running 30 s after rank 1 stopped answering: $(cat "$log")"
    fi
    sleep 0.5
done
wait $job && fail "sweep 7: the job exited 0 with rank 1 stopped: $(cat "$log")"
grep -q "rank 1 on $(hostname) sent no result" "$log" ||
    fail "sweep 7: rank 0 did not name the silent rank: $(cat "$log")"
for p in $ranks; do
    alive "$p" && fail "sweep 7: rank process $p left: $(ps -o pid,ppid,stat,args -p "$p")"
done
! alive "$pm" || fail "sweep 7: the managed server (pid $pm) outlived the job"
kept=$(awk -F, -v r="$R" 'NR > 1 && $r == ""' "$work/s7/results.csv" | wc -l)
expect_eq "sweep 7: finished levels kept" "$kept" 1
echo "sweep, silent rank: $(grep -o 'rank 1 on [^ ]* sent no result[^)]*)' "$log" | head -n 1)"
rm -f "$log"
