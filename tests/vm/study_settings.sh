#!/bin/sh
# tests/vm/study_settings.sh - a kernel x settings study in qemu guests
# (`make check-vm`, not in make check: four boots under TCG, about two
# minutes here): Debian's kernel as is, times PostgreSQL's
# synchronous_commit on and off, two rounds interleaved, a short sweep in
# each boot. Checks every boot ran in the planned order, each variant's
# server took its settings (meta.json, as the server reported them), the
# guest's record (kernels.json) and the study's (study.json) agree, and one
# page shows the variants and the runs.
#   usage: tests/vm/study_settings.sh path/to/dbscale [OUT]
set -e
bin=$1
out=${2:-$(mktemp -d)/vm-settings}
K=$(ls -t /boot/vmlinuz-* | head -n 1)
fail() { echo "FAIL: $*" >&2; exit 1; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }
"$bin" study --kernel "k=$K" --settings on=synchronous_commit=on \
    --settings off=synchronous_commit=off --repeats=2 --vm-cpus=2 --accel=tcg --quiet \
    --out "$out" -- sweep oltp_point_select --db-driver=pgsql --threads=1 --time=1 --tables=1 \
    --table-size=100 || fail "the kernel x settings study failed"
order=$(json "$out/study.json" "' '.join(r['id']+'='+r['status'] for r in d['runs'])")
[ "$order" = "k.on.r1=ok k.off.r1=ok k.on.r2=ok k.off.r2=ok" ] || fail "runs: $order"
[ "$(json "$out/study.json" "d['backend']")" = guest ] || fail "not run in guests"
[ "$(json "$out/kernels.json" "' '.join(d['variants'])")" = "k.on k.off" ] ||
    fail "kernels.json's variants: $(json "$out/kernels.json" "d['variants']")"
for s in on off; do
    got=$(json "$out/k.$s/meta.json" "d['server_settings']['synchronous_commit']")
    [ "$got" = "$s" ] || fail "k.$s's server ran with synchronous_commit=$got"
    [ "$(sed 1d "$out/k.$s/results.csv" | wc -l)" -eq 2 ] || fail "k.$s: not one row a boot"
done
grep -q 'id="study-runs"' "$out/report.html" || fail "the page has no runs"
echo "check-vm settings: ok ($out)"
