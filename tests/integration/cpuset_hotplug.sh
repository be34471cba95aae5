#!/bin/sh
# integration: alone
# CPU hotplug for real: the hotplug tests of test_cpuset (DBSCALE_TEST_HOTPLUG=1)
# take every CPU but 0 offline, in-process and from a child that is then
# killed by SIGKILL, SIGINT and SIGTERM to its whole process group, and by
# SIGKILL alone while a child it forked lives on; the guardian must bring the
# CPUs back within a few seconds.
# $1: the dbscale binary; the test binary is beside it in tests/ (make unit).
# Exit 0 pass, 77 skip (hotplug not permitted here; no test binary, which
# make check builds: there a failure), anything else fail.
# Whatever happens, every CPU that was online at the start is online at the end.
. "$(dirname "$0")/lib.sh" "$1"
bin=$1
sys=/sys/devices/system/cpu
t=$(dirname "$bin")/tests/test_cpuset

[ "$(id -u)" = 0 ] || skip_env "CPU hotplug needs root"
[ -x "$t" ] || skip "no $t (build it with make unit)"
[ -r $sys/online ] || skip_env "no $sys/online"
start=$(cat $sys/online)
switches=""
for f in $sys/cpu[0-9]*/online; do
    [ -e "$f" ] || continue
    n=${f#$sys/cpu}
    n=${n%/online}
    [ "$n" = 0 ] || switches="$switches $n"
done
[ -n "$switches" ] || skip_env "no CPU besides 0 has an online switch in $sys"

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
    [ "$(cat $sys/cpu$n/online)" = 1 ] || skip_env "CPU $n is offline before the test; not touching hotplug"
done

log=$(mktemp /tmp/dbscale-hotplug-XXXXXX.log)
DBSCALE_TEST_HOTPLUG=1 "$t" >"$log" 2>&1
rc=$?
cat "$log"
# the CPUs and the binary's verdict first: a failed test that also printed
# "skipped" is a failure
end=$(cat $sys/online)
msg=$(grep "hotplug: skipped:" "$log" | head -n 1)
rm -f "$log"
[ "$end" = "$start" ] || fail "online CPUs were $start, are $end after the test"
[ $rc -eq 0 ] || fail "test_cpuset exited $rc"
[ -z "$msg" ] || skip_env "$msg"
echo "cpuset_hotplug: ok"
