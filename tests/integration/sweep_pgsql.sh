#!/bin/sh
# integration: alone
# dbscale sweep on real PostgreSQL: a short sweep with cpus=1,all writes
# complete results (rows, labels, metadata); while the 1-CPU part runs every
# server task reads Cpus_allowed_list 0 in /proc; SIGINT keeps the finished
# levels, exits 130 and removes the throwaway server.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
ncpu=$(nproc)
work=$(mktemp -d)
at_exit 'rm -rf "$work"'

# 1. external server, cpus=1 then all; sample the mask during the 1-CPU part
start_server pgsql
out=$work/r1
"$DBSCALE" sweep oltp_point_select $SERVER_OPTS --server=external --prepare=on \
    --cpus=1,all --threads=1,2 --repeats=1 --time=1.5 --tables=1 --table-size=1000 \
    --out "$out" >"$work/log1" 2>&1 &
sweep=$!
# wait for the first level to be under way, then read every server task's mask
i=0
while [ $i -lt 100 ] && ! grep -q "levels" "$work/log1"; do sleep 0.1; i=$((i + 1)); done
# sample until the server is seen held (a loaded machine holds it late) or
# the all-CPUs part has a level done (its progress line says cpus=N)
masks=
while kill -0 $sweep 2>/dev/null && { [ "$ncpu" -eq 1 ] || ! grep -q "cpus=$ncpu " "$work/log1"; }; do
    masks=$(server_task_masks)
    [ "$masks" = 0 ] && break
    sleep 0.05
done
wait $sweep || fail "sweep failed: $(cat "$work/log1")"
expect_eq "server tasks' CPUs during the 1-CPU part" "$masks" 0
rows=$(tail -n +2 "$out/results.csv" | wc -l)
k=$((ncpu > 1 ? 2 : 1))
expect_eq "results rows (cpu counts x threads)" "$rows" $((k * 2))
head -1 "$out/results.csv" | grep -q '^engine,workload,variant,cpus,threads,repeat,' ||
    fail "results.csv header: $(head -1 "$out/results.csv")"
grep -q '^pgsql,oltp_point_select,smp-k1,1,1,1,' "$out/results.csv" ||
    fail "no smp-k1 row: $(cat "$out/results.csv")"
if [ "$ncpu" -gt 1 ]; then
    grep -q "^pgsql,oltp_point_select,smp-k$ncpu,$ncpu,2,1," "$out/results.csv" ||
        fail "no smp-k$ncpu row: $(cat "$out/results.csv")"
fi
for key in dbscale_version git_commit kernel cmdline cpu_model cpus_online server_version \
    shared_buffers max_connections started ended options; do
    grep -q "\"$key\"" "$out/meta.json" || fail "meta.json lacks $key"
done
grep -q '"ended": ""' "$out/meta.json" && fail "meta.json has no end time"
grep -qi password "$out/meta.json" "$out/results.csv" && fail "a password field reached the results"
# after the sweep the server has every CPU again
masks=$(for p in $(server_all_pids); do sed -n 's/^Cpus_allowed_list:\s*//p' /proc/$p/status; done | sort -u)
expect_eq "server CPUs after the sweep" "$masks" "$(cat /sys/devices/system/cpu/online)"
grep -q "peak" "$work/log1" || fail "no summary table: $(cat "$work/log1")"

# 1b. the cpuset method (a cgroup) and the client on the CPUs the server lacks.
# Whether this machine has a cpuset controller is read here, from
# mountinfo (a v1 cgroup mount with the cpuset option, or cgroup2 listing
# cpuset): where it has one, a failed cpuset sweep is a failure, whatever it says.
cpuset_here() {
    awk '{ for (i = 1; i <= NF && $i != "-"; i++) ; fs = $(i + 1); opts = $(i + 3)
           if (fs == "cgroup" && ("," opts ",") ~ /,cpuset,/) ok = 1
           if (fs == "cgroup2") print $5 "/cgroup.controllers" }
         END { if (ok) print "v1" }' /proc/self/mountinfo |
        while read -r f; do
            [ "$f" = v1 ] && { echo yes; break; }
            grep -qw cpuset "$f" 2>/dev/null && { echo yes; break; }
        done
}
if [ "$ncpu" -lt 2 ]; then
    skip_env_part "one CPU: no cpuset sweep with the client beside the server"
elif [ "$(id -u)" -ne 0 ]; then
    skip_env_part "not root: no cpuset sweep"
elif [ -z "$(cpuset_here)" ]; then
    skip_env_part "no cpuset cgroup controller mounted: no cpuset sweep"
else
    out=$work/r1b
    "$DBSCALE" sweep oltp_point_select $SERVER_OPTS --server=external --cpu-method=cpuset \
        --client-cpus=rest --cpus=1 --threads=2 --repeats=1 --time=2 --tables=1 \
        --table-size=1000 --out "$out" >"$work/log1b" 2>&1 &
    sweep=$!
    i=0
    while [ $i -lt 100 ] && ! grep -q "levels" "$work/log1b"; do sleep 0.1; i=$((i + 1)); done
    # sample while the sweep runs (a loaded machine moves the server late):
    # the server must be seen on CPU 0 alone, in dbscale's cgroup
    masks= cg=
    while kill -0 $sweep 2>/dev/null; do
        m=$(server_task_masks)
        c=$(grep -h cpuset "/proc/$SERVER_PID/cgroup" | sed 's/.*://')
        masks="$m" cg="$c"
        [ "$m" = 0 ] && case $c in *dbscale*) break ;; esac
        sleep 0.1
    done
    wait $sweep
    rc=$?
    [ $rc -eq 0 ] || fail "cpuset sweep failed: $(cat "$work/log1b")"
    expect_eq "server CPUs under the cpuset method" "$masks" 0
    case $cg in *dbscale*) ;; *) fail "server was not in a dbscale cgroup: '$cg'" ;; esac
    tail4=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { r = $c["client_cpus"] "," $c["server_cpus"] "," $c["shared_cpus"] } END { print r }' \
        "$out/results.csv")
    rest=1
    [ "$ncpu" -gt 2 ] && rest="1-$((ncpu - 1))"
    expect_eq "client/server CPUs and sharing with --client-cpus=rest" "$tail4" "$rest,0,0"
    cgafter=$(grep -h cpuset "/proc/$SERVER_PID/cgroup" | sed 's/.*://')
    case $cgafter in *dbscale*) fail "server still in the dbscale cgroup after the sweep" ;; esac
fi
stop_server

# 2. managed server, SIGINT after the first finished level
out=$work/r2
"$DBSCALE" sweep oltp_point_select --db-driver=pgsql --threads=1,2,4,8 --repeats=3 --time=1 \
    --tables=1 --table-size=1000 --out "$out" >"$work/log2" 2>&1 &
sweep=$!
i=0
while [ $i -lt 300 ] && ! [ -s "$out/results.csv" ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$out/results.csv" ] || { kill $sweep; fail "no level finished: $(cat "$work/log2")"; }
# the managed server: the sweep's postgres child, its processes and directory
pm=$(ps -o pid=,comm= --ppid $sweep | awk '$2 ~ /postgres/ { print $1 }' | head -n 1)
[ -n "$pm" ] || { kill $sweep; fail "no managed postmaster under the sweep (pid $sweep)"; }
spids="$pm $(ps -o pid= --ppid "$pm" | tr -d ' ')"
sdir=$(tr '\0' '\n' <"/proc/$pm/cmdline" | sed -n '/^-D$/{n;p}' | sed 's,/data/*$,,')
[ -d "$sdir" ] || { kill $sweep; fail "the managed server's directory '$sdir' (from its -D)"; }
kill -INT $sweep
wait $sweep
rc=$?
expect_eq "exit code after SIGINT" $rc 130
rows=$(tail -n +2 "$out/results.csv" | wc -l)
[ "$rows" -ge 1 ] && [ "$rows" -lt 12 ] || fail "kept $rows rows after SIGINT"
grep -q "interrupted" "$work/log2" || fail "no interrupt message: $(cat "$work/log2")"
# the managed server goes on the way out: none of its processes is left
# (polled: the postmaster's children end just after it), nor its directory
alive_pids() {
    for p in $spids; do
        st=$(ps -o stat= -p "$p" 2>/dev/null) || continue
        case $st in Z*) ;; *) echo "$p" ;; esac
    done
}
i=0
while left=$(alive_pids); [ -n "$left" ] && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
expect_eq "managed server processes left (of $spids)" "$left" ""
[ -e "$sdir" ] && fail "the managed server's directory $sdir is left"
echo "sweep ok: masks verified, $rows level(s) kept after SIGINT"
