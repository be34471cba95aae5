#!/bin/sh
# tests/vm/study.sh - the longer kernels study `make check-vm` runs (not in
# make check: about 15 minutes under TCG here): Debian's kernel as an SMP
# boot and a boot with nr_cpus=1, two boots of each, interleaved, each a
# full oltp_read_only sweep at 1 CPU and all with the kernel baseline, then
# a micro study at 1 and 2 tasks read from a config file. Checks the study
# ends well, repeats became repeats (Welch marks on the page) and the
# SMP-against-UP sentences are there.
#   usage: tests/vm/study.sh path/to/dbscale [OUT]
set -e
bin=$1
out=${2:-$(mktemp -d)/vm}
K=$(ls -t /boot/vmlinuz-* | head -n 1)
fail() { echo "FAIL: $*" >&2; exit 1; }
"$bin" kernels --kernel "$K" --boot smp= --boot up=nr_cpus=1 --repeats=2 --out "$out/db" -- \
    sweep oltp_read_only --db-driver=pgsql --cpus=1,all --threads=1,2,4 --time=5 --repeats=1 \
    --tables=2 --table-size=10000 --baseline=getppid1,pipe1 || fail "the database study failed"
grep -q 'class="smp-cost"' "$out/db/report.html" || fail "no SMP-against-UP sentence"
grep -Eq '<td class="(neg|pos)">[-+][0-9]+[*~]</td>' "$out/db/report.html" ||
    fail "no Welch mark over the two boots"
rows=$(sed 1d "$out/db/$(basename "$K" | sed 's/vmlinuz-//').up/results.csv" | wc -l)
[ "$rows" -eq 6 ] || fail "the UP variant has $rows rows, not 3 levels x 2 boots"
cat >"$out/micro.ini" <<INI
[study]
kernel = $K
boot = smp=
boot = up=nr_cpus=1
command = micro getppid1 pipe1 open1 futex1 --tasks=1,2
INI
"$bin" kernels --config "$out/micro.ini" --out "$out/micro" || fail "the micro study failed"
grep -q 'id="kernel-relative-micro"' "$out/micro/report.html" || fail "no kernel tests table"
echo "check-vm: ok ($out)"
