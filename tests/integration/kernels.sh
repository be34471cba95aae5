#!/bin/sh
# integration: alone
# dbscale kernels: Debian's kernel booted under qemu (TCG: no KVM here) as an
# SMP boot on 2 vCPUs and a boot with nr_cpus=1, each running one short
# PostgreSQL point-select sweep (1 CPU and all) with getppid1 as its kernel
# baseline. The rows come back labelled (booted-with-one-CPU against SMP,
# tcg, release, pinning) and the page shows both variants with the pairwise
# relative-% tables and the SMP sentences under an emulator banner. Also:
# bad input refused before any boot (exit 2); a boot variant that panics at
# once marked failed in bounded time with its console kept, then SIGINT
# during the next boot (exit 130, no qemu left); SIGKILL of dbscale mid-boot
# (no qemu left).
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
command -v qemu-system-x86_64 >/dev/null || skip "qemu not installed (apt-get install qemu-system-x86)"
K=$(ls -t /boot/vmlinuz-* 2>/dev/null | head -n 1)
[ -n "$K" ] || skip "no kernel in /boot (apt-get install linux-image-amd64)"
busybox >/dev/null 2>&1 || skip "busybox not installed (apt-get install busybox-static)"
# the guests copy the host's PostgreSQL template (DBSCALE_SERVER_CACHE, which
# run-integration.sh sets) instead of running initdb under TCG (10 s or more
# a boot): one start here makes it if no earlier test did
[ -z "${DBSCALE_SERVER_CACHE:-}" ] || { start_server pgsql >/dev/null && stop_server; }
work=$(mktemp -d)
at_exit 'pkill -KILL -f "name dbscale-kt" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"'
qemus() { pgrep -f "qemu-system-x86_64 -name dbscale-$1" | wc -l; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

# 1. bad input: exit 2 naming it, before anything boots or any directory is made
bad() {
    want=$1
    shift
    out=$("$DBSCALE" kernels --out "$work/bad" "$@" 2>&1)
    rc=$?
    expect_eq "exit of kernels $*" $rc 2
    echo "$out" | grep -q -- "$want" || fail "kernels $*: no '$want' in: $out"
    [ ! -e "$work/bad" ] || fail "kernels $*: made $work/bad before refusing"
}
bad "/nonexistent/bzImage" --kernel /nonexistent/bzImage -- micro getppid1
bad "not an x86 kernel image" --kernel "$DBSCALE" -- micro getppid1
bad "--boot 'up'" --kernel "$K" --boot up -- micro getppid1
bad "cannot be in a kernel parameter" --kernel "$K" --boot 'up=nr_cpus=1;reboot' -- micro getppid1
bad "vm-overcommit" --kernel "$K" --vm-cpus=999 -- micro getppid1
bad "accel" --kernel "$K" --accel=xen -- micro getppid1
bad "sweep, micro or fs" --kernel "$K" -- run oltp_read_only
bad "own results directory" --kernel "$K" -- micro getppid1 --out=/tmp/x
bad "no command" --kernel "$K"
printf '[study]\nkernel = %s\nboot = up=nr_cpus=1\nboot = smp=\nboot = bad\ncommand = micro getppid1\n' "$K" >"$work/k.ini"
bad "--boot 'bad'" --config "$work/k.ini"
printf 'kernel = /nonexistent/vmlinuz\ncommand = micro getppid1\n' >"$work/k.ini"
bad "/nonexistent/vmlinuz" --config "$work/k.ini"

# 2. the study: an SMP boot and a boot with one CPU
out=$work/k
start=$(date +%s)
"$DBSCALE" kernels --kernel "6.1=$K" --boot smp= --boot up=nr_cpus=1 --vm-cpus=2 --accel=tcg \
    --vm-timeout=120 --out "$out" -- sweep oltp_point_select --db-driver=pgsql --cpus=1,all \
    --threads=1 --time=1 --repeats=1 --tables=1 --table-size=100 --baseline=getppid1 \
    >"$work/log" 2>&1
rc=$?
secs=$(($(date +%s) - start))
cat "$work/log"
expect_eq "exit of the study" $rc 0
expect_eq "qemu left after the study" "$(qemus 6.1)" 0
st=$(json "$out/kernels.json" "' '.join(r['variant']+'='+r['status'] for r in d['runs'])")
expect_eq "runs" "$st" "6.1.smp=ok 6.1.up=ok"
expect_eq "accel" "$(json "$out/kernels.json" "d['guest']['accel']")" tcg
# every variant labelled by its own guest's kernel.json
kj() { json "$out/6.1.$1/kernel.json" "d['$2']"; }
release=$(kj smp release)
case $K in *"$release"*) ;; *) fail "release '$release' is not $K's" ;; esac
expect_eq "smp boot" "$(kj smp boot)" smp
expect_eq "smp CPUs online" "$(kj smp ncpus_online)" 2
expect_eq "up boot" "$(kj up boot)" booted
expect_eq "up why" "$(kj up boot_why)" nr_cpus=1
expect_eq "up CPUs online" "$(kj up ncpus_online)" 1
expect_eq "virt" "$(kj up virt)" tcg
expect_eq "pinning" "$(kj smp pinning)" "0:0,1:1"
expect_eq "image hash" "$(kj up image_sha256)" "$(sha256sum "$K" | cut -d' ' -f1)"
# the rows: SMP held to 1 CPU and on 2; UP on its one
expect_eq "smp rows" "$(cut -d, -f3,4 "$out/6.1.smp/results.csv" | sed 1d | sort | tr '\n' ' ')" \
    "smp-k1,1 smp-k2,2 "
expect_eq "up rows" "$(cut -d, -f3,4 "$out/6.1.up/results.csv" | sed 1d | tr '\n' ' ')" "up,1 "
grep -q "^getppid1," "$out/6.1.up/micro.csv" || fail "no kernel baseline in the up boot"
# the page
page=$out/report.html
for want in 'id="emulated"' 'id="kernel-variants"' 'id="kernel-relative-db"' \
    'id="kernel-relative-micro"' '<th>AvB</th>' 'SMP on one CPU' 'booted with one CPU (nr_cpus=1)' \
    '6.1.smp' '6.1.up'; do
    grep -q "$want" "$page" || fail "report.html lacks $want"
done
# the same page from `report` of the study directory, and of the two variants
ok "$DBSCALE" report "$out" --out "$work/again.html"
grep -q 'class="smp-cost"' "$work/again.html" || fail "report of the study has no SMP sentence"
ok "$DBSCALE" report "$out/6.1.smp" "$out/6.1.up" --out "$work/pair.html"
grep -q 'class="smp-peak"' "$work/pair.html" || fail "report of the two dirs has no SMP sentence"
echo "study of 2 boots: $secs s"

# 3. a boot that panics at once is marked failed, its console kept; then
# SIGINT during the next boot: exit 130, no qemu left, the first boot kept
"$DBSCALE" kernels --kernel "kt=$K" --boot panic=rdinit=/dbscale-no-such-init --boot a= \
    --vm-cpus=1 --accel=tcg --vm-timeout=120 --out "$work/int" -- micro getppid1 --tasks=1 \
    --samples=2 >"$work/int.log" 2>&1 &
pid=$!
i=0
while [ $i -lt 600 ] && ! grep -q "kt.a, repeat 1: booting" "$work/int.log"; do
    sleep 0.2
    i=$((i + 1))
done
grep -q "kt.a, repeat 1: booting" "$work/int.log" || { kill -KILL $pid; fail "never reached the second boot: $(cat "$work/int.log")"; }
sleep 1
kill -INT $pid
wait $pid
rc=$?
cat "$work/int.log"
expect_eq "exit after SIGINT" $rc 130
sleep 0.5
expect_eq "qemu left after SIGINT" "$(qemus kt)" 0
st=$(json "$work/int/kernels.json" "' '.join(r['status'] for r in d['runs'])")
expect_eq "runs after SIGINT" "$st" "failed stopped"
why=$(json "$work/int/kernels.json" "d['runs'][0]['why']")
echo "$why" | grep -q "Kernel panic" || fail "the panic's why: $why"
psecs=$(json "$work/int/kernels.json" "int(d['runs'][0]['seconds'])")
[ "$psecs" -lt 100 ] || fail "the panicking boot took $psecs s"
grep -q "Kernel panic" "$work/int/console/kt.panic.r1.log" || fail "no console kept for the panic"

# 4. SIGKILL of dbscale while a guest boots: qemu goes with it
"$DBSCALE" kernels --kernel "kt=$K" --vm-cpus=1 --accel=tcg --out "$work/kill" -- \
    micro getppid1 >"$work/kill.log" 2>&1 &
pid=$!
i=0
while [ $i -lt 100 ] && [ "$(qemus kt)" -eq 0 ]; do sleep 0.1; i=$((i + 1)); done
[ "$(qemus kt)" -eq 1 ] || fail "no qemu started: $(cat "$work/kill.log")"
kill -KILL $pid
wait $pid 2>/dev/null
i=0
while [ $i -lt 50 ] && [ "$(qemus kt)" -ne 0 ]; do sleep 0.1; i=$((i + 1)); done
expect_eq "qemu left after SIGKILL of dbscale" "$(qemus kt)" 0
echo "kernels: ok"
