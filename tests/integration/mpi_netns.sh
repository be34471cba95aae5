#!/bin/sh
# dbscale-mpi sweep with its ranks really on different "hosts": each of 3
# ranks runs in a network namespace of its own (and a UTS namespace with its
# own hostname, client0..2), joined by a veth pair to a fourth namespace
# that holds the throwaway PostgreSQL and mpirun; Open MPI's daemons are
# started in the client namespaces through its rsh agent, as over ssh
# (addresses 10.231.N.0/30, made and removed by this test). The same sweep
# must work: 3/2/2 connections at the server, the ranks' hosts in the rank
# rows of results.csv and in meta.json, no process of the job left. Skips
# (77) only where the namespaces, veth pairs or socat cannot be had.
. "$(dirname "$0")/lib.sh" "$1"
need_tool mpirun openmpi-bin
MPI_BIN=$(dirname "$DBSCALE")/dbscale-mpi
[ -x "$MPI_BIN" ] || fail "$MPI_BIN missing: make builds it when mpicc (libopenmpi-dev) is installed"
need_engine pgsql
[ "$(id -u)" -eq 0 ] || skip_env "network namespaces need root"
need_tool ip iproute2
need_tool socat socat
need_tool unshare util-linux

REAL=$DBSCALE
tag=dm$$
work=$(mktemp -d)
[ -d "$work" ] || fail "mktemp -d failed"
chmod 0755 "$work"
fwd=""
cleanup() {
    [ -z "$fwd" ] || kill "$fwd" 2>/dev/null
    stop_server
    for n in srv r0 r1 r2; do ip netns del "$tag-$n" 2>/dev/null; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# the network: rank i's namespace has 10.231.i.1 on a veth whose peer,
# 10.231.i.2, is in the server's namespace, which routes between them
ip netns add "$tag-srv" 2>"$work/err" || skip_env "cannot make a network namespace: $(cat "$work/err")"
ip -n "$tag-srv" link set lo up
ip netns exec "$tag-srv" sysctl -qw net.ipv4.ip_forward=1
for i in 0 1 2; do
    ip netns add "$tag-r$i" || fail "ip netns add $tag-r$i"
    ip -n "$tag-r$i" link set lo up
    ip link add "${tag}c$i" netns "$tag-r$i" type veth peer name "${tag}s$i" netns "$tag-srv" \
        2>"$work/err" || skip_env "cannot make a veth pair: $(cat "$work/err")"
    ip -n "$tag-r$i" addr add "10.231.$i.1/30" dev "${tag}c$i"
    ip -n "$tag-srv" addr add "10.231.$i.2/30" dev "${tag}s$i"
    ip -n "$tag-r$i" link set "${tag}c$i" up
    ip -n "$tag-srv" link set "${tag}s$i" up
    ip -n "$tag-r$i" route add default via "10.231.$i.2"
done
ip netns exec "$tag-r0" unshare --uts true 2>"$work/err" ||
    skip_env "cannot make a UTS namespace: $(cat "$work/err")"

# Open MPI starts a daemon per host through its rsh agent, as it would
# over ssh; this agent starts it in host clientN's namespaces (network and
# hostname), so ranks reach their daemon on their own loopback, and
# daemons and ranks reach each other over the veth network
{
    echo '#!/bin/sh'
    echo 'while [ $# -gt 0 ]; do case $1 in -*) shift ;; *) break ;; esac; done'
    echo 'host=$1'
    echo 'shift'
    echo "exec ip netns exec $tag-r\${host#client} unshare --uts \\"
    echo '    sh -c '"'"'hostname "$0" && exec sh -c "$1"'"'"' "$host" "$*"'
} >"$work/agent"
chmod +x "$work/agent"

# the server in its namespace: lib.sh's start/stop run through this wrapper
printf '#!/bin/sh\nexec ip netns exec %s %s "$@"\n' "$tag-srv" "$REAL" >"$work/dbscale-srv"
chmod +x "$work/dbscale-srv"
DBSCALE=$work/dbscale-srv
start_server pgsql
trap cleanup EXIT # start_server set its own
# the throwaway server listens on its namespace's 127.0.0.1 only: a
# forwarder on 10.231.0.2 carries the ranks' connections to it
ip netns exec "$tag-srv" socat "TCP-LISTEN:$SERVER_PORT,bind=10.231.0.2,fork,reuseaddr" \
    "TCP:127.0.0.1:$SERVER_PORT" &
fwd=$!
printf '*:%s:*:%s:%s\n' "$SERVER_PORT" "$SERVER_USER" "$(server_password)" >"$work/pgpass"
chmod 0600 "$work/pgpass"
PGPASSFILE=$work/pgpass
export PGPASSFILE
i=0
until ip netns exec "$tag-r2" psql -X -w -q -At -h 10.231.0.2 -p "$SERVER_PORT" -U "$SERVER_USER" \
    -d "$SERVER_DB" -c 'SELECT 1' >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -lt 50 ] || fail "client2's namespace cannot reach the server at 10.231.0.2:$SERVER_PORT"
    sleep 0.1
done

out=$work/r
ip netns exec "$tag-srv" timeout 90 mpirun --allow-run-as-root --mca plm_rsh_agent "$work/agent" \
    --mca plm_rsh_no_tree_spawn 1 -x PGPASSFILE -H client0,client1,client2 -n 3 \
    "$MPI_BIN" sweep oltp_point_select --db-driver=pgsql --pgsql-host=10.231.0.2 \
    --pgsql-port="$SERVER_PORT" --pgsql-user="$SERVER_USER" --pgsql-db="$SERVER_DB" \
    --server=external --prepare=on --cpus=all --threads=7 --repeats=1 --time=2 \
    --warmup-time=0.5 --tables=1 --table-size=1000 --report=off --out "$out" >"$work/log" 2>&1 &
job=$!
seen="" i=0
while [ $i -lt 200 ] && kill -0 $job 2>/dev/null; do
    seen=$(ip netns exec "$tag-srv" psql -X -w -q -At -h 127.0.0.1 -p "$SERVER_PORT" \
        -U "$SERVER_USER" -d "$SERVER_DB" -c "SELECT application_name, count(*) FROM
        pg_stat_activity WHERE application_name LIKE 'dbscale-rank-%' GROUP BY 1" | tr '|' ' ' |
        awk '{n[$1]=$2} END {printf "%d %d %d", n["dbscale-rank-0"], n["dbscale-rank-1"], n["dbscale-rank-2"]}')
    [ "$seen" = "3 2 2" ] && break
    sleep 0.1
    i=$((i + 1))
done
wait $job || fail "the sweep over namespaces failed: $(cat "$work/log")"
sleep 0.5 # the daemons leave as mpirun ends
left=$(ps -eo pid=,args= | grep -F "$work/agent" | grep -v grep)
[ -z "$left" ] || fail "processes of the job left running: $left"
expect_eq "connections per rank at the server" "$seen" "3 2 2"
csv=$out/results.csv
H=$(head -1 "$csv" | tr ',' '\n' | grep -nx host | cut -d: -f1)
R=$(head -1 "$csv" | tr ',' '\n' | grep -nx rank | cut -d: -f1)
hosts=$(awk -F, -v h="$H" -v r="$R" 'NR > 1 && $r != "" {printf "%s ", $h}' "$csv")
expect_eq "rank rows' hosts" "$hosts" "client0 client1 client2 "
expect_eq "level rows" "$(awk -F, -v r="$R" 'NR > 1 && $r == ""' "$csv" | wc -l)" 1
for n in 0 1 2; do
    grep -q "\"client$n\"" "$out/meta.json" || fail "meta.json lacks host client$n: $(cat "$out/meta.json")"
done
echo "3 ranks in 3 namespaces (client0..2) through veth pairs: connections $seen"
