#!/bin/sh
# integration: alone
# CPU hotplug for real: the hotplug tests of test_cpuset (DBSCALE_TEST_HOTPLUG=1)
# take every CPU but 0 offline, in-process and from a child that is then
# killed by SIGKILL, SIGINT and SIGTERM to its whole process group, and by
# SIGKILL alone while a child it forked lives on; the guardian must bring the
# CPUs back within a few seconds.
# $1: the dbscale binary; the test binary is beside it in tests/ (make unit).
# Exit 0 pass, 77 skip (hotplug not permitted here, or no test binary).
# Whatever happens, every CPU that was online at the start is online at the end.
bin=$1
sys=/sys/devices/system/cpu
t=$(dirname "$bin")/tests/test_cpuset
skip() { echo "$*"; exit 77; }

[ "$(id -u)" = 0 ] || skip "CPU hotplug needs root"
[ -x "$t" ] || skip "no $t (build it with make unit)"
[ -r $sys/online ] || skip "no $sys/online"
start=$(cat $sys/online)
switches=""
for f in $sys/cpu[0-9]*/online; do
    [ -e "$f" ] || continue
    n=${f#$sys/cpu}
    n=${n%/online}
    [ "$n" = 0 ] || switches="$switches $n"
done
[ -n "$switches" ] || skip "no CPU besides 0 has an online switch in $sys"

# Put back every CPU that has a switch (they were all online at the start, or
# the test refuses to run below). Runs on any exit, failure and signals too.
restore() {
    for n in $switches; do
        [ "$(cat $sys/cpu$n/online)" = 1 ] || echo 1 >$sys/cpu$n/online
    done
}
trap 'restore' EXIT
trap 'exit 130' INT TERM HUP

for n in $switches; do
    [ "$(cat $sys/cpu$n/online)" = 1 ] || skip "CPU $n is offline before the test; not touching hotplug"
done

log=$(mktemp /tmp/dbscale-hotplug-XXXXXX.log)
DBSCALE_TEST_HOTPLUG=1 "$t" >"$log" 2>&1
rc=$?
cat "$log"
if grep -q "hotplug: skipped:" "$log"; then
    msg=$(grep "hotplug: skipped:" "$log" | head -n 1)
    rm -f "$log"
    skip "$msg"
fi
rm -f "$log"
end=$(cat $sys/online)
if [ "$end" != "$start" ]; then
    echo "FAIL: online CPUs were $start, are $end after the test"
    exit 1
fi
exit $rc
