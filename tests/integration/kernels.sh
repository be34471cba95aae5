#!/bin/sh
# integration: long
# (in the shared part: qemu under TCG is two busy threads, as a loaded
# neighbour is; nothing here asserts on time but bounds of 120 s per boot
# that mean "it never happened", where a boot takes about 10 s alone)
# dbscale kernels, as a kernel developer uses it, under qemu (TCG: no KVM
# here). The kernel is a locally built one as far as dbscale can tell: a
# copy of Debian's image whose release is edited to end in '+' (as every
# kernel built from a tree with local changes does), its modules linked.
#  1. bad input refused (exit 2) before any boot or directory: a truncated
#     image, a release or label that names a path, a world-writable or
#     another user's cache, a study directory that is a link or another
#     user's; and every refusal leaves the directory byte for byte as it was
#     (a tree hash before and after), micro --out and sweep --append too.
#  2. an SMP boot on 2 vCPUs and an nr_cpus=1 boot, each a short PostgreSQL
#     point-select sweep: rows labelled by the guest's kernel.json, every row
#     carrying its boot id, the page with both variants and the SMP
#     sentences; the cache made 0700 under the test's own XDG_CACHE_HOME.
#  3. a boot that panics at once, marked failed with its console kept; a
#     hostile guest command (a Lua workload's top-level code, run as root in
#     the guest) that leaves a setuid shell, an executable, a device and
#     symlinks to host paths in its share, then kills its dbscale: nothing
#     setuid, executable or linked on the host, no host write redirected,
#     the next boot's console and script where they belong; then SIGINT
#     during that next boot (exit 130, no qemu left).
#  4. three boots of one variant (micro): the later boots complete and add
#     to its directory, its rows naming the two boots kernels.json recorded;
#     SIGKILL of dbscale during the third: no qemu left.
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
DBSCALE=$(cd "$(dirname "$DBSCALE")" && pwd)/$(basename "$DBSCALE") # used from $work too
work=$(mktemp -d)
XDG_CACHE_HOME=$work/cache
export XDG_CACHE_HOME
qemus() { pgrep -f "qemu-system-x86_64 -name dbscale-$1" | wc -l; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
# wait_for WHAT TENTHS CONDITION...: poll until the condition holds (a
# bound that means "it never happened", not a speed)
wait_for() {
    what=$1 n=$2
    shift 2
    i=0
    until "$@"; do
        [ $i -lt "$n" ] || fail "$what never happened"
        sleep 0.1
        i=$((i + 1))
    done
}
# a tree's hash: every path, type, mode, size, link target and content
tree() {
    (cd "$1" && find . -printf '%p %y %m %s %u %l\n' | LC_ALL=C sort &&
        find . -type f -exec sha256sum {} + | LC_ALL=C sort) | sha256sum | cut -d' ' -f1
}

# an image whose header's release is REL's edit (same length), as a copy of $K
rel=$(python3 -c "import sys,struct
d=open(sys.argv[1],'rb').read(); o=struct.unpack('<H',d[0x20e:0x210])[0]+0x200
print(d[o:o+64].split(b' ')[0].decode())" "$K")
edit() {
    python3 -c "import sys,struct
d=bytearray(open(sys.argv[1],'rb').read()); o=struct.unpack('<H',d[0x20e:0x210])[0]+0x200
old,new=sys.argv[3].encode(),sys.argv[4].encode(); assert len(old)==len(new)
assert d[o:o+len(old)]==old; d[o:o+len(new)]=new; open(sys.argv[2],'wb').write(d)" "$K" "$1" "$rel" "$2"
}
plus=$(echo "$rel" | sed 's/.$/+/')
KP=$work/vmlinuz-$plus
edit "$KP" "$plus"
# its modules: Debian's own, under the name its release gives
mods=
if [ ! -e "/lib/modules/$plus" ]; then
    ln -s "$rel" "/lib/modules/$plus" && mods=/lib/modules/$plus
fi
at_exit 'pkill -KILL -f "name dbscale-kt" 2>/dev/null; [ -z "$mods" ] || rm -f "$mods"
[ -n "${KEEP:-}" ] || { chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"; }'

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
bad "--boot 'up'" --kernel "$KP" --boot up -- micro getppid1
bad "cannot be in a kernel parameter" --kernel "$KP" --boot 'up=nr_cpus=1;reboot' -- micro getppid1
bad "vm-overcommit" --kernel "$KP" --vm-cpus=999 -- micro getppid1
bad "accel" --kernel "$KP" --accel=xen -- micro getppid1
bad "sweep, micro or fs" --kernel "$KP" -- run oltp_read_only
bad "own results directory" --kernel "$KP" -- micro getppid1 --out=/tmp/x
bad "no command" --kernel "$KP"
printf '[study]\nkernel = %s\nboot = up=nr_cpus=1\nboot = smp=\nboot = bad\ncommand = micro getppid1\n' "$KP" >"$work/k.ini"
bad "--boot 'bad'" --config "$work/k.ini"
printf 'kernel = /nonexistent/vmlinuz\ncommand = micro getppid1\n' >"$work/k.ini"
bad "/nonexistent/vmlinuz" --config "$work/k.ini"
# a copy cut short passes as a bzImage but would fail inside the guest
head -c 4000000 "$K" >"$work/cut"
bad "truncated" --kernel "$work/cut" -- micro getppid1
# a release or label that would name a path
edit "$work/slash" "$(echo "$rel" | sed 's|-|/|')"
bad "holds a character" --kernel "$work/slash" -- micro getppid1
bad "LABEL=IMAGE" --kernel "..=$KP" -- micro getppid1
bad "--boot '.x=" --kernel "$KP" --boot .x= -- micro getppid1
# a cache someone else could write: refused, nothing of it used
mkdir -m 0777 "$work/open" && chmod 0777 "$work/open"
(XDG_CACHE_HOME=$work/open && bad "not private" --kernel "$KP" -- micro getppid1) || exit 1
mkdir -p "$work/theirs/dbscale" && chmod 0700 "$work/theirs" && chown -R 65534 "$work/theirs/dbscale"
(XDG_CACHE_HOME=$work/theirs && bad "owned by uid 65534" --kernel "$KP" -- micro getppid1) || exit 1
# refusals leave their directory byte for byte
same() { expect_eq "$1 left $2 as it was" "$(tree "$2")" "$3"; }
mkdir -m 0755 "$work/foreign" && chown 65534 "$work/foreign"
h=$(tree "$work/foreign")
out=$("$DBSCALE" kernels --kernel "$KP" --out "$work/foreign" -- micro getppid1 2>&1)
expect_eq "exit for another user's --out" $? 2
echo "$out" | grep -q "owned by uid 65534" || fail "another user's --out: $out"
same "kernels --out (another user's)" "$work/foreign" "$h"
mkdir "$work/real" && ln -s real "$work/link"
h=$(tree "$work/real")
for cmd in "kernels --kernel $KP --out $work/link -- micro getppid1" \
    "micro getppid1 --samples=2 --out $work/link" \
    "sweep oltp_point_select --db-driver=pgsql --out $work/link --append"; do
    # shellcheck disable=SC2086
    out=$("$DBSCALE" $cmd 2>&1)
    expect_eq "exit of $cmd" $? 2
    echo "$out" | grep -q "symbolic link" || fail "$cmd: $out"
    same "$cmd" "$work/real" "$h"
done
# another kernel's (or boot's) directory: a sweep's and micro's refusal
ok "$DBSCALE" micro getppid1 --tasks=1 --samples=2 --warmup=0 --interval=0.05 --out "$work/other"
echo '{"dbscale_version": "x"}' >"$work/other/meta.json"
sed -i 's/"release": "[^"]*"/"release": "0.0.0-another"/' "$work/other/kernel.json"
h=$(tree "$work/other")
for cmd in "micro getppid1 --samples=2 --out $work/other" \
    "sweep oltp_point_select --db-driver=pgsql --out $work/other --append"; do
    # shellcheck disable=SC2086
    out=$("$DBSCALE" $cmd 2>&1)
    expect_eq "exit of $cmd" $? 2
    echo "$out" | grep -q "another kernel or boot" || fail "$cmd: $out"
    same "$cmd" "$work/other" "$h"
done

# 2. the study: an SMP boot and a boot with one CPU, of a kernel whose release has '+'
out=$work/k
"$DBSCALE" kernels --kernel "$KP" --boot smp= --boot up=nr_cpus=1 --vm-cpus=2 --accel=tcg \
    --vm-timeout=120 --out "$out" -- sweep oltp_point_select --db-driver=pgsql --cpus=1,all \
    --threads=1 --time=1 --repeats=1 --tables=1 --table-size=100 --baseline=getppid1 \
    >"$work/log" 2>&1
rc=$?
cat "$work/log"
expect_eq "exit of the study" $rc 0
expect_eq "qemu left after the study" "$(qemus "$plus")" 0
st=$(json "$out/kernels.json" "' '.join(r['variant']+'='+r['status'] for r in d['runs'])")
expect_eq "runs" "$st" "$plus.smp=ok $plus.up=ok"
expect_eq "accel" "$(json "$out/kernels.json" "d['guest']['accel']")" tcg
expect_eq "release" "$(json "$out/kernels.json" "d['kernels'][0]['release']")" "$plus"
expect_eq "share" "$(json "$out/kernels.json" "d['guest']['share']")" mapped-xattr
expect_eq "cache mode" "$(stat -c %a "$XDG_CACHE_HOME/dbscale")" 700
# every variant labelled by its own guest's kernel.json
kj() { json "$out/$plus.$1/kernel.json" "d['$2']"; }
expect_eq "guest release" "$(kj smp release)" "$rel" # the payload's own, unedited
expect_eq "smp boot" "$(kj smp boot)" smp
expect_eq "smp CPUs online" "$(kj smp ncpus_online)" 2
expect_eq "up boot" "$(kj up boot)" booted
expect_eq "up why" "$(kj up boot_why)" nr_cpus=1
expect_eq "up CPUs online" "$(kj up ncpus_online)" 1
expect_eq "virt" "$(kj up virt)" tcg
expect_eq "pinning" "$(kj smp pinning)" "0:0,1:1"
expect_eq "host's pinning" "$(json "$out/kernels.json" "d['guest']['pinning']")" "0:0,1:1"
expect_eq "image hash" "$(kj up image_sha256)" "$(sha256sum "$KP" | cut -d' ' -f1)"
# the rows: SMP held to 1 CPU and on 2; UP on its one; each names its boot
expect_eq "smp rows" "$(cut -d, -f3,4 "$out/$plus.smp/results.csv" | sed 1d | sort | tr '\n' ' ')" \
    "smp-k1,1 smp-k2,2 "
expect_eq "up rows" "$(cut -d, -f3,4 "$out/$plus.up/results.csv" | sed 1d | tr '\n' ' ')" "up,1 "
grep -q "^getppid1," "$out/$plus.up/micro.csv" || fail "no kernel baseline in the up boot"
for v in smp up; do
    id=$(json "$out/kernels.json" "[r['boot_id'] for r in d['runs'] if r['variant']=='$plus.$v'][0]")
    [ ${#id} -eq 36 ] || fail "$v: no boot id in kernels.json: '$id'"
    boots=$(python3 -c "import csv,sys; print(' '.join(sorted({r['boot'] for r in csv.DictReader(open(sys.argv[1]))})))" "$out/$plus.$v/results.csv")
    expect_eq "$v rows' boot" "$boots" "$id"
done
# the page
page=$out/report.html
# one boot a side: a sentence without an interval says so, never a bare
# "gains"; the host's record names the boots and the pinning
for want in 'id="emulated"' 'id="kernel-variants"' 'id="kernel-relative-db"' \
    'id="kernel-relative-micro"' '<th>AvB</th>' 'SMP on one CPU' 'booted with one CPU (nr_cpus=1)' \
    "$plus.smp" "$plus.up" 'id="kernel-host"' 'vCPU:host CPU 0:0,1:1' '<td>r1</td>' \
    'one point and fewer than two boots a side'; do
    grep -q "$want" "$page" || fail "report.html lacks $want"
done
# the same page from `report` of the study directory, and of the two variants
ok "$DBSCALE" report "$out" --out "$work/again.html"
grep -q 'class="smp-cost"' "$work/again.html" || fail "report of the study has no SMP sentence"
ok "$DBSCALE" report "$out/$plus.smp" "$out/$plus.up" --out "$work/pair.html"
grep -q 'class="smp-peak"' "$work/pair.html" || fail "report of the two dirs has no SMP sentence"
grep -q 'id="kernel-host"' "$work/pair.html" || fail "report of the two dirs lacks the host's record"

# 3. a boot that panics at once, a hostile guest command, then SIGINT during
# the next boot: exit 130, no qemu left, the first two boots kept
cat >"$work/hostile.lua" <<EOF
-- run at load, as root in the guest: plant what must never reach the host
-- (in the share, and where the host's own files were when all of OUT was)
os.execute([[
for d in /run/dbscale/out /run/dbscale; do
    cp /bin/sh \$d/suid-sh && chmod 4755 \$d/suid-sh
    touch \$d/exe && chmod 0755 \$d/exe
    mknod \$d/null c 1 3
    for n in kernel.json micro.csv kernels.json report.html; do
        rm -f \$d/\$n; ln -s $work/victim \$d/\$n
    done
    for n in console .vm; do
        rm -rf \$d/\$n; ln -s $work/victimdir \$d/\$n
    done
done
kill -KILL \$PPID]]) -- its dbscale: the boot fails, the study goes on
EOF
mkdir "$work/victimdir"
(cd "$work" && exec "$DBSCALE" kernels --kernel "kt=$KP" --boot panic=rdinit=/dbscale-no-such-init \
    --boot evil= --boot a= --vm-cpus=1 --accel=tcg --vm-timeout=120 --out "$work/int" -- \
    sweep hostile.lua --db-driver=pgsql >"$work/int.log" 2>&1) &
pid=$!
booting() { grep -q "kt.a, repeat 1: booting" "$work/int.log" && [ "$(qemus kt.a)" -ge 1 ]; }
wait_for "the third boot" 1200 booting
kill -INT $pid
wait $pid
rc=$?
cat "$work/int.log"
expect_eq "exit after SIGINT" $rc 130
none_left() { [ "$(qemus kt)" -eq 0 ]; }
wait_for "no qemu left after SIGINT" 50 none_left
st=$(json "$work/int/kernels.json" "' '.join(r['status'] for r in d['runs'])")
expect_eq "runs after SIGINT" "$st" "failed failed stopped"
why=$(json "$work/int/kernels.json" "d['runs'][0]['why']")
echo "$why" | grep -q "Kernel panic" || fail "the panic's why: $why"
# decided by the panic, not by the silence timeout (a hung boot)
psecs=$(json "$work/int/kernels.json" "int(d['runs'][0]['seconds'])")
[ "$psecs" -lt 120 ] || fail "the panicking boot ran into --vm-timeout ($psecs s)"
grep -q "Kernel panic" "$work/int/console/kt.panic.r1.log" || fail "no console kept for the panic"
why=$(json "$work/int/kernels.json" "d['runs'][1]['why']")
echo "$why" | grep -q "exited 137" || fail "the hostile boot's why: $why"
# what the guest planted is plain files on the host; nothing redirected
[ -z "$(find "$work/int" -type l)" ] || fail "links on the host: $(find "$work/int" -type l)"
[ -z "$(find "$work/int" -perm /6000)" ] || fail "setuid/setgid on the host: $(find "$work/int" -perm /6000)"
[ -z "$(find "$work/int" -type f -perm /111)" ] || fail "executables on the host: $(find "$work/int" -type f -perm /111)"
[ -z "$(find "$work/int" ! -type f ! -type d)" ] || fail "special files on the host"
[ ! -e "$work/victim" ] || fail "a host write went through the guest's link to $work/victim"
[ -z "$(ls -A "$work/victimdir")" ] || fail "host files went to the guest's link: $(ls -A "$work/victimdir")"
[ -f "$work/int/console/kt.a.r1.log" ] && [ -f "$work/int/.vm/kt.a.r1/run.sh" ] ||
    fail "the next boot's console or script is not in the study"
expect_eq "the planted kernel.json on the host" "$(cat "$work/int/kt.evil/kernel.json")" "$work/victim"

# 4. boots of one variant add to its directory, each row naming its boot;
# SIGKILL of dbscale during the third boot: qemu goes with it
"$DBSCALE" kernels --kernel "kt=$KP" --boot a= --repeats=3 --vm-cpus=1 --accel=tcg \
    --vm-timeout=120 --quiet --out "$work/rep" -- micro getppid1 --tasks=1 --samples=2 \
    --warmup=0 --interval=0.05 >"$work/rep.log" 2>&1 &
pid=$!
third() { grep -q "kt.a, repeat 3: booting" "$work/rep.log" && [ "$(qemus kt.a.r3)" -ge 1 ]; }
wait_for "the third boot" 1200 third
kill -KILL $pid
wait $pid 2>/dev/null
wait_for "no qemu left after SIGKILL of dbscale" 50 none_left
cat "$work/rep.log"
st=$(json "$work/rep/kernels.json" "' '.join(r['id']+'='+r['status'] for r in d['runs'])")
expect_eq "runs before SIGKILL" "$st" "kt.a.r1=ok kt.a.r2=ok kt.a.r3=not run"
want=$(json "$work/rep/kernels.json" "' '.join(sorted(r['boot_id'] for r in d['runs'][:2]))")
got=$(python3 -c "import csv,sys; print(' '.join(sorted({r['boot'] for r in csv.DictReader(open(sys.argv[1]))})))" "$work/rep/kt.a/micro.csv")
expect_eq "the rows' boots" "$got" "$want"
[ "$(echo "$got" | wc -w)" -eq 2 ] || fail "rows of $(echo "$got" | wc -w) boots, not 2"
echo "kernels: ok"
